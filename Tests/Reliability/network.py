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


# MARK: NFS

class NFS3:
    """Just enough of an NFSv3 client (RFC 1813 over ONC RPC, RFC 5531, on TCP) to hold file handles
    across a restart of the filesystem under the server: MNT, LOOKUP, GETATTR, READDIR and READ.
    Each call returns (status, result); status 0 is NFS3_OK, 70 is NFS3ERR_STALE."""
    MOUNT, NFS = 100005, 100003
    STALE = 70

    def __init__(self, nfs_port, mount_port):
        self.ports = {self.NFS: nfs_port, self.MOUNT: mount_port}
        self.sockets = {}
        self.xid = random.randrange(1 << 31)

    def close(self):
        for sock in self.sockets.values():
            sock.close()

    def _socket(self, program):
        if program not in self.sockets:
            sock = None
            for port in [*range(1023, 900, -1), 0]:  # a reserved source port first, as kernel clients use
                sock = socket.socket()
                try:
                    sock.bind(("127.0.0.1", port))
                    break
                except OSError:
                    sock.close()
            sock.settimeout(30)
            sock.connect(("127.0.0.1", self.ports[program]))
            self.sockets[program] = sock
        return self.sockets[program]

    def _call(self, program, procedure, body):
        self.xid += 1
        machine = b"assetfs-test"
        credentials = struct.pack(">II", 0, len(machine)) + machine + struct.pack(">III", 0, 0, 0)  # AUTH_SYS root
        message = (struct.pack(">IIIIII", self.xid, 0, 2, program, 3, procedure)
                   + struct.pack(">II", 1, len(credentials)) + credentials + struct.pack(">II", 0, 0) + body)
        sock = self._socket(program)
        sock.sendall(struct.pack(">I", 0x80000000 | len(message)) + message)
        reply, last = b"", False
        while not last:
            header = self._receive(sock, 4)
            (mark,) = struct.unpack(">I", header)
            last = bool(mark & 0x80000000)
            reply += self._receive(sock, mark & 0x7FFFFFFF)
        xid, kind, state = struct.unpack(">III", reply[:12])
        if xid != self.xid or kind != 1 or state != 0:
            raise OSError(f"RPC call {program}/{procedure} denied ({xid}, {kind}, {state})")
        verifier_length = struct.unpack(">I", reply[16:20])[0]
        offset = 20 + (verifier_length + 3) // 4 * 4
        (accepted,) = struct.unpack(">I", reply[offset:offset + 4])
        if accepted != 0:
            raise OSError(f"RPC call {program}/{procedure} not accepted ({accepted})")
        return XDR(reply[offset + 4:])

    @staticmethod
    def _receive(sock, count):
        data = b""
        while len(data) < count:
            chunk = sock.recv(count - len(data))
            if not chunk:
                raise OSError("connection closed")
            data += chunk
        return data

    def mount(self, path):
        reply = self._call(self.MOUNT, 1, XDR.pack(path.encode()))
        status = reply.u32()
        return status, reply.opaque() if status == 0 else None

    def lookup(self, directory, name):
        reply = self._call(self.NFS, 3, XDR.pack(directory) + XDR.pack(name.encode()))
        status = reply.u32()
        return status, reply.opaque() if status == 0 else None

    def getattr(self, handle):
        reply = self._call(self.NFS, 1, XDR.pack(handle))
        status = reply.u32()
        return status, reply.fattr() if status == 0 else None

    def walk(self, root, path):
        handle = root
        for name in path.split("/"):
            status, handle = self.lookup(handle, name)
            if status != 0:
                return status, None
        return 0, handle

    def readdir(self, directory):
        """Every name in `directory` but . and .."""
        names, cookie, verifier = [], 0, b"\0" * 8
        while True:
            reply = self._call(self.NFS, 16, XDR.pack(directory) + struct.pack(">Q", cookie) + verifier
                               + struct.pack(">I", 8192))
            status = reply.u32()
            reply.post_op_attr()
            if status != 0:
                return status, None
            verifier = reply.take(8)
            while reply.u32():
                reply.take(8)  # fileid
                name = reply.opaque()
                (cookie,) = struct.unpack(">Q", reply.take(8))
                if name not in (b".", b".."):
                    names.append(name.decode("utf-8", "surrogateescape"))
            if reply.u32():  # eof
                return 0, sorted(names)

    def read(self, handle):
        data = b""
        while True:
            reply = self._call(self.NFS, 6, XDR.pack(handle) + struct.pack(">QI", len(data), 65536))
            status = reply.u32()
            reply.post_op_attr()
            if status != 0:
                return status, None
            reply.u32()  # count
            eof = reply.u32()
            data += reply.opaque()
            if eof:
                return 0, data


