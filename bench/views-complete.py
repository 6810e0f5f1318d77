#!/usr/bin/env python3
"""Waits until a first mount's views are complete and says when (scale-bench, issue 31).

    views-complete.py CATALOG MOUNTPOINT PID T0 TIMEOUT

Complete: every photo's properties read (the catalog's `undated` queue empty) and its content id
made (a copy leaves the views once its id says it is one), the daemon's backlog empty
(`catalog_pending` 0, `catalog_complete` 1 in user.assetfs.stats), and then nothing written to
the catalog (its data_version) and no view's top folder changed for QUIET seconds. The
time of completion is the last change seen, from T0 (the mount command's start, EPOCHREALTIME).
Polls every 0.5 s a read-only connection of its own (the daemon's writer is never blocked), and
once every property and id is there, the mount too: one stats read and a listing of each view's
top folder.

Prints one line of key=value: complete (s, or TIMEOUT), properties (s until `undated` was empty),
ids (s until every photo also had its content id, issue 32: no properties row without one),
ids_cpu_ms, ids_rchar, ids_read_bytes (the daemon's CPU and bytes read, /proc/PID/io, until
then), cpu_ms (the daemon's user + system CPU at completion), hwm_kb (its VmHWM then), then per
view `<view>=<folders>/<members>` (the view's stored folders and member asset folders).
"""
import json
import os
import sqlite3
import sys
import time

VIEWS = ("dates", "events", "places", "people", "tags", "favorites", "videos")  # CatalogView's raw values
QUIET = 3.0
TICKS = os.sysconf("SC_CLK_TCK")


def cpu_ms(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 // TICKS   # utime, stime


def hwm_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        return next((int(line.split()[1]) for line in f if line.startswith("VmHWM:")), 0)


def io(pid):
    with open(f"/proc/{pid}/io") as f:
        fields = dict(line.split(": ") for line in f.read().splitlines())
    return f"ids_rchar={fields['rchar']} ids_read_bytes={fields['read_bytes']}"


def stats(mountpoint):
    try:
        return json.loads(os.getxattr(mountpoint, "user.assetfs.stats"))
    except (OSError, ValueError):
        return {}


def tops(mountpoint):
    listed = []
    for view in VIEWS:
        try:
            listed.append(len(os.listdir(os.path.join(mountpoint, view))))
        except OSError:
            listed.append(None)
    return tuple(listed)


def per_view(db):
    try:
        return stored_views(db)
    except sqlite3.Error:   # a catalog without the views' tables
        return ""


def stored_views(db):
    folders = dict(db.execute("SELECT view, count(*) FROM view_folders GROUP BY view"))
    members = dict(db.execute(
        "SELECT CASE WHEN m.folder < 0 THEN -1 - m.folder ELSE f.view END AS v, count(*)"
        " FROM view_members m LEFT JOIN view_folders f ON f.id = m.folder GROUP BY v"))
    return " ".join(f"{name}={folders.get(i, 0)}/{members.get(i, 0)}" for i, name in enumerate(VIEWS))


def lacking_ids(db):
    """A photo whose properties are read but not its id (NULLs come first in the id's index)."""
    return db.execute("SELECT EXISTS (SELECT 1 FROM properties WHERE content_id IS NULL)").fetchone()[0]


def main():
    catalog, mountpoint, pid, t0, timeout = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
    deadline = time.time() + timeout
    db = None
    while db is None and time.time() < deadline:
        try:
            db = sqlite3.connect(f"file:{catalog}?mode=ro", uri=True, timeout=30)
            db.execute("SELECT count(*) FROM undated").fetchone()
        except sqlite3.Error:
            db = None
            time.sleep(0.5)
    last, changed, cpu_at, hwm_at, properties = None, time.time(), 0, 0, "TIMEOUT"
    ids = "ids=TIMEOUT"
    while time.time() < deadline:
        undated = db.execute("SELECT count(*) FROM undated").fetchone()[0]
        version = db.execute("PRAGMA data_version").fetchone()[0]
        now = time.time()
        if undated == 0 and properties == "TIMEOUT":
            properties = f"{now - t0:.2f}"
        if undated == 0 and ids == "ids=TIMEOUT" and not lacking_ids(db):
            ids = f"ids={now - t0:.2f} ids_cpu_ms={cpu_ms(pid)} {io(pid)}"
        # The mount is asked only once the catalog says the rest is done: a stats read counts the
        # whole catalog (320 MB of reads at a million) and favorites/ lists 50,000 asset folders,
        # which every 0.5 s made the daemon measured here far busier than it is.
        settled = undated == 0 and ids != "ids=TIMEOUT"
        counters, listed = (stats(mountpoint), tops(mountpoint)) if settled else ({}, None)
        state = (undated, version, counters.get("catalog_pending"), counters.get("catalog_complete"), listed)
        if state != last:
            last, changed, cpu_at, hwm_at = state, now, cpu_ms(pid), hwm_kb(pid)
        elif settled and state[2] == 0 and state[3] == 1 and now - changed >= QUIET:
            print(f"complete={changed - t0:.2f} properties={properties} {ids} cpu_ms={cpu_at} hwm_kb={hwm_at} {per_view(db)}")
            return
        time.sleep(0.5)
    print(f"complete=TIMEOUT properties={properties} {ids} cpu_ms={cpu_ms(pid)} hwm_kb={hwm_kb(pid)}")


if __name__ == "__main__":
    main()
