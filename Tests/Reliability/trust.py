"""Trust: what a user must be able to rely on when the world around the mount misbehaves: odd
dates, cache commands beside a daemon, SIGTERM mid-render, edits that restore the mtime, photos
replaced under an open reader, transient errors, an unplugged source, broken photos, swaps at the
source boundary, and a cache database that never stalls reads. Each check covers one item of the
trust issue and fails on a binary that still has that bug.

Tools (Debian packages, installed by ensure_tools when missing): exiftool (libimage-exiftool-perl),
gio (libglib2.0-bin), sqlite3, djpeg (libjpeg-turbo-progs), setpriv
(util-linux), fusermount3 (fuse3)."""
import collections
import contextlib
import errno
import os
import pwd
import random
import re
import shutil
import signal
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import faults
from harness import (BINARY, ensure_tools, QUICK, ROOT, TESTDATA, DaemonMount, Mount, Scratch, decodes_cleanly, expectations,
                     fresh_render, is_jpeg, read_all, wait_until)

TOOLS = {"exiftool": "libimage-exiftool-perl", "gio": "libglib2.0-bin", "sqlite3": "sqlite3",
         "djpeg": "libjpeg-turbo-progs", "setpriv": "util-linux", "fusermount3": "fuse3"}
# Photos of 0.3-2 MP: renders of a few tens of milliseconds, so many of them fit in a check.
MEDIUM = ["cameras/Apple_iPhone_4.jpg", "cameras/Casio_EX-S1.jpg", "cameras/FujiFilm_FinePix2650.jpg",
          "cameras/HTC_Desire.jpg", "cameras/Minolta_DiMAGE_X.jpg", "cameras/Nikon_D5000.jpg",
          "cameras/Olympus_PEN_E-P3.jpg", "cameras/Samsung_GT-I9000_Galaxy_S.jpg", "cameras/Kodak_ProBack.jpg",
          "cameras/Canon_EOS_7D.jpg"]
LARGE = faults.PHOTOS  # 2-3 MP camera photos: slow renders
SMALL = ["cameras/Casio_EX-S1.jpg", "cameras/HTC_Desire.jpg", "cameras/Nikon_D5000.jpg",
         "cameras/Samsung_GT-I9000_Galaxy_S.jpg", "cameras/Canon_EOS_7D.jpg"]  # under 1 MP: renders of a few ms
OTHER_USER = "assetfs-rel-user"
ASAN_BUILD = os.path.join(ROOT, ".build", "asan")
ASAN_BINARY = os.environ.get("ASSETFS_ASAN_BIN", os.path.join(ASAN_BUILD, "debug", "assetfs"))
FAILED_READ = (errno.EIO, errno.ESTALE, errno.ENOENT)


# MARK: setup

