"""Two mounts of one SOURCE (issue 17, item 5). A second mount with the same cache and catalog is
refused before it mounts, naming the first and -o cache=; two mounts with caches of their own
(what the refusal suggests) both follow SOURCE while 4 readers read each and albums and photos
come and go: every change shows in both, and no reader of either meets an error."""
import os
import random
import shutil
import statistics
import subprocess
import threading
import time

from harness import BINARY, QUICK, Mount, Scratch, read_all
from trust import MEDIUM, add_photo, make_library

READERS = 4


def two_mounts(checks):
    problems = []
    scratch = Scratch("two-mounts")
    mounts = []
    try:
        source = make_library(scratch, 20)  # Album0 (read, never changed) and Album1 (changed)
        mounts.append(Mount(source, scratch.sub("m1"), f"cache={scratch.path}/one.sqlite"))
        problems += second_mount_of_one_cache_refused(source, scratch, mounts[0])
        mounts.append(Mount(source, scratch.sub("m2"), f"cache={scratch.path}/two.sqlite"))
        tallies = {mount.mountpoint: {"reads": 0, "errors": []} for mount in mounts}
        stop = threading.Event()
        readers = [threading.Thread(target=read_steadily, args=(mount, tallies[mount.mountpoint], stop), daemon=True)
                   for mount in mounts for _ in range(READERS)]
        for thread in readers:
            thread.start()
        try:
            lags, changes = churn(source, mounts, rounds=3 if QUICK else 10, problems=problems)
        finally:
            stop.set()
            for thread in readers:
                thread.join(30)
        for index, mount in enumerate(mounts, 1):
            tally = tallies[mount.mountpoint]
            problems += [f"m{index}: {error}" for error in tally["errors"][:5]]
            checks.figure(f"two mounts: m{index} {tally['reads']} reads by {READERS} readers, {len(tally['errors'])} errors; "
                          f"{changes} changes shown after median {statistics.median(lags[mount.mountpoint]):.2f} s, "
                          f"max {max(lags[mount.mountpoint]):.2f} s")
        listings = [sorted(os.listdir(os.path.join(mount.mountpoint, "groups"))) for mount in mounts]
        if listings[0] != listings[1] or listings[0] != sorted(os.listdir(source)):
            problems.append(f"the mounts disagree at the end: {listings} (SOURCE {sorted(os.listdir(source))})")
    finally:
        for mount in mounts:
            mount.close()
        scratch.close()
    return problems


def second_mount_of_one_cache_refused(source, scratch, first):
    """`assetfs SOURCE MNT2` with the first mount's cache: exit 2 before mounting, naming it."""
    point = scratch.sub("refused")
    out = subprocess.run([BINARY, "-o", f"cache={scratch.path}/one.sqlite", source, point], capture_output=True, timeout=120)
    message = out.stderr.decode(errors="replace")
    problems = []
    if os.path.ismount(point):
        subprocess.run(["fusermount3", "-u", point], capture_output=True)
        problems.append("a second mount of the same cache was mounted")
    if out.returncode != 2 or f"in use by the mount on {first.mountpoint}" not in message or "-o cache=FILE" not in message:
        problems.append(f"second mount of one cache: exit {out.returncode}, {message.strip()!r}")
    return problems


def read_steadily(mount, tally, stop):
    """Lists groups/ and reads a thumbnail of Album0 (which never changes) until `stop`."""
    album = os.path.join(mount.mountpoint, "groups", "Album0")
    while not stop.is_set():
        path = os.path.join(album, f"p{random.randrange(10):02d}", "thumbnail.jpg")
        try:
            os.listdir(os.path.join(mount.mountpoint, "groups"))
            if not read_all(path):
                tally["errors"].append(f"{path}: empty")
            tally["reads"] += 1
        except OSError as error:
            tally["errors"].append(f"{path}: {error}")


def churn(source, mounts, rounds, problems):
    """Each round: an album added, a photo added to Album1, that photo deleted, the album deleted;
    after each, how long until every mount shows it. Returns ({mountpoint: [seconds]}, changes)."""
    lags = {mount.mountpoint: [] for mount in mounts}
    changes = 0

    def expect(description, shown):
        nonlocal changes
        changes += 1
        start = time.time()
        for mount in mounts:
            while not shown(mount.mountpoint) and time.time() - start < 10:
                time.sleep(0.02)
            lags[mount.mountpoint].append(time.time() - start)
            if not shown(mount.mountpoint):
                problems.append(f"{mount.mountpoint}: {description} not shown 10 s later")

    def listing(*parts):
        try:
            return os.listdir(os.path.join(*parts))
        except OSError:
            return []

    for round_number in range(rounds):
        album = f"New{round_number}"
        os.makedirs(os.path.join(source, album))
        add_photo(os.path.join(source, album), "n.jpg", MEDIUM[round_number % len(MEDIUM)], f"new {round_number}")
        expect(f"album {album} added", lambda point: album in listing(point, "groups")
               and bool(read_all(os.path.join(point, "groups", album, "n", "thumbnail.jpg"))))
        photo = f"extra{round_number}"
        add_photo(os.path.join(source, "Album1"), photo + ".jpg", MEDIUM[round_number % len(MEDIUM)], f"extra {round_number}")
        expect(f"photo Album1/{photo} added", lambda point: photo in listing(point, "groups", "Album1"))
        os.unlink(os.path.join(source, "Album1", photo + ".jpg"))
        expect(f"photo Album1/{photo} deleted", lambda point: photo not in listing(point, "groups", "Album1")
               and not os.path.exists(os.path.join(point, "groups", "Album1", photo)))
        shutil.rmtree(os.path.join(source, album))
        expect(f"album {album} deleted", lambda point: album not in listing(point, "groups"))
    return lags, changes
