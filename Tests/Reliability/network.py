"""Re-export over the network, with real servers on this machine: Samba (`smbd` on a private port,
read with `smbclient`) and NFS through nfs-ganesha's VFS backend (read with libnfs's `nfs-ls` and
`nfs-cp`, and with the small NFSv3 client below, which keeps its file handles across a restart of
assetfs). Every server, mount and folder a check starts is gone when it ends.

Packages (installed by `ensure` when missing, `apt-get update` only then): samba, smbclient,
nfs-ganesha, nfs-ganesha-vfs, libnfs-utils, rpcbind, fuse3."""
import contextlib
import csv
import os
import random
import re
import shutil
import signal
import socket
import struct
import subprocess
import time

from harness import TESTDATA, Mount, Scratch, read_all, wait_until

TOOLS = {"smbd": "samba", "smbclient": "smbclient", "ganesha.nfsd": "nfs-ganesha", "nfs-ls": "libnfs-utils",
         "nfs-cp": "libnfs-utils", "rpcbind": "rpcbind", "rpcinfo": "rpcbind", "fusermount3": "fuse3"}
# The VFS backend is a plugin without a command of its own.
PLUGINS = {"nfs-ganesha-vfs": "/usr/lib/x86_64-linux-gnu/ganesha/libfsalvfs.so"}


# MARK: setup

def ensure():
    """apt-get installs what is missing; `apt-get update` first only when the plain install fails."""
    missing = sorted({package for tool, package in TOOLS.items() if not shutil.which(tool)}
                     | {package for package, path in PLUGINS.items() if not os.path.exists(path)})
    if not missing:
        return
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing]
    if subprocess.run(install, capture_output=True, env=env).returncode != 0:
        subprocess.run(["apt-get", "update", "-qq"], check=True, capture_output=True, env=env)
        subprocess.run(install, check=True, capture_output=True, env=env)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def listening(port):
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def fixtures(decodes_ok):
    """Fixture rows that decode (`yes`) or not (`no`), smallest non-empty file first."""
    with open(os.path.join(TESTDATA, "expectations.csv"), newline="") as f:
        rows = [row for row in csv.DictReader(f) if row["decodes_ok"] == decodes_ok and row["format"].startswith("JPEG")
                and int(row["bytes"]) > 0]
    return sorted(rows, key=lambda row: (int(row["bytes"]), row["file"]))


def make_library(scratch):
    """Three albums: `Album` whose first photo is a broken JPEG, `2024/Trip` (a name with a space,
    shown as `2024／Trip`) and `Garden` (a non-ASCII name). Returns (source, broken fixture)."""
    broken = next(row["file"] for row in fixtures("no") if row["file"].startswith("malformed/"))
    good = [row["file"] for row in fixtures("yes") if row["file"].startswith("cameras/") and int(row["bytes"]) > 20_000][:5]
    layout = [("Album", "a_broken.jpg", broken), ("Album", "b_good.jpg", good[0]), ("Album", "c_good.jpg", good[1]),
              ("2024/Trip", "IMG 1.jpg", good[2]), ("2024/Trip", "IMG_2.jpg", good[3]), ("Garden", "Été 01.jpg", good[4])]
    source = scratch.sub("source")
    for album, name, fixture in layout:
        shutil.copyfile(os.path.join(TESTDATA, fixture), os.path.join(scratch.sub("source", album), name))
    return source, broken


def mount_tree(mountpoint):
    """{relative path: size, or None for a folder} of everything in the mount (stat, no reads)."""
    tree = {}
    for folder, dirs, files in os.walk(mountpoint):
        for name in dirs:
            tree[os.path.relpath(os.path.join(folder, name), mountpoint)] = None
        for name in files:
            path = os.path.join(folder, name)
            tree[os.path.relpath(path, mountpoint)] = os.stat(path).st_size
    return tree


def thumbnails(tree):
    """Every thumbnail: the view's files, each asset's thumbnail.jpg and each album's poster."""
    return sorted(path for path, size in tree.items() if size is not None
                  and (path.startswith("thumbnails/") or (path.startswith("groups/") and path.endswith("/thumbnail.jpg"))))


def differences(label, expected, got):
    problems = [f"{label}: missing {path}" for path in sorted(set(expected) - set(got))]
    problems += [f"{label}: unexpected {path}" for path in sorted(set(got) - set(expected))]
    problems += [f"{label}: {path}: {got[path]} bytes, the mount says {expected[path]}"
                 for path in sorted(set(expected) & set(got)) if expected[path] != got[path]]
    return problems


@contextlib.contextmanager
def process(command, **extra):
    """A server in its own process group, ended (TERM, then KILL) with everything it forked."""
    child = subprocess.Popen(command, start_new_session=True, **extra)
    try:
        yield child
    finally:
        for sig, wait in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, sig)
            try:
                child.wait(timeout=wait)
                break
            except subprocess.TimeoutExpired:
                continue
        with contextlib.suppress(ProcessLookupError):  # children left in the group
            os.killpg(child.pid, signal.SIGKILL)


