#!/usr/bin/env python3
"""Writes a deterministic photo-like picture as a binary PPM (P6) to stdout, in strips.

usage: genphoto.py WIDTH HEIGHT SEED | cjpeg -quality 90 -outfile photo.jpg
       genphoto.py WIDTH HEIGHT SEED --png16 > photo.png    # 16-bit PNG (for 10-bit HEIFs)

"Photo-like" means what a downscaler meets in real photos, at any size:
  * smooth 1/f-ish colour fields (fractal value noise, computed on a 1/8-size grid and
    upsampled bilinearly),
  * per-pixel detail and sensor-like noise (a precomputed multi-octave tile),
  * hard edges (discs and rectangles in flat-ish colours that keep the texture),
  * fine periodic texture (rotated sinusoid gratings, fabric or fences, down to a few
    pixels a period) where a poor filter aliases.
The scene is laid out in fractions of the frame, so every size shows the same picture.
Only numpy is used; memory is a few strips whatever the size (a 20000x20000 frame is fine).
"""
import sys

import numpy as np

STRIP = 256  # rows generated at a time


def fractal(rng, height, width, channels, coarsest, finest, roughness):
    """Sum of bilinearly upsampled random grids, spacing halving from `coarsest` to `finest` px."""
    out = np.zeros((height, width, channels), np.float32)
    spacing, amplitude = float(coarsest), 1.0
    while spacing >= finest:
        gh, gw = int(height / spacing) + 2, int(width / spacing) + 2
        grid = rng.standard_normal((gh, gw, channels)).astype(np.float32)
        out += amplitude * upsample(grid, height, width, spacing)
        spacing /= 2
        amplitude *= roughness
    return out


def upsample(grid, height, width, spacing, row0=0):
    """Bilinear interpolation of `grid` (one sample every `spacing` px) at rows row0.., cols 0.."""
    ys = (np.arange(row0, row0 + height, dtype=np.float64) + 0.5) / spacing
    xs = (np.arange(width, dtype=np.float64) + 0.5) / spacing
    y0 = np.minimum(ys.astype(np.int64), grid.shape[0] - 2)
    x0 = np.minimum(xs.astype(np.int64), grid.shape[1] - 2)
    fy = (ys - y0).astype(np.float32)[:, None, None]
    fx = (xs - x0).astype(np.float32)[None, :, None]
    rows = grid[y0[0]:y0[-1] + 2]  # only the grid rows this strip touches
    y0 = y0 - y0[0]
    left = rows[:, x0]
    across = left + (rows[:, x0 + 1] - left) * fx
    top = across[y0]
    bottom = across[y0 + 1]
    bottom -= top
    bottom *= fy
    bottom += top
    return bottom


