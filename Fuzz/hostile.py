#!/usr/bin/env python3
"""Hostile JPEGs the fuzzer cannot reach by mutation (found by reading the bridge), for regression tests.

  python3 Fuzz/hostile.py scans W H [EXTRA] OUT   legal grayscale progressive JPEG, W x H, mid-grey,
        in 883 scans (1 DC + 63 AC coefficients x 14 successive-approximation scans) of a few dozen
        bytes each, + EXTRA repeated refinement scans (libjpeg warns once each). libjpeg walks every
        block of the image once per scan: 7000 7000 -> 163 KB, ~15 s of CPU per render.
  python3 Fuzz/hostile.py app2 MIB OUT           a 32x32 grayscale JPEG (malformed/grayscale.jpg's
        pixels) preceded by MIB MiB of 64 KiB APP2 'ICC_PROFILE' segments: jpeg_save_markers keeps
        them all, so a render's RSS grows with the file (400 MiB -> 429 MB).
"""
import struct, sys

def seg(marker, payload): return struct.pack(">BBH", 0xFF, marker, len(payload) + 2) + payload

def pack_bits(bits):
    bits = bits + [1] * (-len(bits) % 8)
    raw = bytes(int("".join(map(str, bits[i:i + 8])), 2) for i in range(0, len(bits), 8))
    return raw.replace(b"\xff", b"\xff\x00")

def scans(width, height, extra):
    blocks = ((width + 7) // 8) * ((height + 7) // 8)
    def dht(tc_th, symbol): return seg(0xC4, bytes([tc_th, 1] + [0] * 15 + [symbol]))  # code '0' -> symbol
    def sos(ss, se, ah, al): return seg(0xDA, bytes([1, 1, 0x00, ss, se, (ah << 4) | al]))
    eob = pack_bits(([0] + [1] * 14) * -(-blocks // 32767))  # symbol EOB14 + 14 one-bits: EOBRUN 32767 each
    f = bytearray(b"\xff\xd8") + seg(0xDB, bytes([0] + [1] * 64))
    f += seg(0xC2, struct.pack(">BHHB", 8, height, width, 1) + bytes([1, 0x11, 0]))
    f += dht(0x00, 0x00) + dht(0x10, 0xE0)
    f += sos(0, 0, 0, 0) + pack_bits([0] * blocks)          # every DC difference 0
    for k in range(1, 64):
        f += sos(k, k, 0, 13) + eob
        for al in range(12, -1, -1): f += sos(k, k, al + 1, al) + eob
    for _ in range(extra): f += sos(1, 1, 1, 0) + eob
    return bytes(f + b"\xff\xd9")

def app2(mib):
    # 32x32 grayscale baseline, made here so the script needs no test data
    import subprocess
    pgm = b"P5\n32 32\n255\n" + bytes(range(256)) * 4
    small = subprocess.run(["cjpeg", "-grayscale"], input=pgm, capture_output=True, check=True).stdout
    chunk = seg(0xE2, b"ICC_PROFILE\x00\x01\x01" + bytes(0xFFFF - 2 - 14))
    return small[:2] + chunk * (mib * (1 << 20) // len(chunk)) + small[2:]

if __name__ == "__main__":
    kind, args = sys.argv[1], sys.argv[2:]
    data = scans(int(args[0]), int(args[1]), int(args[2]) if len(args) > 3 else 0) if kind == "scans" else app2(int(args[0]))
    open(args[-1], "wb").write(data)
    print(f"{args[-1]}: {len(data)} bytes", file=sys.stderr)
