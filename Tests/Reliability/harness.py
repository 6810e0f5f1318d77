"""Shared pieces of the reliability suite: the binary, scratch folders, mounts that always go away,
the mount's counters, and a check registry that prints 'N passed, N failed' at the end."""
import csv
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The test photos vendored in the repository (Tests/Fixtures/PROVENANCE.md): the one place the
# reliability suite names that folder. No fallback elsewhere: a missing folder fails the checks.
TESTDATA = os.path.join(ROOT, "Tests", "Fixtures")
BINARY = os.environ.get("ASSETFS_BIN", os.path.join(ROOT, ".build", "release", "assetfs"))
QUICK = os.environ.get("RELIABILITY_QUICK") == "1"


def expectations():
    """Tests/Fixtures/expectations.csv as a list of dicts."""
    with open(os.path.join(TESTDATA, "expectations.csv"), newline="") as f:
        return list(csv.DictReader(f))


def is_jpeg(path):
    with open(path, "rb") as f:
        return f.read(2) == b"\xff\xd8"


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def snapshot(tree):
    """Content hash and mtime of every file under `tree`: proof that nothing was written."""
    result = {}
    for folder, _, files in os.walk(tree):
        for name in files:
            path = os.path.join(folder, name)
            if os.path.islink(path):
                continue
            st = os.stat(path)
            result[path] = (sha256(path), st.st_mtime_ns, st.st_size)
    return result