class XDR:
    """Reads XDR (RFC 4506) items in order; `pack` encodes variable-length opaque data."""

    def __init__(self, data):
        self.data, self.at = data, 0

    @staticmethod
    def pack(value):
        return struct.pack(">I", len(value)) + value + b"\0" * (-len(value) % 4)

    def take(self, count):
        value = self.data[self.at:self.at + count]
        self.at += count
        return value

    def u32(self):
        return struct.unpack(">I", self.take(4))[0]

    def opaque(self):
        count = self.u32()
        value = self.take(count)
        self.take(-count % 4)
        return value

    def fattr(self):
        kind, mode, nlink, uid, gid, size = struct.unpack(">IIIIIQ", self.take(28))
        self.take(56)  # used, rdev, fsid, fileid, atime, mtime, ctime
        return {"type": kind, "nlink": nlink, "size": size}

    def post_op_attr(self):
        return self.fattr() if self.u32() else None


GANESHA_CONF = """NFS_CORE_PARAM {{
  NFS_Port = {nfs_port};
  MNT_Port = {mount_port};
  Bind_addr = 127.0.0.1;
  Enable_NLM = false;
  Enable_RQUOTA = false;
  Enable_UDP = false;
  Protocols = 3, 4;
}}
NFSV4 {{
  Graceless = true;
  RecoveryBackend = fs;
  RecoveryRoot = {dir}/recovery;
}}
"""
GANESHA_EXPORT = """EXPORT {{
  Export_Id = 77;
  Path = {share};
  Pseudo = /photos;
  Access_Type = RO;
  Squash = No_Root_Squash;
  SecType = sys;
  Protocols = 3, 4;
  Transports = TCP;
  FSAL {{ Name = VFS; }}
}}
"""
NFS_LS_ENTRY = re.compile(r"^([-dl][-rwxsStT]{9})\s+(\d+)\s+\d+\s+\d+\s+(\d+) (.+)$")


class Ganesha:
    """ganesha.nfsd in the foreground with a private configuration, pid file, log and ports."""

    def __init__(self, folder, share):
        self.folder, self.share = folder, share
        os.makedirs(os.path.join(folder, "recovery"), exist_ok=True)
        self.nfs_port, self.mount_port = free_port(), free_port()
        self.conf, self.log = os.path.join(folder, "ganesha.conf"), os.path.join(folder, "ganesha.log")
        self.write(export=True)

    def write(self, export):
        text = GANESHA_CONF.format(nfs_port=self.nfs_port, mount_port=self.mount_port, dir=self.folder)
        with open(self.conf, "w") as f:
            f.write(text + (GANESHA_EXPORT.format(share=self.share) if export else ""))

    def command(self):
        return ["ganesha.nfsd", "-F", "-f", self.conf, "-L", self.log, "-p", os.path.join(self.folder, "ganesha.pid"),
                "-N", "NIV_EVENT"]

    def log_text(self):
        with contextlib.suppress(OSError):
            return read_all(self.log).decode("utf-8", "replace")
        return ""

    def ready(self):
        return "NFS SERVER INITIALIZED" in self.log_text() and listening(self.nfs_port) and listening(self.mount_port)

    def set_export(self, server, present):
        """Adds or drops the export while the server runs (SIGHUP rereads the exports)."""
        done = self.log_text().count("Reread exports complete")
        self.write(present)
        server.send_signal(signal.SIGHUP)
        return wait_until(lambda: self.log_text().count("Reread exports complete") > done, 30)

    def url(self, path=""):
        return f"nfs://127.0.0.1{self.share}{'/' + path if path else ''}?nfsport={self.nfs_port}&mountport={self.mount_port}"


def nfs_ls(ganesha):
    out = subprocess.run(["nfs-ls", "-R", ganesha.url()], capture_output=True, timeout=120)
    tree, links = {}, {}
    for line in out.stdout.decode("utf-8", "replace").splitlines():
        match = NFS_LS_ENTRY.match(line)
        if match:
            tree[match.group(4)] = None if match.group(1)[0] == "d" else int(match.group(3))
            links[match.group(4)] = int(match.group(2))
    return out.returncode, tree, links


