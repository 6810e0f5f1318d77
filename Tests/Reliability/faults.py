"""Faults: kill -9 during renders, a damaged cache, a full disk, warm beside a mount, a source
rewritten while it is read, and readers killed while they wait."""
import errno
import os
import random
import shutil
import subprocess
import threading
import time

from harness import (BINARY, QUICK, Mount, Scratch, TESTDATA, decodes_cleanly, fresh_render, read_all, wait_until)

# What a read may fail with cleanly: EIO (the rendition cannot be made), ENOENT/ESTALE (the photo is gone).
CLEAN_ERRORS = (errno.EIO, errno.ENOENT, errno.ESTALE)

PHOTOS = ["cameras/canon_hdr_NO.jpg", "cameras/Kodak_DX4330.jpg", "cameras/Reconyx_HF2_Pro_Covert.jpg",
          "cameras/Issue_308_bogus_make.jpg", "orientation/Landscape_6.jpg", "orientation/Portrait_3.jpg",
          "cameras/Olympus_PEN_E-P3.jpg", "cameras/Minolta_DiMAGE_X.jpg"]


def library(scratch, copies=2):
    """A few albums of real photos; every file unique (bytes after EOI differ)."""
    source = scratch.sub("source")
    for album in range(copies):
        folder = os.path.join(source, f"Album{album}")
        os.makedirs(folder, exist_ok=True)
        for index, photo in enumerate(PHOTOS):
            with open(os.path.join(TESTDATA, photo), "rb") as f:
                data = f.read()
            with open(os.path.join(folder, f"p{index}.jpg"), "wb") as f:
                f.write(data + f"unique {album} {index}".encode())
    return source


def renditions(mountpoint):
    for album in sorted(os.listdir(os.path.join(mountpoint, "groups"))):
        for asset in sorted(os.listdir(os.path.join(mountpoint, "groups", album))):
            if asset != "thumbnail.jpg":
                for kind, size in (("thumbnail.jpg", 256), ("fullscreen.jpg", 1920)):
                    yield os.path.join(mountpoint, "groups", album, asset, kind), album, asset, size