def rss_kib(pid, field="VmHWM"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


class Scratch:
    """A private folder under /tmp, removed at the end."""

    def __init__(self, name):
        self.path = tempfile.mkdtemp(prefix=f"assetfs-rel-{name}-")
        os.chmod(self.path, 0o755)

    def sub(self, *parts):
        path = os.path.join(self.path, *parts)
        os.makedirs(path, exist_ok=True)
        return path

    def close(self):
        shutil.rmtree(self.path, ignore_errors=True)


class Mount:
    """`assetfs -f` in the background with its stderr captured, so it can be killed (-9 too) and
    its log read. Always unmounted by `close`, even after a crash (clearing the dead mount)."""

    def __init__(self, source, mountpoint, options, env=None, binary=None, prefix=()):
        """`binary` replaces the release binary (an instrumented build); `prefix` is a command the
        daemon runs under (e.g. setpriv)."""
        self.mountpoint = mountpoint
        self.log_path = mountpoint.rstrip("/") + ".log"
        self.log = open(self.log_path, "ab")
        self.log_start = self.log.tell()  # one log file per mountpoint; this mount's part starts here
        self.process = subprocess.Popen([*prefix, binary or BINARY, "-f", "-o", options, source, mountpoint],
                                        stdout=self.log, stderr=self.log, env=env)
        deadline = time.time() + 60
        while not os.path.ismount(mountpoint):
            if self.process.poll() is not None:
                self.log.close()
                raise RuntimeError(f"assetfs exited with {self.process.returncode}: {self.read_log()}")
            if time.time() > deadline:
                self.close()  # a daemon that never mounted is not left behind
                raise RuntimeError("mount did not appear within 60 s")
            time.sleep(0.02)

    @property
    def pid(self):
        return self.process.pid

    def stats(self):
        value = os.getxattr(self.mountpoint, "user.assetfs.stats")
        return json.loads(value)

    def read_log(self):
        with open(self.log_path, "rb") as f:
            f.seek(self.log_start)
            return f.read().decode("utf-8", "replace")

    def kill(self):
        self.process.kill()
        self.process.wait()

    def close(self):
        if self.process.poll() is None:
            subprocess.run(["fusermount3", "-u", self.mountpoint], capture_output=True)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        # A dead daemon leaves "Transport endpoint is not connected": clear it.
        if os.path.ismount(self.mountpoint) or _is_dead_mount(self.mountpoint):
            subprocess.run(["fusermount3", "-u", "-z", self.mountpoint], capture_output=True)
        self.log.close()


class DaemonMount:
    """`assetfs` without -f: the command returns once the mount is ready and the forked daemon
    lives on (logging to syslog). Its pid is found by its command line in /proc; `close` unmounts
    with fusermount3 -u, waits for the daemon to exit, and clears a dead mount."""

    def __init__(self, source, mountpoint, options, binary=None):
        self.mountpoint = mountpoint
        out = subprocess.run([binary or BINARY, "-o", options, source, mountpoint], capture_output=True, timeout=120)
        if out.returncode != 0 or not os.path.ismount(mountpoint):
            raise RuntimeError(f"assetfs exited with {out.returncode}: {out.stderr.decode(errors='replace')}")
        self.pid = daemon_pid(mountpoint)
        if self.pid is None:
            self.close()
            raise RuntimeError(f"no assetfs daemon process found for {mountpoint}")

    def alive(self):
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        with open(f"/proc/{self.pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"

    def stats(self):
        return json.loads(os.getxattr(self.mountpoint, "user.assetfs.stats"))

    def close(self):
        subprocess.run(["fusermount3", "-u", self.mountpoint], capture_output=True)
        if self.pid is not None and not wait_until(lambda: not self.alive(), 30):
            os.kill(self.pid, 9)
        if os.path.ismount(self.mountpoint) or _is_dead_mount(self.mountpoint):
            subprocess.run(["fusermount3", "-u", "-z", self.mountpoint], capture_output=True)


def daemon_pid(mountpoint):
    """The pid of the assetfs process whose command line names `mountpoint`, if any."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if os.path.basename(argv[0]) == b"assetfs" and os.fsencode(mountpoint) in argv:
            return int(entry)
    return None


def ensure_tools(tools):
    """apt-get installs the package of every tool of `tools` (tool name -> Debian package) that is
    missing (apt-get update first, only then)."""
    missing = sorted({package for tool, package in tools.items() if not shutil.which(tool)})
    if missing:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update"], check=True, capture_output=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "--no-install-recommends", *missing],
                       check=True, capture_output=True, env=env)


def wait_until(predicate, timeout, interval=0.1):
    """Calls `predicate` until it returns something true or `timeout` seconds pass; returns its
    last value (so a caller can tell what it saw)."""
    deadline = time.time() + timeout
    while True:
        value = predicate()
        if value or time.time() >= deadline:
            return value
        time.sleep(interval)


def _is_dead_mount(path):
    try:
        os.stat(path)
        return False
    except OSError as error:
        return error.errno == 107  # ENOTCONN


def read_all(path):
    with open(path, "rb") as f:
        return f.read()


def fresh_render(source, size, quality=85):
    out = subprocess.run([BINARY, "render", "--size", str(size), "--quality", str(quality), source, "-"],
                         capture_output=True, timeout=120)
    return out.stdout if out.returncode == 0 else None


def decodes_cleanly(data):
    """djpeg decodes every byte without a warning (a partial rendition would warn)."""
    out = subprocess.run(["djpeg", "-outfile", "/dev/null"], input=data, capture_output=True, timeout=60)
    return out.returncode == 0 and not out.stderr


class Checks:
    """Runs named checks, prints each outcome and its figures, and the closing count."""

    def __init__(self):
        self.passed = 0
        self.failed = 0
        self.figures = []

    def run(self, name, function, *args):
        started = time.time()
        print(f"--- {name}", flush=True)
        try:
            problems = function(*args) or []
        except Exception:  # a crash in a check is a failure of that check, not of the suite
            problems = ["exception:\n" + traceback.format_exc()]
        elapsed = time.time() - started
        if problems:
            self.failed += 1
            print(f"FAIL {name} ({elapsed:.1f} s)")
            for problem in problems[:20]:
                print(f"     {problem}")
        else:
            self.passed += 1
            print(f"ok   {name} ({elapsed:.1f} s)")
        sys.stdout.flush()

    def figure(self, text):
        self.figures.append(text)
        print(f"     {text}", flush=True)

    def finish(self):
        print("\nfigures:")
        for text in self.figures:
            print(f"  {text}")
        print(f"\n{self.passed} passed, {self.failed} failed")
        return 1 if self.failed else 0
