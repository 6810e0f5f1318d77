#!/usr/bin/env python3
"""PSNR in dB of IMAGE against REFERENCE, over all RGB samples (8-bit, peak 255).

usage: psnr.py IMAGE REFERENCE

Both are decoded to 8-bit RGB by ImageMagick (`convert FILE -depth 8 ppm:-`), so a JPEG
and a PNG compare alike. They must have the same size. Prints one number ("inf" if equal).
"""
import math
import subprocess
import sys

import numpy as np


def read_rgb(path):
    data = subprocess.run(["convert", path, "-colorspace", "sRGB", "-type", "TrueColor", "-depth", "8", "ppm:-"],
                          check=True, stdout=subprocess.PIPE).stdout
    return parse_ppm(data, path)


def parse_ppm(data, path):
    """The pixels of an 8-bit binary PPM (P6) as a height x width x 3 array."""
    # P6 header: magic, width, height, maxval, each separated by whitespace (no comments from ImageMagick).
    fields, pos = [], 0
    while len(fields) < 4:
        while data[pos:pos + 1].isspace():
            pos += 1
        start = pos
        while not data[pos:pos + 1].isspace():
            pos += 1
        fields.append(data[start:pos])
    pos += 1  # the single whitespace byte after maxval
    if fields[0] != b"P6" or int(fields[3]) != 255:
        sys.exit(f"psnr.py: {path}: expected 8-bit P6, got {fields[0]!r} maxval {fields[3]!r}")
    width, height = int(fields[1]), int(fields[2])
    pixels = np.frombuffer(data, np.uint8, count=width * height * 3, offset=pos)
    return pixels.reshape(height, width, 3)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip())
    image, reference = read_rgb(sys.argv[1]), read_rgb(sys.argv[2])
    if image.shape != reference.shape:
        sys.exit(f"psnr.py: sizes differ: {sys.argv[1]} is {image.shape[1]}x{image.shape[0]}, "
                 f"{sys.argv[2]} is {reference.shape[1]}x{reference.shape[0]}")
    mse = np.mean((image.astype(np.float64) - reference.astype(np.float64)) ** 2)
    print("inf" if mse == 0 else f"{10 * math.log10(255.0 ** 2 / mse):.3f}")


if __name__ == "__main__":
    main()