def kill_during_renders(checks):
    """20 times: readers start renders, the daemon is killed at a random moment, the dead mount is
    cleared and a new mount serves every rendition complete and identical to a fresh render."""
    scratch = Scratch("kill")
    problems = []
    rounds = 5 if QUICK else 20
    random.seed(7)
    try:
        source = library(scratch)
        mountpoint = scratch.sub("mnt")
        options = f"cache={scratch.path}/cache.sqlite"
        references = {}
        verified = 0
        for round_number in range(rounds):
            mount = Mount(source, mountpoint, options)
            try:
                readers = [subprocess.Popen(["cat", path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                           for path, *_ in renditions(mountpoint)]
                time.sleep(random.uniform(0.02, 1.0))
                mount.kill()
                for reader in readers:
                    reader.wait(timeout=60)
            finally:
                mount.close()
        # After the last kill: a clean mount must open the cache and serve perfect renditions.
        mount = Mount(source, mountpoint, options)
        try:
            for path, album, asset, size in renditions(mountpoint):
                data = read_all(path)
                key = (album, asset, size)
                if key not in references:
                    original = os.path.join(source, album, asset + ".jpg")
                    references[key] = fresh_render(original, size)
                if data != references[key]:
                    problems.append(f"{path}: differs from a fresh render ({len(data)} vs {len(references[key] or b'')} bytes)")
                elif not decodes_cleanly(data):
                    problems.append(f"{path}: does not decode cleanly")
                verified += 1
            if "damaged" in mount.read_log():
                problems.append("the cache was found damaged after kill -9")
        finally:
            mount.close()
        checks.figure(f"kill -9: {rounds} kills survived, then {verified} renditions byte-identical to fresh renders")
    finally:
        scratch.close()
    return problems


def damaged_cache(checks):
    """A cache file replaced by garbage, then one truncated: the mount moves it aside and works."""
    scratch = Scratch("garbage")
    problems = []
    try:
        source = library(scratch, copies=1)
        mountpoint = scratch.sub("mnt")
        cache = f"{scratch.path}/cache.sqlite"
        mount = Mount(source, mountpoint, f"cache={cache}")
        try:
            for path, *_ in renditions(mountpoint):
                read_all(path)
        finally:
            mount.close()
        for damage in ("garbage", "truncated"):
            if damage == "garbage":
                with open(cache, "wb") as f:
                    f.write(os.urandom(64 * 1024))
            else:
                os.truncate(cache, os.path.getsize(cache) // 3)
            for suffix in ("-wal", "-shm"):
                if os.path.exists(cache + suffix):
                    os.unlink(cache + suffix)
            mount = Mount(source, mountpoint, f"cache={cache}")
            try:
                served = sum(1 for path, *_ in renditions(mountpoint) if len(read_all(path)) > 0)
                if "moved aside" not in mount.read_log():
                    problems.append(f"{damage} cache: no warning about moving it aside")
                if served == 0:
                    problems.append(f"{damage} cache: nothing served")
            finally:
                mount.close()
        aside = [name for name in os.listdir(scratch.path) if ".corrupt-" in name]
        checks.figure(f"damaged cache: garbage and truncated files moved aside ({len(aside)} kept for inspection)")
    finally:
        scratch.close()
    return problems


def full_disk(checks):
    """The cache on a tiny tmpfs (700 KiB, of which the catalog beside it takes some 350 KiB: its
    tables and write-ahead log): renditions still served (from memory) with one warning; what was
    stored before the disk filled stays intact."""
    scratch = Scratch("full")
    problems = []
    tmpfs = scratch.sub("tmpfs")
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=700k", "tmpfs", tmpfs], check=True)
    try:
        source = library(scratch, copies=3)
        mountpoint = scratch.sub("mnt")
        mount = Mount(source, mountpoint, f"cache={tmpfs}/cache.sqlite")
        served = 0
        try:
            for path, album, asset, size in renditions(mountpoint):
                data = read_all(path)
                if len(data) != os.stat(path).st_size or not data:
                    problems.append(f"{path}: short read with a full disk")
                served += 1
            warnings = mount.read_log().count("cannot store renditions")
            if warnings != 1:
                problems.append(f"expected one warning about the full cache, got {warnings}")
        finally:
            mount.close()
        # Remount: the cache opens, and whatever it kept is exact.
        mount = Mount(source, mountpoint, f"cache={tmpfs}/cache.sqlite")
        try:
            if "damaged" in mount.read_log():
                problems.append("the cache was damaged by the full disk")
            for path, album, asset, size in renditions(mountpoint):
                if read_all(path) != fresh_render(os.path.join(source, album, asset + ".jpg"), size):
                    problems.append(f"{path}: differs from a fresh render after the disk filled")
        finally:
            mount.close()
        checks.figure(f"full disk: {served} renditions served with a 700 KiB cache filesystem, one warning")
    finally:
        subprocess.run(["umount", tmpfs], capture_output=True)
        scratch.close()
    return problems


def warm_beside_mount(checks):
    """`assetfs warm` and a mount on one cache at once: both finish, nothing is 'locked'."""
    scratch = Scratch("warm")
    problems = []
    try:
        source = library(scratch, copies=4)
        mountpoint = scratch.sub("mnt")
        cache = f"{scratch.path}/cache.sqlite"
        mount = Mount(source, mountpoint, f"cache={cache}")
        try:
            warm = subprocess.Popen([BINARY, "warm", "--fullscreen", "-o", f"cache={cache}", source],
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            for path, *_ in renditions(mountpoint):
                if not read_all(path):
                    problems.append(f"{path}: empty")
            output = warm.communicate(timeout=600)[0].decode()
            if warm.returncode != 0:
                problems.append(f"warm failed: {output[-500:]}")
            for text in (output, mount.read_log()):
                if "locked" in text:
                    problems.append("database is locked: " + text[-300:])
            checks.figure(f"warm beside a mount: {output.strip().splitlines()[-1] if output.strip() else ''}")
        finally:
            mount.close()
    finally:
        scratch.close()
    return problems


def source_rewritten_while_read(checks):
    """A photo truncated, replaced or deleted while its renditions are read or rendered: a clean
    error or a complete rendition, never a crash or a mix of old and new."""
    scratch = Scratch("rewrite")
    problems = []
    try:
        source = scratch.sub("source")
        album = os.path.join(source, "A")
        os.makedirs(album)
        big = os.path.join(TESTDATA, "cameras/canon_hdr_NO.jpg")
        other = os.path.join(TESTDATA, "cameras/Kodak_DX4330.jpg")
        mountpoint = scratch.sub("mnt")
        mount = Mount(source, mountpoint, f"cache={scratch.path}/cache.sqlite")
        outcomes = {"complete": 0, "error": 0}
        try:
            for round_number in range(6 if QUICK else 20):
                target = os.path.join(album, f"p{round_number}.jpg")
                shutil.copy(big, target)
                time.sleep(0.5)  # let the watcher see it
                path = os.path.join(mountpoint, "groups", "A", f"p{round_number}", "fullscreen.jpg")
                action = ("truncate", "replace", "delete")[round_number % 3]

                def disturb():
                    time.sleep(random.uniform(0.0, 0.15))
                    if action == "truncate":
                        os.truncate(target, 20000)
                    elif action == "replace":
                        shutil.copy(other, target + ".new")
                        os.replace(target + ".new", target)
                    else:
                        os.unlink(target)

                thread = threading.Thread(target=disturb)
                thread.start()
                try:
                    with open(path, "rb") as f:
                        size = os.fstat(f.fileno()).st_size
                        data = f.read()
                except OSError as error:
                    if error.errno in CLEAN_ERRORS:
                        outcomes["error"] += 1
                    else:
                        problems.append(f"round {round_number} ({action}): {error} (not a clean EIO/ENOENT)")
                else:
                    # Every read that returns data must be a whole, clean rendition: an empty or short
                    # read is a problem (a clean failure is an error, not zero bytes), and so is a
                    # JPEG djpeg warns about (a truncated source gives grey where data is missing,
                    # complete as a JPEG; anything else is a mix of old and new).
                    if not data:
                        problems.append(f"round {round_number} ({action}): empty read (stat said {size} bytes)")
                    elif len(data) != size:
                        problems.append(f"round {round_number} ({action}): read {len(data)} bytes, stat said {size}")
                    elif not decodes_cleanly(data):
                        problems.append(f"round {round_number} ({action}): a rendition that does not decode cleanly")
                    else:
                        outcomes["complete"] += 1
                thread.join()
                if mount.process.poll() is not None:
                    problems.append("the daemon died")
                    break
        finally:
            mount.close()
        checks.figure(f"source rewritten while read: {outcomes['complete']} complete renditions, {outcomes['error']} clean errors")
    finally:
        scratch.close()
    return problems


# One sample of each decoder path (the renderer's C bridges, and libheif's own parsing).
READ_ERROR_SAMPLES = ["formats/Nikon_D5300_small.heic", "formats/Canon_70D_8bit.avif", "formats/DisplayP3_iCCP_eXIf.png",
                      "formats/iPhoneX_exif_orient6.webp", "formats/rgb16_deflate.tiff", "formats/hopper.gif",
                      "raw/Nikon_Z9_jxl.dng", "cameras/Kodak_DX4330.jpg"]


def read_errors_mid_decode(checks):
    """A read that fails part-way through a photo (a disk going bad, unplugged) is that photo's
    error, never the process's end: `assetfs render` of one sample of every decoder, with every
    pread failing from the Nth on (an LD_PRELOAD shim), for every N the render makes."""
    scratch = Scratch("read-errors")
    problems = []
    try:
        compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
        if not compiler:
            return ["no C compiler (cc, gcc or clang) to build the fault-injection shim"]
        shim = os.path.join(scratch.path, "failing_pread.so")
        source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inject", "failing_pread.c")
        subprocess.run([compiler, "-shared", "-fPIC", "-O1", "-o", shim, source, "-ldl"], check=True)
        output = os.path.join(scratch.path, "out.jpg")
        renders = 0
        for sample in READ_ERROR_SAMPLES:
            photo = os.path.join(TESTDATA, sample)
            count_file = os.path.join(scratch.path, "count")
            environment = dict(os.environ, LD_PRELOAD=shim, COUNT_FILE=count_file)
            subprocess.run([BINARY, "render", "--size", "256", photo, output], env=environment,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=120)
            with open(count_file) as f:
                total = int(f.read())
            step = 3 if QUICK else 1
            for fail_after in range(0, total, step):
                result = subprocess.run([BINARY, "render", "--size", "256", photo, output],
                                        env=dict(environment, FAIL_AFTER=str(fail_after)),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)
                renders += 1
                if result.returncode not in (0, 1):
                    message = result.stderr.decode(errors="replace").strip().splitlines()[:1]
                    problems.append(f"{sample}: preads failing from #{fail_after + 1} of {total}: exit {result.returncode} {message}")
                    break
        checks.figure(f"read errors: {renders} renders of {len(READ_ERROR_SAMPLES)} formats with preads failing part-way")
    finally:
        scratch.close()
    return problems


def readers_gone_mid_wait(checks):
    """Readers killed while they wait for renders (the kernel sends INTERRUPT for each): their
    requests end at once, the renders queued for them are dropped rather than made for nobody
    (the running ones finish into the cache), and the mount goes on serving every photo."""
    scratch = Scratch("readers-gone")
    problems = []
    try:
        folder = scratch.sub("source", "Big")
        count = 24
        base = os.path.join(scratch.path, "big.jpg")
        subprocess.run(["convert", "-size", "6000x4000", "gradient:navy-orange", "-quality", "92", base], check=True)
        data = read_all(base)
        for index in range(count):
            with open(os.path.join(folder, f"p{index:02}.jpg"), "wb") as f:
                f.write(data + f"unique {index}".encode())
        mountpoint = scratch.sub("mnt")
        mount = Mount(os.path.dirname(folder), mountpoint, f"cache={scratch.path}/cache.sqlite")
        try:
            album = os.path.join(mountpoint, "groups", "Big")
            names = sorted(name for name in os.listdir(album) if name != "thumbnail.jpg")
            readers = [subprocess.Popen(["cat", os.path.join(album, name, "fullscreen.jpg")],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for name in names]
            wait_until(lambda: mount.stats()["renders"] >= 1, 60, interval=0.01)
            for reader in readers:
                reader.kill()
            ended = wait_until(lambda: all(reader.poll() is not None for reader in readers), 10)
            if not ended:
                problems.append("readers killed while waiting for renders did not end within 10 s")
            # The renders that had started finish; nothing else is made.
            last = -1
            while mount.stats()["renders"] != last:
                last = mount.stats()["renders"]
                time.sleep(1.5)
            checks.figure(f"readers gone: {count} readers killed mid-wait, {last} fullscreens rendered")
            if last > count // 2:
                problems.append(f"{last} of {count} renders were made for readers that had gone")
            for name in names:
                if not decodes_cleanly(read_all(os.path.join(album, name, "fullscreen.jpg"))):
                    problems.append(f"{name}: fullscreen.jpg does not decode after its reader went")
        finally:
            mount.close()
        return problems
    finally:
        scratch.close()
