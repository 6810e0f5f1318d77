#!/usr/bin/env python3
"""Writes a copy of a HEIF/AVIF with one change to its meta box, for tests of what real files do
that no encoder here writes. Item locations (iloc, construction method 0) are moved by as much as
the meta box grows when it lies before the data.

    heif-edit.py clap IN OUT WIDTH HEIGHT   # a centred clean-aperture crop of the primary item
                                            # (listed before its irot/imir, as the order requires)
    heif-edit.py share-aux IN OUT           # iOS 18's shape: one auxiliary image (auxl) of two
                                            # images, the primary and its thumbnail item
    heif-edit.py primary-type IN OUT TYPE   # the primary item's type (4 letters): one no decoder reads
    heif-edit.py no-thumbnail-colour IN OUT # the thumbnail items' colour boxes (colr) unassociated, as
                                            # libheif 1.15's heif-enc wrote them (1.19's says sRGB)
"""
import struct
import sys


def boxes(data, start, end):
    """[type, payload start, box end] of each box in data[start:end]."""
    found = []
    while start + 8 <= end:
        size, kind = struct.unpack(">I4s", data[start:start + 8])
        header = 8
        if size == 1:
            size, header = struct.unpack(">Q", data[start + 8:start + 16])[0], 16
        elif size == 0:
            size = end - start
        if size < header:
            break
        found.append([kind.decode("latin-1"), start + header, start + size])
        start += size
    return found


def box(kind, payload):
    return struct.pack(">I4s", 8 + len(payload), kind.encode("latin-1")) + payload


class Reader:
    def __init__(self, data, at=0):
        self.data, self.at = data, at

    def uint(self, length):
        value = int.from_bytes(self.data[self.at:self.at + length], "big") if length else 0
        self.at += length
        return value


def uint(value, length):
    return value.to_bytes(length, "big") if length else b""


def parse_iloc(payload):
    r = Reader(payload)
    version = r.uint(1)
    flags = r.uint(3)
    sizes = r.uint(2)
    offset_size, length_size, base_size = sizes >> 12, sizes >> 8 & 15, sizes >> 4 & 15
    index_size = sizes & 15 if version else 0
    items = []
    for _ in range(r.uint(2 if version < 2 else 4)):
        item = {"id": r.uint(2 if version < 2 else 4), "method": r.uint(2) if version else 0}
        item["reference"] = r.uint(2)
        item["base"] = r.uint(base_size)
        item["extents"] = [(r.uint(index_size), r.uint(offset_size), r.uint(length_size)) for _ in range(r.uint(2))]
        items.append(item)
    return version, flags, (offset_size, length_size, base_size, index_size), items


def write_iloc(version, flags, sizes, items):
    offset_size, length_size, base_size, index_size = sizes
    out = uint(version, 1) + uint(flags, 3) + uint(offset_size << 12 | length_size << 8 | base_size << 4 | index_size, 2)
    out += uint(len(items), 2 if version < 2 else 4)
    for item in items:
        out += uint(item["id"], 2 if version < 2 else 4) + (uint(item["method"], 2) if version else b"")
        out += uint(item["reference"], 2) + uint(item["base"], base_size) + uint(len(item["extents"]), 2)
        for index, offset, length in item["extents"]:
            out += uint(index, index_size) + uint(offset, offset_size) + uint(length, length_size)
    return out


def parse_ipma(payload):
    r = Reader(payload)
    version, flags = r.uint(1), r.uint(3)
    entries = []
    for _ in range(r.uint(4)):
        item = r.uint(2 if version < 1 else 4)
        entries.append([item, [r.uint(2 if flags & 1 else 1) for _ in range(r.uint(1))]])
    return version, flags, entries


def write_ipma(version, flags, entries):
    out = uint(version, 1) + uint(flags, 3) + uint(len(entries), 4)
    for item, associations in entries:
        out += uint(item, 2 if version < 1 else 4) + uint(len(associations), 1)
        out += b"".join(uint(a, 2 if flags & 1 else 1) for a in associations)
    return out


def parse_iref(payload):
    version = payload[0]
    size = 2 if version == 0 else 4
    references = []
    for kind, start, end in boxes(payload, 4, len(payload)):
        r = Reader(payload, start)
        source = r.uint(size)
        references.append([kind, source, [r.uint(size) for _ in range(r.uint(2))]])
    return version, references


def write_iref(version, references):
    size = 2 if version == 0 else 4
    return uint(version, 4) + b"".join(
        box(kind, uint(source, size) + uint(len(targets), 2) + b"".join(uint(t, size) for t in targets))
        for kind, source, targets in references)


