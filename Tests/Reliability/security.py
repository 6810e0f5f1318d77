"""Security: the source is never written (the suite runs on a read-only bind mount of it), links
out of the source are not followed by default, loops never hang, other users read nothing they
could not read before, and no name escapes the tree or merges two albums."""
import os
import pwd
import shutil
import subprocess

import bad_input
from harness import Mount, Scratch, TESTDATA

OTHER_USER = "assetfs-rel"


def read_only_source(checks):
    """The whole bad-input run with SOURCE on a read-only bind mount: any write would fail loudly."""
    scratch = Scratch("ro")
    problems = []
    readonly = scratch.sub("readonly")
    try:
        source = bad_input.arrange(scratch)
        subprocess.run(["mount", "--bind", source, readonly], check=True)
        subprocess.run(["mount", "-o", "remount,bind,ro", readonly], check=True)
        problems += bad_input.check(checks, source_root=readonly)
        checks.figure("read-only source: the bad-input run passed with SOURCE on a read-only bind mount")
    finally:
        subprocess.run(["umount", readonly], capture_output=True)
        scratch.close()
    return problems


def symlinks(checks):
    scratch = Scratch("links")
    problems = []
    try:
        outside = scratch.sub("outside", "Secret")
        shutil.copy(os.path.join(TESTDATA, "malformed/grayscale.jpg"), os.path.join(outside, "s.jpg"))
        source = scratch.sub("source", "In")
        shutil.copy(os.path.join(TESTDATA, "malformed/grayscale.jpg"), os.path.join(source, "a.jpg"))
        root = os.path.dirname(source)
        os.symlink(outside, os.path.join(root, "Out"))
        os.symlink(root, os.path.join(source, "Loop"))
        os.symlink(os.path.join(outside, "s.jpg"), os.path.join(source, "linked.jpg"))
        mountpoint = scratch.sub("mnt")
        for options, expected in (("", ["In"]), (",follow_symlinks", ["In", "Out"])):
            mount = Mount(root, mountpoint, f"cache={scratch.path}/c.sqlite{options}")
            try:
                albums = sorted(os.listdir(os.path.join(mountpoint, "groups")))
                assets = sorted(os.listdir(os.path.join(mountpoint, "groups", "In")))
                if albums != expected:
                    problems.append(f"-o{options or ' (default)'}: albums {albums}, expected {expected}")
                if not options and "linked" in assets:
                    problems.append("a link to a photo outside SOURCE was followed by default")
            finally:
                mount.close()
        checks.figure("symlinks: links out of SOURCE ignored by default, followed with follow_symlinks; a loop back to the root ends")
    finally:
        scratch.close()
    return problems


def as_other_user(path):
    """errno-ish outcome of reading `path` as the unprivileged user: 'ok' or the error text."""
    out = subprocess.run(["runuser", "-u", OTHER_USER, "--", "cat", path], capture_output=True)
    return "ok" if out.returncode == 0 else out.stderr.decode().strip()


def other_users(checks):
    scratch = Scratch("users")
    problems = []
    try:
        try:
            pwd.getpwnam(OTHER_USER)
        except KeyError:
            subprocess.run(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", OTHER_USER], check=True)
        source = scratch.sub("source")
        photo = os.path.join(TESTDATA, "malformed/grayscale.jpg")
        for album, mode in (("Public", 0o644), ("PrivateFile", 0o600)):
            os.makedirs(os.path.join(source, album))
            shutil.copy(photo, os.path.join(source, album, "p.jpg"))
            os.chmod(os.path.join(source, album, "p.jpg"), mode)
        os.makedirs(os.path.join(source, "Closed", "Inner"))
        shutil.copy(photo, os.path.join(source, "Closed", "Inner", "p.jpg"))
        os.chmod(os.path.join(source, "Closed"), 0o700)
        mountpoint = scratch.sub("mnt")
        cache = os.path.join(scratch.path, "cachedir", "cache.sqlite")
        mount = Mount(source, mountpoint, f"cache={cache},allow_other")
        try:
            groups = os.path.join(mountpoint, "groups")
            expectations = {
                f"{groups}/Public/p/thumbnail.jpg": True,
                f"{groups}/Public/p/original.jpg": True,
                f"{groups}/PrivateFile/p/thumbnail.jpg": False,
                f"{groups}/PrivateFile/p/original.jpg": False,
                f"{groups}/Closed／Inner/p/thumbnail.jpg": False,
                f"{groups}/Closed／Inner/p/original.jpg": False,
                f"{groups}/Closed／Inner/thumbnail.jpg": False,
                cache: False,
            }
            for path, allowed in expectations.items():
                with open(path, "rb") as f:  # root reads everything, which renders it too
                    f.read()
                outcome = as_other_user(path)
                if (outcome == "ok") != allowed:
                    problems.append(f"{path}: other user got {outcome!r}, expected {'access' if allowed else 'a refusal'}")
            for path, mode in ((cache, 0o600), (os.path.dirname(cache), 0o700)):
                actual = os.stat(path).st_mode & 0o777
                if actual != mode:
                    problems.append(f"{path}: mode {oct(actual)}, expected {oct(mode)}")
        finally:
            mount.close()
        checks.figure("other users: public photo readable; 0600 photo and photo under a 0700 folder refused; cache 0600 in 0700")
    finally:
        scratch.close()
    return problems


def hostile_names(checks):
    scratch = Scratch("names")
    problems = []
    try:
        source = scratch.sub("source")
        photo = os.path.join(TESTDATA, "malformed/grayscale.jpg")
        folders = ["a/b", "a／b", "a‛／b", "-rf", "new\nline", "x..", "sp ace", "'quote\"", b"bad\xff\xfename"]
        for folder in folders:
            path = os.path.join(source.encode(), folder.encode() if isinstance(folder, str) else folder)
            os.makedirs(path, exist_ok=True)
            shutil.copy(photo, os.path.join(path, b"p\xff -.jpg"))
        mountpoint = scratch.sub("mnt")
        mount = Mount(source, mountpoint, f"cache={scratch.path}/c.sqlite")
        try:
            groups = os.path.join(mountpoint.encode(), b"groups")
            albums = os.listdir(groups)
            if len(set(albums)) != len(folders) or len(albums) != len(folders):
                problems.append(f"{len(folders)} folders became {len(albums)} albums: {albums}")
            for folder, subfolders, files in os.walk(mountpoint.encode()):
                for name in subfolders + files:
                    if name in (b".", b"..") or b"/" in name:
                        problems.append(f"name {name!r} in {folder!r}")
                    real = os.path.realpath(os.path.join(folder, name))
                    if not real.startswith(mountpoint.encode()):
                        problems.append(f"{name!r} leads out of the mount to {real!r}")
            stats = mount.stats()
            if stats["assets"] != len(folders):
                problems.append(f"{stats['assets']} assets for {len(folders)} photos")
            for album in albums:
                for asset in os.listdir(os.path.join(groups, album)):
                    if asset != b"thumbnail.jpg":
                        with open(os.path.join(groups, album, asset, b"original.jpg"), "rb") as f:
                            if not f.read():
                                problems.append(f"{album!r}/{asset!r}: empty original")
        finally:
            mount.close()
        checks.figure(f"hostile names: {len(folders)} folders (separator look-alikes, dashes, newline, quotes, bad UTF-8) → {len(folders)} distinct albums, none escapes")
    finally:
        scratch.close()
    return problems
