#!/usr/bin/env python3
"""Writes the HEVC thumbnail item of a HEIF's primary image as an Annex B stream on stdout, so that
an independent decoder (ffmpeg) can decode the very picture a thumbnail may be made from.
Reads the meta box only: pitm, iref 'thmb', iloc, iprp (ipco, ipma) for the item's hvcC.

    heif-thumbnail-item.py FILE > thumb.hevc     # exit 3: the primary has no HEVC thumbnail item
"""
import importlib.util
import os
import sys

# The box walk and the big-endian reader are heif-edit.py's, beside this file.
_spec = importlib.util.spec_from_file_location("heif_edit", os.path.join(os.path.dirname(os.path.abspath(__file__)), "heif-edit.py"))
_heif_edit = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_heif_edit)
boxes, Reader = _heif_edit.boxes, _heif_edit.Reader


def main(path):
    data = open(path, "rb").read()
    meta = next(((s, e) for t, s, e in boxes(data, 0, len(data)) if t == "meta"), None)
    if meta is None:
        return 3
    children = {t: (s, e) for t, s, e in boxes(data, meta[0] + 4, meta[1])}  # meta is a full box
    if not {"pitm", "iref", "iloc", "iprp", "iinf"} <= children.keys():
        return 3
    pitm = Reader(data, children["pitm"][0])
    primary = pitm.uint(2 if pitm.uint(4) >> 24 == 0 else 4)

    start, end = children["iref"]
    width = 2 if data[start] == 0 else 4
    thumbnail = None
    for kind, s, _ in boxes(data, start + 4, end):
        r = Reader(data, s)
        source = r.uint(width)
        targets = [r.uint(width) for _ in range(r.uint(2))]
        if kind == "thmb" and primary in targets:
            thumbnail = source
    if thumbnail is None:
        return 3

    start, end = children["iinf"]
    version = data[start]
    for kind, s, _ in boxes(data, start + 4 + (2 if version == 0 else 4), end):
        r = Reader(data, s)
        if kind == "infe" and r.uint(4) >> 24 >= 2:
            item = r.uint(2 if data[s] == 2 else 4)
            r.uint(2)
            if item == thumbnail and data[r.at:r.at + 4] != b"hvc1":
                return 3

    r = Reader(data, children["iloc"][0])
    version = r.uint(4) >> 24
    sizes = r.uint(2)
    offset_size, length_size, base_size = sizes >> 12, (sizes >> 8) & 15, (sizes >> 4) & 15
    index_size = sizes & 15 if version in (1, 2) else 0
    extents = {}
    for _ in range(r.uint(2 if version < 2 else 4)):
        item = r.uint(2 if version < 2 else 4)
        if version in (1, 2):
            r.uint(2)  # construction method: 0 (file offsets) for coded images
        r.uint(2)
        base = r.uint(base_size)
        spans = []
        for _ in range(r.uint(2)):
            r.uint(index_size)
            spans.append((base + r.uint(offset_size), r.uint(length_size)))
        extents[item] = spans

    properties, associations = [], {}
    for kind, s, e in boxes(data, *children["iprp"]):
        if kind == "ipco":
            properties = list(boxes(data, s, e))
        elif kind == "ipma":
            r = Reader(data, s)
            flags = r.uint(4)
            version, large = flags >> 24, flags & 1
            for _ in range(r.uint(4)):
                item = r.uint(2 if version < 1 else 4)
                associations[item] = [r.uint(2 if large else 1) & (0x7FFF if large else 0x7F) for _ in range(r.uint(1))]

    stream = bytearray()
    for index in associations.get(thumbnail, []):
        kind, s, _ = properties[index - 1]
        if kind != "hvcC":
            continue
        r = Reader(data, s + 22)
        for _ in range(r.uint(1)):
            r.uint(1)
            for _ in range(r.uint(2)):
                length = r.uint(2)
                stream += b"\0\0\0\1" + data[r.at:r.at + length]
                r.at += length
    if not stream or thumbnail not in extents:
        return 3
    for offset, length in extents[thumbnail]:
        r = Reader(data, offset)
        while r.at + 4 <= offset + length:
            size = r.uint(4)
            stream += b"\0\0\0\1" + data[r.at:r.at + size]
            r.at += size
    sys.stdout.buffer.write(stream)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