def main():
    width, height, seed = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    rng = np.random.default_rng(seed)
    long_side = max(width, height)

    # Large-scale colour fields on a grid 1/8 of the frame: luma rough, chroma smoother.
    step = 8.0
    bh, bw = int(height / step) + 2, int(width / step) + 2
    luma = fractal(rng, bh, bw, 1, max(bh, bw) / 2, 1, 0.62)
    chroma = fractal(rng, bh, bw, 2, max(bh, bw) / 2, 4, 0.55)
    luma = (luma - luma.mean()) / (luma.std() + 1e-6)
    chroma = (chroma - chroma.mean(axis=(0, 1))) / (chroma.std(axis=(0, 1)) + 1e-6)
    base = np.empty((bh, bw, 3), np.float32)
    y, cb, cr = 118 + 42 * luma[..., 0], 22 * chroma[..., 0], 22 * chroma[..., 1]
    base[..., 0] = y + 1.402 * cr
    base[..., 1] = y - 0.344 * cb - 0.714 * cr
    base[..., 2] = y + 1.772 * cb
    del luma, chroma, y, cb, cr

    # Fine detail, tiled: octaves at 1..4 px plus per-pixel noise (mostly luma).
    th, tw = 1031, 1049  # primes: the repeat lines up with nothing
    detail = fractal(rng, th, tw, 1, 8, 1, 0.8)
    detail = 14 * (detail - detail.mean()) / detail.std()
    tile = detail + 4.0 * rng.standard_normal((th, tw, 3)).astype(np.float32)
    tile = tile.astype(np.float32)
    del detail

    # Hard-edged objects, in fractions of the frame.
    shapes = []
    for _ in range(40):
        kind = rng.choice(["disc", "rect", "grating"], p=[0.4, 0.35, 0.25])
        cx, cy = rng.uniform(0, width), rng.uniform(0, height)
        size = rng.uniform(0.02, 0.16) * long_side
        colour = rng.uniform(20, 235, 3).astype(np.float32)
        if kind == "disc":
            shapes.append(("disc", cx, cy, size / 2, colour))
        elif kind == "rect":
            w, h = size * rng.uniform(0.3, 1.5), size * rng.uniform(0.3, 1.5)
            shapes.append(("rect", cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, colour))
        else:
            period = long_side * rng.uniform(1 / 2400, 1 / 150)  # 2..27 px at 4000 px wide
            angle = rng.uniform(0, np.pi)
            w, h = size * rng.uniform(0.5, 1.2), size * rng.uniform(0.5, 1.2)
            shapes.append(("grating", cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, colour,
                           max(period, 2.2), angle, rng.uniform(40, 90)))

    def strips():
        col_index = np.arange(width) % tw
        for row0 in range(0, height, STRIP):
            rows = min(STRIP, height - row0)
            strip = upsample(base, rows, width, step, row0)
            detail_rows = tile[np.arange(row0, row0 + rows) % th]
            strip += np.take(detail_rows, col_index, axis=1)
            for shape in shapes:
                paint(strip, row0, rows, width, shape)
            yield np.clip(strip, 0, 255, out=strip)

    out = sys.stdout.buffer
    if sys.argv[4:] == ["--png16"]:
        write_png16(out, width, height, strips())
        return
    out.write(b"P6\n%d %d\n255\n" % (width, height))
    for strip in strips():
        out.write((strip + 0.5).astype(np.uint8).tobytes())


def write_png16(out, width, height, strips):
    """A 16-bit RGB PNG of float strips (0-255), written as they come: the picture's values
    between the 8-bit steps are kept, so a 10-bit encoder has real 10-bit content to code."""
    import struct
    import zlib

    def chunk(kind, data):
        out.write(struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data)))

    out.write(b"\x89PNG\r\n\x1a\n")
    chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 16, 2, 0, 0, 0))
    compressor = zlib.compressobj(6)
    for strip in strips:
        samples = (strip * 257 + 0.5).astype(">u2").reshape(strip.shape[0], width * 3)
        rows = np.zeros((strip.shape[0], 1 + width * 6), np.uint8)  # filter byte 0: none
        rows[:, 1:] = samples.view(np.uint8)
        data = compressor.compress(rows.tobytes())
        if data:
            chunk(b"IDAT", data)
    chunk(b"IDAT", compressor.flush())
    chunk(b"IEND", b"")


def paint(strip, row0, rows, width, shape):
    kind = shape[0]
    if kind == "disc":
        _, cx, cy, r, colour = shape
        top, bottom = max(row0, int(cy - r)), min(row0 + rows, int(cy + r) + 1)
        left, right = max(0, int(cx - r)), min(width, int(cx + r) + 1)
        if top >= bottom or left >= right:
            return
        yy = (np.arange(top, bottom) + 0.5 - cy)[:, None]
        xx = (np.arange(left, right) + 0.5 - cx)[None, :]
        mask = (yy * yy + xx * xx) <= r * r
        region = strip[top - row0:bottom - row0, left:right]
        region[mask] = colour + 0.35 * (region[mask] - 118)
        return
    x0, y0, x1, y1 = shape[1:5]
    top, bottom = max(row0, int(y0)), min(row0 + rows, int(y1))
    left, right = max(0, int(x0)), min(width, int(x1))
    if top >= bottom or left >= right:
        return
    region = strip[top - row0:bottom - row0, left:right]
    if kind == "rect":
        region[...] = shape[5] + 0.35 * (region - 118)
        return
    colour, period, angle, contrast = shape[5:]
    yy = (np.arange(top, bottom, dtype=np.float32) + 0.5)[:, None]
    xx = (np.arange(left, right, dtype=np.float32) + 0.5)[None, :]
    phase = (xx * np.float32(np.cos(angle)) + yy * np.float32(np.sin(angle))) * np.float32(2 * np.pi / period)
    wave = (contrast * np.sin(phase))[..., None]
    region[...] = colour + wave + 0.25 * (region - 118)


if __name__ == "__main__":
    main()
