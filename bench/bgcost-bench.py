#!/usr/bin/env python3
"""Browsing while the background passes run (issues 31, 32): `find` over albums of groups/ not
looked up before (uncached), µs an entry, tagged with the pass under way (read from the catalog,
read-only), until every id is made, then 8 times after. Also the daemon's rchar and the WAL's size.

usage: bgcost-bench.py MNT CATALOG DAEMON_PID [ALBUMS_A_FIND] [TIMEOUT_S] [PAUSE_S]
(a pause between finds keeps albums for the later passes)
"""
import os, sqlite3, subprocess, sys, time

mnt, catalog, pid = sys.argv[1], sys.argv[2], int(sys.argv[3])
per_find = int(sys.argv[4]) if len(sys.argv) > 4 else 10
timeout = float(sys.argv[5]) if len(sys.argv) > 5 else 900
pause = float(sys.argv[6]) if len(sys.argv) > 6 else 0

def phase():
    db = sqlite3.connect(f"file:{catalog}?mode=ro", uri=True, timeout=30)
    try:
        undated = db.execute("SELECT count(*) FROM undated").fetchone()[0]
        lacking = db.execute("SELECT count(*) FROM properties WHERE content_id IS NULL").fetchone()[0]
    finally:
        db.close()
    return "properties" if undated else ("ids" if lacking else "after"), undated, lacking

def commits():
    """Commits to the catalog so far (its CommitCounter counts each twice)."""
    try:
        with open(catalog + "-commits", "rb") as f:
            return int.from_bytes(f.read(8), "little") // 2
    except OSError:
        return 0

def rchar():
    with open(f"/proc/{pid}/io") as f:
        return int(next(l for l in f if l.startswith("rchar")).split()[1])

albums = sorted(os.listdir(os.path.join(mnt, "groups")))
albums = [a for a in albums if a != "album-big"]
t_start, after = time.time(), 0
totals = {}
for i in range(0, len(albums), per_find):
    before = phase()
    paths = [os.path.join(mnt, "groups", a) for a in albums[i:i + per_find]]
    r0, c0, t0 = rchar(), commits(), time.perf_counter()
    out = subprocess.run(["find", *paths], capture_output=True, check=True).stdout
    dt = time.perf_counter() - t0
    committed = commits() - c0
    entries = out.count(b"\n")
    end = phase()
    tag = before[0] if before[0] == end[0] else f"{before[0]}>{end[0]}"
    wal = os.path.getsize(catalog + "-wal") if os.path.exists(catalog + "-wal") else 0
    print(f"{time.time() - t_start:7.1f}s {tag:18} {entries:6} entries {dt * 1e6 / entries:7.1f} us/entry"
          f"  {committed / dt:5.1f} commits/s  daemon rchar +{(rchar() - r0) / 1e6:.1f} MB  wal {wal / 1e6:.1f} MB  undated {end[1]} no-id {end[2]}", flush=True)
    if before[0] == end[0]:
        n, t = totals.get(tag, (0, 0.0))
        totals[tag] = (n + entries, t + dt)
    if end[0] == "after":
        after += 1
        if after >= 8: break
    if time.time() - t_start > timeout: break
    time.sleep(pause)
for tag, (n, t) in totals.items():
    print(f"SUMMARY {tag}: {n} entries, {t * 1e6 / n:.1f} us/entry")