class Meta:
    """The meta box's children as (type, payload) pairs, edited, then written back."""

    def __init__(self, data):
        self.data = data
        self.top = boxes(data, 0, len(data))
        self.meta = next(b for b in self.top if b[0] == "meta")
        self.children = [[k, data[s:e]] for k, s, e in boxes(data, self.meta[1] + 4, self.meta[2])]
        self.primary = Reader(self.child("pitm"), 4).uint(2 if self.child("pitm")[0] == 0 else 4)

    def child(self, kind):
        return next(p for k, p in self.children if k == kind)

    def replace(self, kind, payload):
        next(c for c in self.children if c[0] == kind)[1] = payload

    def write(self):
        _, start, end = self.meta
        payload = self.data[start:start + 4] + b"".join(box(k, p) for k, p in self.children)
        grown = 8 + len(payload) - (end - (start - 8))
        if grown:
            version, flags, sizes, items = parse_iloc(self.child("iloc"))
            for item in items:
                if item["method"] != 0:
                    continue
                if item["base"] >= end:
                    item["base"] += grown
                elif item["base"] == 0:
                    item["extents"] = [(i, o + grown if o >= end else o, n) for i, o, n in item["extents"]]
            self.replace("iloc", write_iloc(version, flags, sizes, items))
            payload = self.data[start:start + 4] + b"".join(box(k, p) for k, p in self.children)
        return self.data[:start - 8] + box("meta", payload) + self.data[end:]


def boxes_of(payload):
    return [[k, payload[s:e]] for k, s, e in boxes(payload, 0, len(payload))]


def clap(meta, width, height):
    iprp = boxes_of(meta.child("iprp"))
    ipco = next(c for c in iprp if c[0] == "ipco")
    ipma = next(c for c in iprp if c[0] == "ipma")
    properties = boxes_of(ipco[1])
    properties.append(["clap", struct.pack(">8I", width, 1, height, 1, 0, 1, 0, 1)])
    ipco[1] = b"".join(box(k, p) for k, p in properties)
    version, flags, entries = parse_ipma(ipma[1])
    mask = 0x7FFF if flags & 1 else 0x7F
    for entry in entries:
        if entry[0] == meta.primary:
            kinds = [properties[(a & mask) - 1][0] for a in entry[1]]
            at = next((i for i, k in enumerate(kinds) if k in ("irot", "imir")), len(kinds))
            entry[1].insert(at, (mask + 1) | len(properties))
    ipma[1] = write_ipma(version, flags, entries)
    meta.replace("iprp", b"".join(box(k, p) for k, p in iprp))


def share_aux(meta):
    version, references = parse_iref(meta.child("iref"))
    thumbnail = next(source for kind, source, targets in references if kind == "thmb" and meta.primary in targets)
    auxiliary = next(r for r in references if r[0] == "auxl" and meta.primary in r[2])
    auxiliary[2].append(thumbnail)
    meta.replace("iref", write_iref(version, references))


def primary_type(meta, kind):
    iinf = meta.child("iinf")
    start = 6 if iinf[0] == 0 else 8
    entries = boxes_of(iinf[start:])
    for entry in entries:
        infe = entry[1]
        id_size = 2 if infe[0] == 2 else 4
        if entry[0] == "infe" and Reader(infe, 4).uint(id_size) == meta.primary:
            at = 4 + id_size + 2
            entry[1] = infe[:at] + kind.encode("latin-1") + infe[at + 4:]
    meta.replace("iinf", iinf[:start] + b"".join(box(k, p) for k, p in entries))


def no_thumbnail_colour(meta):
    thumbnails = {source for kind, source, targets in parse_iref(meta.child("iref"))[1] if kind == "thmb"}
    iprp = boxes_of(meta.child("iprp"))
    properties = boxes_of(next(c for c in iprp if c[0] == "ipco")[1])
    ipma = next(c for c in iprp if c[0] == "ipma")
    version, flags, entries = parse_ipma(ipma[1])
    mask = 0x7FFF if flags & 1 else 0x7F
    for entry in entries:
        if entry[0] in thumbnails:
            entry[1] = [a for a in entry[1] if properties[(a & mask) - 1][0] != "colr"]
    ipma[1] = write_ipma(version, flags, entries)
    meta.replace("iprp", b"".join(box(k, p) for k, p in iprp))


def main(args):
    command, source, target = args[0], args[1], args[2]
    meta = Meta(open(source, "rb").read())
    if command == "clap":
        clap(meta, int(args[3]), int(args[4]))
    elif command == "share-aux":
        share_aux(meta)
    elif command == "primary-type":
        primary_type(meta, args[3])
    elif command == "no-thumbnail-colour":
        no_thumbnail_colour(meta)
    else:
        sys.exit(f"heif-edit.py: unknown command {command}")
    open(target, "wb").write(meta.write())


if __name__ == "__main__":
    main(sys.argv[1:])
