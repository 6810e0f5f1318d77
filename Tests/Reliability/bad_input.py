"""Every file of Tests/Fixtures mounted and read by 8 readers at once: each still image's outcome
is what expectations.csv allows (a complete rendition or EIO, never a short or empty file), what
is no image is not shown, failures are fast, and the daemon's peak RSS stays within the decode
budget plus what the process needs besides."""
import errno
import os
import shutil
import time
from concurrent.futures import ThreadPoolExecutor

from harness import Mount, Scratch, TESTDATA, decodes_cleanly, expectations, read_all, rss_kib, snapshot

# The renders' shared decode budget (512 MiB: progressive JPEGs, HEIF/AVIF, interlaced PNG) plus
# what the process holds besides. Measured 591-630 MiB with 8 readers over formats/ (HEIF and AVIF
# decodes at once); 667-738 MiB before big buffers were always unmapped when freed (main.swift).
# The margin above the highest seen is about a sixth, as it was before.
RSS_LIMIT_MIB = 512 + 224
# The fixture folders mounted (raw/ too: not JPEG, so not shown, until RAW files are decoded).
FOLDERS = ("orientation", "cameras", "malformed", "formats", "raw")


def arrange(scratch):
    """A copy of the fixtures, one album per folder. The copy is then made read-only with a bind
    mount elsewhere (security.py); here a before/after snapshot proves nothing was written."""
    source = scratch.sub("testdata")
    for folder in FOLDERS:
        shutil.copytree(os.path.join(TESTDATA, folder), os.path.join(source, folder))
    return source


def is_still_image(row):
    """What the CSV calls an image of a format assetfs reads (not empty, not unknown content)."""
    return row["format"].split(" ")[0] not in ("EMPTY", "unknown", "")


def assets_by_source(mountpoint):
    """Every asset folder of the mount by the photo it shows (its user.assetfs.source)."""
    result = {}
    groups = os.path.join(mountpoint, "groups")
    for album in os.listdir(groups):
        for entry in os.listdir(os.path.join(groups, album)):
            folder = os.path.join(groups, album, entry)
            if os.path.isdir(folder):
                result[os.getxattr(folder, "user.assetfs.source").decode("utf-8", "surrogateescape")] = folder
    return result


def read_rendition(path):
    """('ok', bytes) / ('eio', None) / ('error', text), with the time it took."""
    started = time.time()
    try:
        size = os.stat(path).st_size
        data = read_all(path)
        outcome = ("ok", data) if len(data) == size and size > 0 else ("error", f"stat {size} but read {len(data)}")
    except OSError as error:
        outcome = ("eio", None) if error.errno == errno.EIO else ("error", str(error))
    return outcome, time.time() - started


def check(checks, source_root=None):
    scratch = Scratch("bad")
    problems = []
    try:
        source = source_root or arrange(scratch)
        before = snapshot(source)
        mountpoint = scratch.sub("mnt")
        # broken=error: each failure shows as EIO, so the outcome of every file can be told apart
        # (the default placeholder is checked by trust.py's broken-photo-lists).
        mount = Mount(source, mountpoint, f"cache={scratch.path}/cache.sqlite,broken=error")
        try:
            rows = {row["file"]: row for row in expectations() if row["file"].split("/")[0] in FOLDERS}
            if len(rows) < 100:
                problems.append(f"only {len(rows)} fixture files listed in expectations.csv: is Tests/Fixtures complete?")
            jobs = []
            shown = assets_by_source(mountpoint)
            for name, row in rows.items():
                asset = shown.get(name)
                if not is_still_image(row):
                    if asset:
                        problems.append(f"{name}: not a still image ({row['format']}) but shown")
                    continue
                if not asset:
                    problems.append(f"{name}: a still image ({row['format']}) but not shown")
                    continue
                # "partial" (damaged; a stripped RAW may or may not keep a preview) allows either outcome.
                for kind in ("thumbnail.jpg", "fullscreen.jpg"):
                    jobs.append((name, row["decodes_ok"], os.path.join(asset, kind)))
                originals = [entry for entry in os.listdir(asset) if entry.startswith("original.")]
                jobs.append((name, "original", os.path.join(asset, originals[0] if originals else "original.missing")))
            with ThreadPoolExecutor(8) as pool:
                results = list(pool.map(lambda job: (job, read_rendition(job[2])), jobs))
            slowest_failure = (0.0, "")
            for (name, expected, path), ((outcome, data), seconds) in results:
                if expected == "original":
                    if outcome != "ok" or data != read_all(os.path.join(source, name)):
                        problems.append(f"{name}: {os.path.basename(path)} does not read back exactly ({outcome})")
                elif outcome == "ok" and not (data.startswith(b"\xff\xd8\xff") and decodes_cleanly(data)):
                    problems.append(f"{name}: {os.path.basename(path)} is not a whole JPEG (djpeg warns or fails)")
                elif outcome == "error":
                    problems.append(f"{path}: {data}")
                elif expected == "yes" and outcome != "ok":
                    problems.append(f"{name}: decodes_ok=yes but {os.path.basename(path)} gave EIO")
                elif expected == "no" and outcome != "eio":
                    problems.append(f"{name}: decodes_ok=no but {os.path.basename(path)} was served")
                if outcome == "eio" and seconds > slowest_failure[0]:
                    slowest_failure = (seconds, name)
            peak = rss_kib(mount.pid) / 1024
            stats = mount.stats()
            checks.figure(f"bad input: {len(jobs)} reads of {len(rows)} files, 8 readers; "
                          f"{stats['renders']} renders, {stats['render_failures']} failures; "
                          f"slowest failure {slowest_failure[0]:.2f} s ({slowest_failure[1]}); daemon peak RSS {peak:.0f} MiB")
            if peak > RSS_LIMIT_MIB:
                problems.append(f"daemon peak RSS {peak:.0f} MiB > {RSS_LIMIT_MIB} MiB")
            if slowest_failure[0] > 30:
                problems.append(f"a failing file took {slowest_failure[0]:.1f} s")
            if mount.process.poll() is not None:
                problems.append("the daemon died")
            failures_logged = sum(mount.read_log().count(kind) for kind in ("corrupt", "too large", "unsupported", "unrecognised"))
            checks.figure(f"bad input: {failures_logged} failure lines logged")
        finally:
            mount.close()
        if snapshot(source) != before:
            problems.append("the source tree changed")
    finally:
        scratch.close()
    return problems