def nfs_cp(ganesha, paths, folder):
    """Copies each path with nfs-cp; {path: bytes} of those that arrived."""
    got = {}
    for index, path in enumerate(paths):
        target = os.path.join(folder, f"{index}.jpg")
        out = subprocess.run(["nfs-cp", ganesha.url(path), target], capture_output=True, timeout=60)
        if out.returncode == 0 and os.path.exists(target):
            got[path] = read_all(target)
    return got


def restart_under_export(mounts, source, mountpoint, options):
    """A plain restart under the running server: SIGTERM to the daemon (the server's open files keep
    the kernel from a plain unmount, so libfuse detaches it) and a new mount at the same point."""
    old = mounts[-1]
    old.process.terminate()
    old.process.wait(timeout=30)
    old.close()  # clears what is left of the old mount, before the new one is there
    mounts.append(Mount(source, mountpoint, options))


def restart_between_exports(ganesha, server, mounts, source, mountpoint, options):
    """The supported restart: ganesha drops the export (closing what it holds of the mount),
    assetfs is unmounted and mounted again, ganesha adds the export back. Problems, if any."""
    problems = [] if ganesha.set_export(server, False) else ["ganesha did not reread its exports (export dropped)"]
    old = mounts[-1]
    out = subprocess.run(["fusermount3", "-u", mountpoint], capture_output=True)
    if out.returncode != 0:
        problems.append(f"fusermount3 -u with the export dropped: {out.stderr.decode(errors='replace').strip()}")
        old.process.terminate()
    old.process.wait(timeout=30)
    old.close()
    mounts.append(Mount(source, mountpoint, options))
    if not ganesha.set_export(server, True):
        problems.append("ganesha did not reread its exports (export added)")
    return problems