def ensure_user(name=OTHER_USER):
    try:
        return pwd.getpwnam(name)
    except KeyError:
        subprocess.run(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", name], check=True)
        return pwd.getpwnam(name)


@contextlib.contextmanager
def workspace(name):
    """A Scratch folder for one check, removed at the end; the tools are there."""
    ensure_tools(TOOLS)
    scratch = Scratch(name)
    try:
        yield scratch
    finally:
        scratch.close()


@contextlib.contextmanager
def mounted(source, mountpoint, options, kind=Mount, **extra):
    mount = kind(source, mountpoint, options, **extra)
    try:
        yield mount
    finally:
        mount.close()


def add_photo(folder, name, photo, tag=""):
    """Copies a test photo into `folder`; `tag` (bytes after EOI) makes the file unique."""
    path = os.path.join(folder, name)
    with open(os.path.join(TESTDATA, photo), "rb") as f:
        data = f.read()
    with open(path, "wb") as f:
        f.write(data + tag.encode())
    return path


def make_library(scratch, count, photos=MEDIUM, per_album=10):
    """`count` unique photos in albums of `per_album`; returns SOURCE."""
    source = scratch.sub("source")
    for index in range(count):
        folder = os.path.join(source, f"Album{index // per_album}")
        os.makedirs(folder, exist_ok=True)
        add_photo(folder, f"p{index:02d}.jpg", photos[index % len(photos)], f"unique {index}")
    return source


def renditions(mountpoint):
    """(path, source-relative photo, size) of every thumbnail and fullscreen in the mount."""
    return [(path, os.path.join(album, asset + ".jpg"), size) for path, album, asset, size in faults.renditions(mountpoint)]


def references(source, items):
    """{path: fresh render of its photo at its size}, two renders at a time."""
    with ThreadPoolExecutor(2) as pool:
        renders = pool.map(lambda item: fresh_render(os.path.join(source, item[1]), item[2]), items)
        return {item[0]: data for item, data in zip(items, renders)}


def asset_path(mountpoint, album, asset, kind="thumbnail.jpg"):
    return os.path.join(mountpoint, "groups", album, asset, kind)


# MARK: reading

def read_from_daemon(path):
    """Reads a whole file with its kernel page cache dropped first (POSIX_FADV_DONTNEED), so the
    bytes come from the daemon: assetfs lets the kernel keep pages across opens."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def drop_kernel_caches():
    """Forget cached pages, dentries and inodes machine-wide: the next stat of a mount file asks
    the daemon (attributes are otherwise cached for an hour)."""
    with open("/proc/sys/vm/drop_caches", "w") as f:
        f.write("3")


def outcome(function, *args):
    """('ok', value) or (errno name, None)."""
    try:
        return "ok", function(*args)
    except OSError as error:
        return errno.errorcode.get(error.errno, str(error.errno)), None


def timed(function, *args, timeout=10.0):
    """Runs `function(*args)` in a thread; (finished, outcome, seconds). An unfinished call is
    left behind (a hung FUSE read) and reported as not finished."""
    result = {}
    started = time.time()
    thread = threading.Thread(target=lambda: result.update(value=outcome(function, *args)), daemon=True)
    thread.start()
    thread.join(timeout)
    return "value" in result, result.get("value", ("hung", None)), time.time() - started


def size_problems(paths, label, expected=None):
    """stat size == bytes read (from the daemon) for every path; and == `expected[path]` if given."""
    problems = []
    for path in paths:
        state, size = outcome(lambda: os.stat(path).st_size)
        read_state, data = outcome(read_from_daemon, path)
        if state == "ENOTCONN" or read_state == "ENOTCONN":
            return problems + [f"{label}: the mount is dead (ENOTCONN)"]
        if state != "ok" or read_state != "ok":
            problems.append(f"{label}: {path}: stat {state}, read {read_state}")
        elif size != len(data):
            problems.append(f"{label}: {path}: stat says {size} bytes, read gave {len(data)}")
        elif expected is not None and data != expected[path]:
            problems.append(f"{label}: {path}: {len(data)} bytes differ from a fresh render ({len(expected[path] or b'')})")
    return problems


def jpeg_dimensions(data):
    """(width, height) from the first SOF marker of a JPEG, or None."""
    index = 2
    while index + 9 < len(data) and data[index] == 0xFF:
        marker = data[index + 1]
        length = int.from_bytes(data[index + 2:index + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            return int.from_bytes(data[index + 7:index + 9], "big"), int.from_bytes(data[index + 5:index + 7], "big")
        index += 2 + length
    return None


class Readers:
    """`count` threads calling `work(rng)` until stopped; what the calls raise is counted by message."""

    def __init__(self, count, work):
        self.work = work
        self.stopping = threading.Event()
        self.lock = threading.Lock()
        self.failures = collections.Counter()
        self.calls = 0
        self.threads = [threading.Thread(target=self._loop, args=(index,), daemon=True) for index in range(count)]
        for thread in self.threads:
            thread.start()

    def _loop(self, index):
        rng = random.Random(index)
        while not self.stopping.is_set():
            try:
                self.work(rng)
            except Exception as error:  # noqa: BLE001 - every failure of a reader is a finding
                with self.lock:
                    self.failures[str(error)] += 1
            with self.lock:
                self.calls += 1

    @property
    def error_count(self):
        return sum(self.failures.values())

    @property
    def errors(self):
        """One line per distinct failure, with how often it happened."""
        return [f"{message} (×{count})" for message, count in self.failures.most_common()]

    def stop(self, timeout=30):
        """Stops the readers; returns a problem list naming readers still stuck after `timeout`."""
        self.stopping.set()
        deadline = time.time() + timeout
        for thread in self.threads:
            thread.join(max(0.0, deadline - time.time()))
        stuck = sum(thread.is_alive() for thread in self.threads)
        return [f"{stuck} reader(s) still stuck {timeout} s after being stopped"] if stuck else []


def cli(*arguments, timeout=600):
    """Runs an assetfs subcommand; (returncode, combined output)."""
    out = subprocess.run([BINARY, *arguments], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
    return out.returncode, out.stdout.decode(errors="replace")


def cache_ops(cache, source):
    """The cache commands a user may run beside a mount: warm, prune to 1 MiB, clear."""
    return [("warm", ["warm", "-o", f"cache={cache}", source]),
            ("prune", ["cache", "prune", "-o", f"cache={cache},cache_size=1M", source]),
            ("clear", ["cache", "clear", "-o", f"cache={cache}", source])]


def run_cache_op(name, arguments):
    code, output = cli(*arguments)
    return [] if code == 0 else [f"assetfs {name} exited {code}: {output.strip()[-300:]}"]


@contextlib.contextmanager
def cache_ops_running(cache, source, order=("clear", "warm", "prune")):
    """A thread running the cache commands in `order` in a loop for the duration of the block;
    yields {'runs', 'problems'} (filled in as they run)."""
    commands = dict(cache_ops(cache, source))
    state = {"runs": 0, "problems": []}
    stopping = threading.Event()

    def loop():
        while not stopping.is_set():
            for name in order:
                state["problems"] += run_cache_op(name, commands[name])
                state["runs"] += 1

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        stopping.set()
        thread.join(120)


def mount_alive(mount):
    running = mount.alive() if isinstance(mount, DaemonMount) else mount.process.poll() is None
    return running and outcome(os.stat, mount.mountpoint)[0] == "ok"


# MARK: 1. bogus dates

def make_sparse_jpeg(path):
    """FF D8 and then a hole: 8 EiB if the file system allows it (`truncate -s 8E` asks for 2^63,
    one more than off_t holds), else the largest size it takes. Returns the size."""
    with open(path, "wb") as f:
        f.write(b"\xff\xd8")
    if subprocess.run(["truncate", "-s", "8E", path], capture_output=True).returncode == 0:
        return os.path.getsize(path)
    for size in (2**63 - 1, 2**62, 2**60, 2**50, 2**44 - 4096, 2**43, 2**40):
        try:
            os.truncate(path, size)
            return size
        except OSError:
            continue
    return os.path.getsize(path)


def first_error_line(log):
    """The line of a daemon's log that says why it stopped (a Swift trap, an ASan report)."""
    lines = [line.strip() for line in log.splitlines() if line.strip()]
    for pattern in ("runtime failure|fatal error|AddressSanitizer", "error"):
        for line in lines:
            if re.search(pattern, line, re.I):
                return line[:300]
    return (lines[0] if lines else "(no output)")[:300]


def touch(path, date):
    subprocess.run(["touch", "-d", date, path], check=True)


def bogus_dates(checks):
    problems = []
    with workspace("dates") as scratch:
        album = scratch.sub("source", "A")
        touch(add_photo(album, "future.jpg", MEDIUM[0]), "2300-01-01")
        touch(add_photo(album, "past.jpg", MEDIUM[1]), "1900-01-01")
        sparse_size = make_sparse_jpeg(os.path.join(album, "sparse.jpg"))
        mountpoint = scratch.sub("mnt")
        try:
            mount = Mount(os.path.dirname(album), mountpoint, f"cache={scratch.path}/cache.sqlite")
        except RuntimeError as error:
            return [f"the mount did not come up: {first_error_line(str(error))}"]
        with contextlib.closing(mount):
            for folder, names, files in os.walk(mountpoint):
                for name in names + files:
                    state = outcome(os.stat, os.path.join(folder, name))[0]
                    # The sparse file's renditions may fail (a rendition's size needs its render).
                    if state != "ok" and not (state == "EIO" and os.path.basename(folder) == "sparse"):
                        problems.append(f"stat {os.path.join(folder, name)}: {state}")
            for asset in ("future", "past"):
                state, data = outcome(read_all, asset_path(mountpoint, "A", asset))
                if state != "ok" or not decodes_cleanly(data):
                    problems.append(f"{asset}.jpg: thumbnail {state}")
            finished, (state, _), seconds = timed(read_all, asset_path(mountpoint, "A", "sparse"), timeout=30)
            if not finished or not mount_alive(mount):
                problems.append(f"reading the sparse file's thumbnail: {'hung' if not finished else state}, daemon alive: {mount_alive(mount)}")
            touch(os.path.join(album, "future.jpg"), "2400-06-01")
            touch(add_photo(album, "newpast.jpg", MEDIUM[2]), "1850-01-01")
            time.sleep(3)
            if not mount_alive(mount):
                problems.append("after touching a photo to 2400 and adding one from 1850 the mount is dead")
            elif "newpast" not in os.listdir(os.path.join(mountpoint, "groups", "A")):
                problems.append("the photo added with an 1850 mtime is not shown after 3 s")
            checks.figure(f"bogus dates: 2300/1900/2400/1850 mtimes and a {sparse_size}-byte sparse file; "
                          f"sparse thumbnail {state} in {seconds:.1f} s; mount alive: {mount_alive(mount)}")
    return problems


# MARK: 2 and 4. sizes and bytes with cache commands beside a mount

def daemon_cache_ops(checks):
    problems = []
    rounds = 2 if QUICK else 5
    with workspace("daemon") as scratch:
        source = make_library(scratch, 30)
        cache = f"{scratch.path}/cache.sqlite"
        mountpoint = scratch.sub("mnt")
        with mounted(source, mountpoint, f"cache={cache}", kind=DaemonMount) as mount:
            items = renditions(mountpoint)
            expected = references(source, items)

            def read_and_compare(rng):
                path = rng.choice(items)[0]
                size = os.stat(path).st_size
                data = read_from_daemon(path)
                if size != len(data) or data != expected[path]:
                    raise AssertionError(f"{path}: stat {size}, read {len(data)} bytes, fresh render {len(expected[path] or b'')}"
                                         f"{'' if len(data) != size else ' (bytes differ)'}")

            readers = Readers(8, read_and_compare)
            try:
                for _ in range(rounds):
                    for name, arguments in cache_ops(cache, source):
                        problems += run_cache_op(name, arguments)
                        drop_kernel_caches()  # the readers' next stat asks the daemon
            finally:
                problems += readers.stop()
            problems += [f"reader: {error}" for error in readers.errors]
            paths = [path for path, *_ in items]
            drop_kernel_caches()
            problems += size_problems(paths, "after clear", expected)
            problems += run_cache_op("prune", cache_ops(cache, source)[1][1])
            drop_kernel_caches()
            problems += size_problems(paths, "after prune", expected)
            integrity = subprocess.run(["sqlite3", cache, "PRAGMA integrity_check"], capture_output=True, text=True).stdout.strip()
            if integrity != "ok":
                problems.append(f"integrity_check: {integrity[:300]}")
            if not mount.alive():
                problems.append(f"the daemon (pid {mount.pid}) died")
            checks.figure(f"daemon cache ops: {rounds} rounds of warm/prune 1M/clear beside 8 readers ({readers.calls} reads, "
                          f"{readers.error_count} wrong), {len(paths)} renditions checked after clear and after prune; "
                          f"integrity_check: {integrity[:40]}; daemon alive: {mount.alive()}")
    return problems


def sizes_after_cache_ops(checks):
    """-f mode, a 200 KiB cache (renditions are evicted while mounted), 8 readers reading every
    rendition twice, `rounds` times, while `cache clear`, `warm` and `cache prune` run beside the mount."""
    problems = []
    rounds = 10 if QUICK else 25
    with workspace("evict") as scratch:
        source = make_library(scratch, 12)
        cache = f"{scratch.path}/cache.sqlite"
        mountpoint = scratch.sub("mnt")
        with mounted(source, mountpoint, f"cache={cache},cache_size=200K") as mount:
            paths = [path for path, *_ in renditions(mountpoint)]
            shares = [paths[index::8] for index in range(8)]
            with cache_ops_running(cache, source) as beside:
                for round_number in range(rounds):
                    for label in (f"round {round_number} first read", f"round {round_number} second read"):
                        with ThreadPoolExecutor(8) as pool:
                            problems += sum(pool.map(lambda share: size_problems(share, label), shares), [])
            problems += beside["problems"]
            stats = mount.stats()
            checks.figure(f"sizes with cache_size=200K: {len(paths)} renditions read twice in {rounds} rounds by 8 readers beside {beside['runs']} "
                          f"clear/warm/prune runs; {stats['renders']} renders (evictions force re-renders); {len(problems)} mismatches")
    return problems


# MARK: 3. SIGTERM during renders

def ensure_asan_binary():
    """The AddressSanitizer build (the project's .build/asan path); built when missing."""
    if not os.access(ASAN_BINARY, os.X_OK):
        env = {**os.environ, "PATH": os.environ.get("PATH", "") + ":/opt/swift/usr/bin"}
        subprocess.run(["swift", "build", "-c", "debug", "-Xswiftc", "-sanitize=address", "--build-path", ASAN_BUILD],
                       cwd=ROOT, env=env, capture_output=True, timeout=3600)
    return os.access(ASAN_BINARY, os.X_OK)


def asan_environment(scratch):
    """ASan options for a daemon stopped by a signal: use-after-free, double reply and the like are
    what shutdown can get wrong; what the process still holds when it exits (threads' objects, the
    catalog) the kernel frees, so leak checking stays with the unit tests (bench/sanitize.sh)."""
    suppressions = os.path.join(scratch.path, "lsan.supp")
    with open(suppressions, "w") as f:
        f.write("leak:swift::RefCounts<*>::formWeakReference\nleak:libXCTest.so\n")
    return {**os.environ, "ASAN_OPTIONS": "detect_leaks=0:detect_stack_use_after_return=1",
            "LSAN_OPTIONS": f"suppressions={suppressions}"}


def start_readers(paths):
    """One thread per path reading it once; errors are expected (the daemon is going away)."""
    threads = [threading.Thread(target=outcome, args=(read_all, path), daemon=True) for path in paths]
    for thread in threads:
        thread.start()
    return threads


def sigterm_during_renders(checks):
    problems = []
    rounds = 5 if QUICK else 20
    rng = random.Random(3)
    if not ensure_asan_binary():
        return [f"no AddressSanitizer build at {ASAN_BINARY}"]
    with workspace("sigterm") as scratch:
        source = faults.library(scratch, copies=1)
        mountpoint = scratch.sub("mnt")
        env = asan_environment(scratch)
        exits, in_flight = [], []
        for round_number in range(rounds):
            with mounted(source, mountpoint, f"cache={scratch.path}/cache{round_number}.sqlite", binary=ASAN_BINARY, env=env) as mount:
                readers = start_readers([path for path, *_ in renditions(mountpoint) if path.endswith("fullscreen.jpg")])
                time.sleep(rng.uniform(0.1, 0.5))
                in_flight.append(sum(thread.is_alive() for thread in readers))
                started = time.time()
                mount.process.send_signal(signal.SIGTERM)
                try:
                    status = mount.process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    status = "no exit within 15 s"
                exits.append(time.time() - started)
                for thread in readers:
                    thread.join(30)
                log = mount.read_log()
                reports = [marker for marker in ("AddressSanitizer", "Fatal error", "SUMMARY:") if marker in log]
                if status != 0 or reports:
                    problems.append(f"round {round_number}: exit {status}, stderr has {reports}: {first_error_line(log)}")
                if os.path.ismount(mountpoint) or outcome(os.stat, mountpoint)[0] == "ENOTCONN":
                    problems.append(f"round {round_number}: the mountpoint is still mounted after the daemon exited")
        checks.figure(f"SIGTERM during renders (ASan build): {rounds} rounds, {min(in_flight)}-{max(in_flight)} of 8 reads "
                      f"in flight at the signal, slowest exit {max(exits):.1f} s, {len(problems)} problems")
    return problems


# MARK: 5. an edit that restores the mtime

def is_portrait(data):
    dimensions = jpeg_dimensions(data or b"")
    return dimensions is not None and dimensions[1] > dimensions[0] and decodes_cleanly(data)


def restored_mtime_edit(checks):
    problems = []
    with workspace("mtime") as scratch:
        album = scratch.sub("source", "A")
        photo = add_photo(album, "photo.jpg", "orientation/Landscape_1.jpg")
        reference = os.path.join(scratch.path, "ref.jpg")
        mountpoint = scratch.sub("mnt")
        options = f"cache={scratch.path}/cache.sqlite"
        thumbnail = asset_path(mountpoint, "A", "photo")
        with mounted(os.path.dirname(album), mountpoint, options):
            before = jpeg_dimensions(read_all(thumbnail))
            subprocess.run(["cp", "-p", photo, reference], check=True)
            subprocess.run(["exiftool", "-n", "-overwrite_original_in_place", "-Orientation=6", photo], check=True, capture_output=True)
            subprocess.run(["touch", "-r", reference, photo], check=True)
            upright = wait_until(lambda: is_portrait(outcome(read_all, thumbnail)[1]), 5, 0.5)
            after = jpeg_dimensions(outcome(read_all, thumbnail)[1] or b"")
            if not upright:
                problems.append(f"5 s after Orientation=6 with the mtime restored, the thumbnail is {after} (was {before})")
        with mounted(os.path.dirname(album), mountpoint, options):
            remounted = jpeg_dimensions(outcome(read_all, thumbnail)[1] or b"")
            if not is_portrait(outcome(read_all, thumbnail)[1]):
                problems.append(f"after a remount with the same cache the thumbnail is {remounted}, not portrait")
        checks.figure(f"restored-mtime edit: thumbnail {before} → {after} while mounted, {remounted} after a remount")
    return problems


# MARK: 6. a reader never gets a mix of two renditions

def read_across_replacement(path, replace, head_size=4096, pause=2.0):
    """Reads `head_size` bytes, calls `replace`, waits, reads the rest on the same open file.
    Returns (head, rest) or (head, errno) when the rest failed."""
    with open(path, "rb", buffering=0) as f:
        head = f.read(head_size)
        replace()
        time.sleep(pause)
        chunks = []
        try:
            while chunk := f.read(1 << 20):
                chunks.append(chunk)
        except OSError as error:
            return head, error.errno
        return head, b"".join(chunks)


def replace_file(path, new_photo):
    temporary = path + ".tmp"
    add_photo(os.path.dirname(path), os.path.basename(temporary), new_photo, "replacement")
    os.replace(temporary, path)


def reader_never_mixes(checks):
    problems = []
    counts = {"old": 0, "error": 0, "mixed": 0}
    pairs = [(LARGE[index], LARGE[(index + 1) % len(LARGE)]) for index in range(5)]
    with workspace("mix") as scratch:
        album = scratch.sub("source", "A")
        for index, (old, _) in enumerate(pairs):
            add_photo(album, f"p{index}.jpg", old)
        olds = {index: fresh_render(os.path.join(album, f"p{index}.jpg"), 1920) for index in range(len(pairs))}
        mountpoint = scratch.sub("mnt")
        with mounted(os.path.dirname(album), mountpoint, f"cache={scratch.path}/cache.sqlite"):
            for index, (_, new) in enumerate(pairs):
                source = os.path.join(album, f"p{index}.jpg")
                head, rest = read_across_replacement(asset_path(mountpoint, "A", f"p{index}", "fullscreen.jpg"),
                                                     lambda: replace_file(source, new))
                old_bytes, new_bytes = olds[index], fresh_render(source, 1920)
                if isinstance(rest, int):
                    if rest in FAILED_READ:
                        counts["error"] += 1
                    else:
                        problems.append(f"p{index}: the rest of the read failed with {errno.errorcode.get(rest, rest)}")
                elif head + rest == old_bytes:
                    counts["old"] += 1
                elif head == old_bytes[:len(head)] and rest == new_bytes[len(head):len(head) + len(rest)]:
                    counts["mixed"] += 1
                    problems.append(f"p{index}: the new rendition's tail after the old head ({len(head)}+{len(rest)} bytes)")
                else:
                    problems.append(f"p{index}: {len(head) + len(rest)} bytes that are neither the old rendition ({len(old_bytes)}) "
                                    f"nor a clean error")
        checks.figure(f"reader across a replacement: {counts['old']} got the whole old rendition, {counts['error']} a clean error, "
                      f"{counts['mixed']} the new tail after the old head, {len(pairs) - sum(counts.values())} something else")
    return problems


# MARK: 7. transient errors are not remembered

def to_trash(photo):
    trash = os.path.join(os.path.dirname(photo), ".Trash")
    os.makedirs(trash, exist_ok=True)
    return os.path.join(trash, os.path.basename(photo))


# Each repro: what is done, and how it is undone a moment later; the readers read in between.
REPROS = [("moved to .Trash and back", lambda source, photo: os.rename(photo, to_trash(photo)),
           lambda source, photo: os.rename(to_trash(photo), photo)),
          ("chmod 000 and back", lambda source, photo: os.chmod(photo, 0), lambda source, photo: os.chmod(photo, 0o644)),
          ("SOURCE renamed away and back", lambda source, photo: os.rename(source, source + ".away"),
           lambda source, photo: os.rename(source + ".away", source))]


# The daemon runs as root without CAP_DAC_OVERRIDE/CAP_DAC_READ_SEARCH, so a chmod 000 photo
# really cannot be opened by it, while root's readers still get into the mount.
WITHOUT_DAC = ("setpriv", "--inh-caps=-dac_override,-dac_read_search", "--bounding-set=-dac_override,-dac_read_search", "--")


def readable_thumbnails(paths):
    return all(outcome(read_all, path)[0] == "ok" for path in paths)


def transient_errors_not_sticky(checks):
    """Each disturbance starts with the photo's thumbnail not yet rendered, so the 4 readers' reads
    render it while the photo cannot be opened; once undone, the failure must not stay."""
    problems = []
    with workspace("transient") as scratch:
        source = make_library(scratch, len(REPROS) + 2, photos=LARGE)
        cache = f"{scratch.path}/cache.sqlite"
        mountpoint = scratch.sub("mnt")
        options = f"cache={cache}"
        recovered = []
        for index, (label, disturb, undo) in enumerate(REPROS):
            photo = os.path.join(source, "Album0", f"p{index:02d}.jpg")
            with mounted(source, mountpoint, options, prefix=WITHOUT_DAC):
                # The last repro takes all of SOURCE away: every photo not read yet is hit.
                assets = [f"p{index:02d}"] + ([f"p{n:02d}" for n in range(index + 1, len(REPROS) + 2)] if index == len(REPROS) - 1 else [])
                thumbnails = [asset_path(mountpoint, "Album0", asset) for asset in assets]
                disturb(source, photo)
                readers = Readers(4, lambda rng: read_all(rng.choice(thumbnails)))
                time.sleep(0.8)
                undo(source, photo)
                problems += readers.stop()
                started = time.time()
                if wait_until(lambda: readable_thumbnails(thumbnails), 5, 0.5):
                    recovered.append(f"{label}: {time.time() - started:.1f} s ({readers.error_count} failed reads before)")
                else:
                    problems.append(f"{label}: a thumbnail still fails 5 s later "
                                    f"({[outcome(read_all, path)[0] for path in thumbnails]}; {readers.error_count} failed reads before)")
            problems += run_cache_op("clear", cache_ops(cache, source)[2][1])
            with mounted(source, mountpoint, options, prefix=WITHOUT_DAC):
                thumbnails = [path for path, *_ in renditions(mountpoint) if path.endswith("thumbnail.jpg")]
                if not readable_thumbnails(thumbnails):
                    problems.append(f"{label}: after cache clear and a remount some thumbnails fail")
        checks.figure(f"transient errors: readable again after {'; '.join(recovered) or 'none'}")
    return problems


# MARK: 8. the source unplugged and plugged back

def gone_lines(log, source):
    return [line for line in log.splitlines() if source in line and re.search("gone|missing|offline", line, re.I)]


def source_unplugged(checks):
    problems = []
    with workspace("unplug") as scratch:
        source = make_library(scratch, 6)
        pristine = os.path.join(scratch.path, "pristine")
        shutil.copytree(source, pristine)
        real_source = os.path.realpath(source)
        mountpoint = scratch.sub("mnt")
        rounds = [("moved away", lambda: os.rename(source, source + ".away"), lambda: os.rename(source + ".away", source)),
                  ("deleted", lambda: shutil.rmtree(source), lambda: shutil.copytree(pristine, source))]
        with mounted(source, mountpoint, f"cache={scratch.path}/cache.sqlite") as mount:
            thumbnails = {path: read_all(path) for path, *_ in renditions(mountpoint) if path.endswith("thumbnail.jpg")}
            listing = sorted(os.listdir(os.path.join(mountpoint, "groups", "Album0")))
            fail_times = []
            for index, (label, unplug, replug) in enumerate(rounds):
                log_start = len(mount.read_log())
                unplug()
                if not wait_until(lambda: gone_lines(mount.read_log()[log_start:], real_source), 5):
                    problems.append(f"{label}: no log line saying {real_source} is gone within 5 s; "
                                    f"the log says: {mount.read_log()[log_start:][-600:]!r}")
                for path, data in thumbnails.items():
                    finished, (state, read), _ = timed(read_all, path, timeout=5)
                    if read != data:
                        problems.append(f"{label}: cached {path} gave {state if finished else 'a hang'}, not its bytes")
                finished, (state, _), seconds = timed(read_all, asset_path(mountpoint, "Album0", f"p{index:02d}", "fullscreen.jpg"), timeout=10)
                fail_times.append(seconds)
                if state == "ok" or seconds >= 2:
                    problems.append(f"{label}: an uncached fullscreen gave {state} after {seconds:.1f} s (expected a failure within 2 s)")
                said = len(gone_lines(mount.read_log()[log_start:], real_source))
                if said > 1:
                    problems.append(f"{label}: the log says {said} times that the source is gone")
                replug()
                # The old tree stays listed while SOURCE is away: "back" is the daemon saying so.
                back = wait_until(lambda: mount.stats().get("source_online") == 1
                                  and sorted(outcome(os.listdir, os.path.join(mountpoint, "groups", "Album0"))[1] or []) == listing
                                  and all(outcome(read_all, path)[1] == data for path, data in thumbnails.items()), 10, 0.5)
                if not back:
                    problems.append(f"{label}: 10 s after SOURCE came back the tree or its thumbnails are not back")
            checks.figure(f"source unplugged: uncached reads failed in {', '.join(f'{s:.2f} s' for s in fail_times)}; "
                          f"cached thumbnails served throughout")
    return problems


# MARK: 9. broken photos in a listing

def broken_jpeg():
    """A file of testdata/malformed that starts like a JPEG but expectations.csv says does not decode."""
    for row in expectations():
        path = os.path.join(TESTDATA, row["file"])
        if row["file"].startswith("malformed/") and row["decodes_ok"] == "no" and is_jpeg(path) \
                and os.path.getsize(path) < 1 << 20 and row["width"].isdigit() and int(row["width"] or 0) * int(row["height"] or 0) < 1 << 24:
            return row["file"]
    raise RuntimeError("no broken JPEG in the test data")


def gio_names(path):
    """(exit code, names) of `gio list -a standard::size PATH`."""
    out = subprocess.run(["gio", "list", "-a", "standard::size", path], capture_output=True, text=True, timeout=60)
    return out.returncode, sorted(line.split("\t")[0] for line in out.stdout.splitlines() if line)


def broken_photo_lists(checks):
    problems = []
    with workspace("broken") as scratch:
        album = scratch.sub("source", "Album")
        broken = broken_jpeg()
        add_photo(album, "a_broken.jpg", broken)
        add_photo(album, "b_good.jpg", MEDIUM[0])
        add_photo(album, "c_good.jpg", MEDIUM[1])
        source = os.path.dirname(album)
        mountpoint = scratch.sub("mnt")
        cache = f"{scratch.path}/cache.sqlite"
        folder = os.path.join(mountpoint, "groups", "Album")
        placeholder = asset_path(mountpoint, "Album", "a_broken")
        with mounted(source, mountpoint, f"cache={cache}") as mount:
            for path, expected in ((folder, ["a_broken", "b_good", "c_good", "thumbnail.jpg"]),
                                   (os.path.dirname(placeholder), ["fullscreen.jpg", "original.jpg", "thumbnail.jpg"])):
                code, names = gio_names(path)
                if code != 0 or names != expected:
                    problems.append(f"gio list {path}: exit {code}, {names}")
            state, size = outcome(lambda: os.stat(placeholder).st_size)
            read_state, data = outcome(read_all, placeholder)
            if state != "ok" or not size or read_state != "ok" or not decodes_cleanly(data):
                problems.append(f"broken photo's thumbnail: stat {state} ({size}), read {read_state}; expected a decodable placeholder")
            reason = outcome(os.getxattr, os.path.dirname(placeholder), "user.assetfs.error")
            if reason[0] != "ok" or not reason[1]:
                problems.append(f"user.assetfs.error on the broken asset: {reason[0]}")
            elif not reason[1].startswith(b"Album/a_broken.jpg: ") or os.fsencode(source) in reason[1]:
                problems.append(f"user.assetfs.error names the photo other than inside SOURCE: {reason[1]!r}")
            if mount.stats().get("broken", 0) < 1:
                problems.append(f"stats have no \"broken\" count ≥ 1: {mount.stats()}")
            poster = outcome(read_all, os.path.join(folder, "thumbnail.jpg"))[1]
            if poster is None or poster != outcome(read_all, asset_path(mountpoint, "Album", "b_good"))[1]:
                problems.append("the album poster is not the first good photo's thumbnail")
        try:
            with mounted(source, mountpoint, f"cache={cache},broken=error") as mount:
                # A state, from the cache: counted and listed before anything is read again.
                if mount.stats().get("broken") != 1:
                    problems.append(f"after a remount, stats' broken is not 1: {mount.stats()}")
                listed = subprocess.run([BINARY, "broken", "-o", f"cache={cache}", mountpoint], capture_output=True, timeout=60)
                if listed.returncode != 0 or listed.stdout != (reason[1] or b"") + b"\tgroups/Album/a_broken\n":
                    problems.append(f"assetfs broken MOUNTPOINT: exit {listed.returncode}, {listed.stdout!r} {listed.stderr[-200:]!r}")
                for name, function in (("stat", os.stat), ("read", read_all)):
                    if outcome(function, placeholder)[0] != "EIO":
                        problems.append(f"-o broken=error: {name} of the broken thumbnail gave {outcome(function, placeholder)[0]}, not EIO")
        except RuntimeError as error:
            problems.append(f"-o broken=error: the mount failed: {str(error)[-200:]}")
        checks.figure(f"broken photo first in its album ({broken}): {len(problems)} of the listing/placeholder/reason/"
                      f"count/poster/remount count and list/broken=error expectations unmet")
    return problems


# MARK: 10. swaps at the source boundary

def as_user(command, timeout=30):
    return subprocess.run(["runuser", "-u", OTHER_USER, "--", *command], capture_output=True, timeout=timeout)


def timed_readers(paths, timeout):
    """One `cat` per path as the other user, all at once; [(path, exit code or 'hung', seconds)]."""
    started = time.time()
    processes = [(path, subprocess.Popen(["runuser", "-u", OTHER_USER, "--", "cat", path],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)) for path in paths]
    results = []
    for path, process in processes:
        try:
            code = process.wait(timeout=max(0.0, started + timeout - time.time()))
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            code = "hung"
        results.append((path, code, time.time() - started))
    return results


def unblock_fifo(path):
    """Opens a FIFO for writing without blocking, so a daemon stuck opening it for reading goes on."""
    for _ in range(20):
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        except OSError:
            return


def source_boundary_swaps(checks):
    problems = []
    user = ensure_user()
    secret = f"/root/secret-{os.getpid()}-{random.randrange(1 << 30)}.jpg"
    with workspace("boundary") as scratch:
        album = scratch.sub("source", "A")
        for index in range(4):
            add_photo(album, f"p{index}.jpg", MEDIUM[index])
        source = os.path.dirname(album)
        for folder, _, files in os.walk(source):
            for name in [folder] + [os.path.join(folder, f) for f in files]:
                os.chown(name, user.pw_uid, user.pw_gid)
        add_photo("/root", os.path.basename(secret), MEDIUM[5], "secret")
        os.chmod(secret, 0o600)
        fifo = os.path.join(album, "p1.jpg")
        mountpoint = scratch.sub("mnt")
        try:
            with mounted(source, mountpoint, f"cache={scratch.path}/cache.sqlite,allow_other"):
                with open(secret, "rb") as f:
                    secret_bytes = f.read()
                if as_user(["cat", secret]).returncode == 0:
                    problems.append(f"{OTHER_USER} can read {secret} directly: the check proves nothing")
                as_user(["ln", "-sfn", secret, os.path.join(album, "p0.jpg")])
                leaked = as_user(["cat", asset_path(mountpoint, "A", "p0", "original.jpg")]).stdout
                if leaked == secret_bytes:
                    problems.append("a photo swapped for a symlink to a root-only file: the other user read the secret through original.jpg")
                thumbnail = as_user(["cat", asset_path(mountpoint, "A", "p0")]).stdout
                if thumbnail and thumbnail == fresh_render(secret, 256):
                    problems.append("a photo swapped for a symlink to a root-only file: the other user got the secret's thumbnail")
                as_user(["rm", fifo])
                as_user(["mkfifo", fifo])
                paths = [asset_path(mountpoint, "A", "p1", kind) for kind in ("fullscreen.jpg", "original.jpg")] * 3
                results = timed_readers(paths, 5)
                for path, code, seconds in results:
                    if code == "hung" or code == 0:
                        problems.append(f"FIFO: {os.path.basename(path)} {'hung' if code == 'hung' else 'read'} ({seconds:.1f} s)")
                unblock_fifo(fifo)
                for index in (2, 3):
                    finished, (state, _), _ = timed(read_all, asset_path(mountpoint, "A", f"p{index}"), timeout=10)
                    if state != "ok":
                        problems.append(f"after the FIFO, p{index}'s thumbnail gave {state if finished else 'a hang'}")
                checks.figure(f"source boundary: {len(problems)} problems; the slowest of 6 FIFO readers ended after "
                              f"{max(seconds for *_, seconds in results):.1f} s")
        finally:
            unblock_fifo(fifo)
            os.unlink(secret)
    return problems


# MARK: 11. the cache database never stalls reads

def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def db_never_stalls(checks):
    """The figure is the time of open + read + close of a whole cached thumbnail, with the file's
    kernel pages dropped first (POSIX_FADV_DONTNEED) so each read is a FUSE READ answered by the
    daemon from its cache database; while `cache clear`, `warm` and `prune` write that database
    from other processes. A clear removes the thumbnails, so until warm (or a read) puts them
    back some reads render (counted in the figure): the photos are under 1 MP, so such a render
    takes a few milliseconds and a p99 of 50 ms or more means reads waited on the database."""
    problems = []
    seconds = 8 if QUICK else 20
    with workspace("stall") as scratch:
        source = make_library(scratch, 30, photos=SMALL)
        cache = f"{scratch.path}/cache.sqlite"
        mountpoint = scratch.sub("mnt")
        with mounted(source, mountpoint, f"cache={cache}") as mount:
            items = renditions(mountpoint)
            for path, *_ in items:
                read_all(path)
            thumbnails = [path for path, *_ in items if path.endswith("thumbnail.jpg")]
            latencies = []

            def timed_read(rng):
                started = time.perf_counter()
                data = read_from_daemon(rng.choice(thumbnails))
                latencies.append(time.perf_counter() - started)
                if not data:
                    raise AssertionError("an empty thumbnail")

            renders_before = mount.stats()["renders"]
            with cache_ops_running(cache, source) as beside:
                readers = Readers(8, timed_read)
                time.sleep(seconds)
                problems += readers.stop()
            problems += beside["problems"]
            problems += [f"reader: {error}" for error in readers.errors]
            if not latencies:
                return problems + ["no read completed"]
            p50, p99 = percentile(latencies, 0.5) * 1000, percentile(latencies, 0.99) * 1000
            renders = mount.stats()["renders"] - renders_before
            checks.figure(f"cache db under writers: {len(latencies)} thumbnail reads by 8 readers in {seconds} s beside "
                          f"{beside['runs']} clear/warm/prune runs; p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {max(latencies) * 1000:.0f} ms; "
                          f"{renders} re-renders after clears")
            if p99 >= 50:
                problems.append(f"p99 read latency {p99:.1f} ms ≥ 50 ms")
    return problems


def open_files_keep_their_version(checks):
    """An open original or rendition reads on the version it opened after its photo is replaced
    (a new file renamed over it, as editors and sync tools write), as a POSIX file does; a new
    open reads the new version."""
    problems = []
    with workspace("open-version") as scratch:
        source = scratch.sub("source")
        album = os.path.join(source, "Album")
        os.makedirs(album)
        old_path = add_photo(album, "p.jpg", "cameras/Nikon_D5000.jpg")
        with open(old_path, "rb") as f:
            old_original = f.read()
        mountpoint = scratch.sub("mnt")
        with mounted(source, mountpoint, f"cache={scratch.path}/cache.sqlite") as mount:
            files = {kind: asset_path(mountpoint, "Album", "p", kind) for kind in ("original.jpg", "thumbnail.jpg", "fullscreen.jpg")}
            expected = {kind: read_from_daemon(path) for kind, path in files.items()}
            descriptors = {kind: os.open(path, os.O_RDONLY) for kind, path in files.items()}
            try:
                for kind, fd in descriptors.items():
                    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                    os.pread(fd, 100, 0)
                replacement = os.path.join(album, ".p.jpg.tmp")
                shutil.copy(os.path.join(TESTDATA, "orientation/Portrait_1.jpg"), replacement)
                os.rename(replacement, old_path)
                started = time.time()
                while time.time() - started < 10:
                    if os.stat(files["original.jpg"]).st_size != len(old_original):
                        break
                    time.sleep(0.1)
                else:
                    problems.append("the replaced photo did not show within 10 s")
                for kind, fd in descriptors.items():
                    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)  # from the daemon, not the page cache
                    try:
                        data = os.pread(fd, len(expected[kind]) + 10, 0)
                    except OSError as error:
                        problems.append(f"{kind}: reading the open file after its photo was replaced: {error}")
                        continue
                    if data != expected[kind]:
                        problems.append(f"{kind}: the open file read {len(data)} bytes unlike the {len(expected[kind])} it opened")
                with open(files["original.jpg"], "rb") as f:
                    if f.read() == old_original:
                        problems.append("a new open of original.jpg still reads the replaced photo")
            finally:
                for fd in descriptors.values():
                    os.close(fd)
            if not mount_alive(mount):
                problems.append("the daemon died")
    if not problems:
        checks.figure("open files: original, thumbnail and fullscreen opened before their photo was replaced read on the bytes they opened; a new open reads the new photo")
    return problems