# MARK: Samba

SMB_CONF = """[global]
  server role = standalone server
  smb ports = {port}
  interfaces = lo
  bind interfaces only = yes
  disable netbios = yes
  lock directory = {dir}/lock
  state directory = {dir}/state
  cache directory = {dir}/cache
  private dir = {dir}/private
  pid directory = {dir}/run
  ncalrpc dir = {dir}/ncalrpc
  log file = {dir}/log.%m
  map to guest = Bad User
  load printers = no
  printcap name = /dev/null
  disable spoolss = yes
  unix charset = UTF-8

[photos]
  path = {share}
  read only = yes
  guest ok = yes
"""

SMB_ENTRY = re.compile(r"^  (.+?)\s+([DAHSRN]+)\s+(\d+)\s+\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4}$")


def smb_listing(output):
    """`recurse; ls` output as {path: size, or None for a folder}."""
    tree, folder = {}, ""
    for line in output.splitlines():
        if line.startswith("\\"):
            folder = line[1:].replace("\\", "/")
            continue
        match = SMB_ENTRY.match(line)
        if match and match.group(1) not in (".", ".."):
            path = f"{folder}/{match.group(1)}" if folder else match.group(1)
            tree[path] = None if "D" in match.group(2) else int(match.group(3))
    return tree


def samba(checks):
    ensure()
    problems = []
    scratch = Scratch("smb")
    try:
        source, broken = make_library(scratch)
        mountpoint = scratch.sub("mnt")
        mount = Mount(source, mountpoint, f"allow_other,cache={scratch.path}/cache.sqlite")
        try:
            port = free_port()
            conf = os.path.join(scratch.sub("samba"), "smb.conf")
            for sub in ("lock", "state", "cache", "private", "run", "ncalrpc"):
                scratch.sub("samba", sub)
            with open(conf, "w") as f:
                f.write(SMB_CONF.format(port=port, dir=os.path.dirname(conf), share=mountpoint))
            log = open(os.path.join(scratch.path, "samba", "smbd.out"), "wb")
            with process(["smbd", "--foreground", "--no-process-group", "--debug-stdout", "-s", conf],
                         stdout=log, stderr=log) as smbd:
                if not wait_until(lambda: listening(port) or smbd.poll() is not None, 30) or smbd.poll() is not None:
                    return [f"smbd did not listen on {port}: {read_all(log.name)[-600:]!r}"]
                expected = mount_tree(mountpoint)
                client = ["smbclient", f"//127.0.0.1/photos", "-p", str(port), "-N", "-s", conf]
                listed = subprocess.run([*client, "-c", "recurse; ls"], capture_output=True, timeout=120)
                got = smb_listing(listed.stdout.decode("utf-8", "replace"))
                if listed.returncode != 0:
                    problems.append(f"smbclient ls: exit {listed.returncode}: {listed.stderr[-300:]!r}")
                problems += differences("smbclient recursive listing", expected, got)
                # Every thumbnail: the whole view, and thumbnail.jpg (posters and assets) under groups.
                fetched = scratch.sub("fetched")
                script = f"recurse; prompt; lcd {fetched}; mask thumbnail.jpg; mget groups; mask *; mget thumbnails"
                fetch = subprocess.run([*client, "-c", script], capture_output=True, timeout=180)
                if fetch.returncode != 0:
                    problems.append(f"smbclient mget: exit {fetch.returncode}: {fetch.stderr[-300:]!r}")
                wanted = thumbnails(expected)
                got_files = {os.path.relpath(os.path.join(folder, name), fetched): os.path.getsize(os.path.join(folder, name))
                             for folder, _, names in os.walk(fetched) for name in names}
                problems += differences("smbclient mget", {path: expected[path] for path in wanted}, got_files)
                same = [path for path in wanted if path in got_files
                        and read_all(os.path.join(fetched, path)) == read_all(os.path.join(mountpoint, path))]
                problems += [f"smbclient mget: {path}: bytes differ from the mount" for path in wanted
                             if path in got_files and path not in same]
                album = {path for path in got if path.startswith("groups/Album/")}
                if len(album) != len([path for path in expected if path.startswith("groups/Album/")]):
                    problems.append(f"the album with the broken photo lists {len(album)} entries over SMB")
                checks.figure(f"samba: {len(got)} of {len(expected)} entries listed; {len(same)} of {len(wanted)} thumbnails "
                              f"fetched byte-identical ({sum(expected[p] for p in same)} bytes); broken first photo {broken}")
        finally:
            mount.close()
    finally:
        scratch.close()
    return problems