def nfs(checks):
    ensure()
    problems = []
    scratch = Scratch("nfs")
    with contextlib.ExitStack() as stack:
        stack.callback(scratch.close)
        source, broken = make_library(scratch)
        mountpoint = scratch.sub("mnt")
        options = f"allow_other,cache={scratch.path}/cache.sqlite"
        mounts = [Mount(source, mountpoint, options)]
        stack.callback(lambda: mounts[-1].close())
        probe = ["rpcinfo", "-p", "127.0.0.1"]
        if subprocess.run(probe, capture_output=True).returncode != 0:  # ganesha registers NFSv3 and MOUNT
            stack.enter_context(process(["rpcbind", "-f"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            wait_until(lambda: subprocess.run(probe, capture_output=True).returncode == 0, 10)
        ganesha = Ganesha(scratch.sub("ganesha"), mountpoint)
        output = open(os.path.join(scratch.path, "ganesha", "stdout"), "wb")
        server = stack.enter_context(process(ganesha.command(), stdout=output, stderr=output))
        if not wait_until(lambda: ganesha.ready() or server.poll() is not None, 60) or server.poll() is not None:
            return [f"ganesha did not come up: {ganesha.log_text()[-800:]}"]

        # 1. libnfs: the whole tree, and every thumbnail's bytes.
        expected = mount_tree(mountpoint)
        wanted = thumbnails(expected)
        code, listed, links = nfs_ls(ganesha)
        if code != 0:
            problems.append(f"nfs-ls -R: exit {code}")
        problems += differences("nfs-ls -R", expected, listed)
        problems += [f"nfs-ls -R: {path} has link count {count}" for path, count in links.items() if count < 1]
        copied = nfs_cp(ganesha, wanted, scratch.sub("copied"))
        same = [path for path in wanted if copied.get(path) == read_all(os.path.join(mountpoint, path))]
        problems += [f"nfs-cp {path}: {'bytes differ from the mount' if path in copied else 'failed'}"
                     for path in wanted if path not in same]
        album = [path for path in listed if path.startswith("groups/Album/")]
        if len(album) != len([path for path in expected if path.startswith("groups/Album/")]):
            problems.append(f"the album with the broken photo lists {len(album)} entries over NFS")
        checks.figure(f"nfs (ganesha VFS, NFSv3, libnfs): {len(listed)} of {len(expected)} entries listed; {len(same)} of "
                      f"{len(wanted)} thumbnails copied byte-identical ({sum(len(copied[p]) for p in same)} bytes)")

        # 2. Handles taken before a restart of assetfs, used after it.
        client = NFS3(ganesha.nfs_port, ganesha.mount_port)
        stack.callback(client.close)
        status, root = client.mount(mountpoint)
        if status != 0:
            return problems + [f"MNT {mountpoint}: status {status}"]
        folders = ["groups", "groups/Album", [p for p in expected if p.startswith("thumbnails/") and expected[p] is None][0]]
        unread = [[p for p in expected if p.endswith("/fullscreen.jpg")][0], [p for p in expected if p.endswith("/original.jpg")][0]]
        handles = {}
        for path in folders + wanted + unread:
            status, handles[path] = client.walk(root, path)
            if status != 0:
                problems.append(f"LOOKUP {path}: status {status}")
        if problems:
            return problems

        # What each path holds, read on the mount before the restart: after it, nothing here touches
        # the new mount until the old handles have been used, so the kernel knows none of its inodes
        # and must ask assetfs (a lookup of "." by inode number, FUSE_CAP_EXPORT_SUPPORT).
        truth = {path: sorted(os.listdir(os.path.join(mountpoint, path))) if path in folders
                 else read_all(os.path.join(mountpoint, path)) for path in handles}

        def use(label, paths, required):
            """READDIR or READ of each path by its old handle: statuses seen, and problems if `required`."""
            statuses, found = {}, []
            for path in paths:
                status, content = (client.readdir if path in folders else client.read)(handles[path])
                statuses[status] = statuses.get(status, 0) + 1
                if required and (status != 0 or content != truth[path]):
                    found.append(f"{label}: {path} by its old handle: "
                                 + (f"status {status}{' (NFS3ERR_STALE)' if status == NFS3.STALE else ''}" if status else "wrong content"))
            return statuses, found

        statuses, found = use("before the restart", folders + wanted, True)
        problems += found
        inodes = {path: os.stat(os.path.join(mountpoint, path)).st_ino for path in handles}
        device = os.stat(mountpoint).st_dev
        problems += restart_between_exports(ganesha, server, mounts, source, mountpoint, options)
        statuses, found = use("after a restart between export drop and add", folders + wanted + unread, True)
        problems += found
        moved = [path for path in handles if os.stat(os.path.join(mountpoint, path)).st_ino != inodes[path]]
        problems += [f"{path}: inode number changed across the restart" for path in moved]
        if os.stat(mountpoint).st_dev != device:  # ganesha's handles name the device (FUSE's f_fsid is 0)
            problems.append(f"the new mount has device {os.stat(mountpoint).st_dev}, the old one had {device}: "
                            "another mount took the number in between, so ganesha's old handles cannot match")
        code, relisted, _ = nfs_ls(ganesha)
        problems += differences("nfs-ls -R after the restart", expected, relisted)
        recopied = nfs_cp(ganesha, wanted, scratch.sub("recopied"))
        problems += [f"nfs-cp {path} after the restart: different or failed" for path in wanted
                     if recopied.get(path) != copied.get(path)]
        checks.figure(f"nfs, assetfs restarted between ganesha dropping and re-adding the export (server running): "
                      f"{len(handles)} handles taken before ({len(folders)} folders, {len(wanted) + len(unread)} files, "
                      f"{len(unread)} of them read only after the restart) answer {statuses} (0 = NFS3_OK) with the "
                      f"mount's bytes and names; {len(relisted)} entries relisted, "
                      f"{sum(r == copied.get(p) for p, r in recopied.items())} thumbnails re-copied identical")

        # 3. For the record, not required: a restart under an export that stays, as it goes today.
        restart_under_export(mounts, source, mountpoint, options)
        untouched, _ = use("", folders + wanted + unread, False)
        disconnected = ganesha.log_text().count("Transport endpoint is not connected")
        ganesha.set_export(server, False)
        ganesha.set_export(server, True)
        reloaded, _ = use("", folders + wanted + unread, False)
        checks.figure(f"nfs, assetfs restarted under an export that stays (not supported): the same handles answer "
                      f"{untouched} while ganesha still holds the old, detached mount ({disconnected} ENOTCONN in its log), "
                      f"and after a reload of the export {reloaded} (70 = NFS3ERR_STALE); the new mount's device is "
                      f"{os.stat(mountpoint).st_dev}, the handles were made on {device}")
        if server.poll() is not None:
            problems.append(f"ganesha exited with {server.returncode}")
    return problems
