"""Security: the source is never written (the suite runs on a read-only bind mount of it), links
out of the source are not followed by default, loops never hang, other users read nothing they
could not read before, and no name escapes the tree or merges two albums."""
import json
import os
import pwd
import shutil
import subprocess
import time

import bad_input
from harness import BINARY, Mount, Scratch, TESTDATA, wait_until

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
        # A catalog of its own per option: a remount serves the stored tree (of the other option)
        # until its check has read SOURCE again.
        for options, expected in (("", ["In"]), (",follow_symlinks", ["In", "Out"])):
            mount = Mount(root, mountpoint, f"cache={scratch.path}/c{options.replace(',', '-')}.sqlite{options}")
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


def wait_for_albums(mountpoint, expected, seconds=10):
    """The album names once they are `expected` (or after `seconds`, whatever they are then)."""
    started = time.time()
    while True:
        albums = sorted(os.listdir(os.path.join(mountpoint, "groups")))
        if albums == expected or time.time() - started > seconds:
            return albums
        time.sleep(0.1)


def linked_folders(checks):
    """Every folder is shown once, under its real path, whatever links lead to it and whatever
    order the first scan, events and a remount read it in: a link to a parent (`ln -s .. up`)
    and a link to a sibling (`Alias -> Real`) add no album, then or later."""
    scratch = Scratch("linked")
    problems = []
    photo = os.path.join(TESTDATA, "malformed/grayscale.jpg")
    try:
        source = scratch.sub("source")
        for album in ("A", "Real"):
            os.makedirs(os.path.join(source, album))
            shutil.copy(photo, os.path.join(source, album, "1.jpg"))
        os.symlink("..", os.path.join(source, "A", "up"))
        os.symlink("Real", os.path.join(source, "Alias"))
        mountpoint = scratch.sub("mnt")
        options = f"cache={scratch.path}/c.sqlite"
        steps = []
        mount = Mount(source, mountpoint, options)
        try:
            steps.append(("first scan", ["A", "Real"], wait_for_albums(mountpoint, ["A", "Real"], 0)))
            os.makedirs(os.path.join(source, "B"))
            shutil.copy(photo, os.path.join(source, "B", "1.jpg"))
            steps.append(("a new folder B", ["A", "B", "Real"], wait_for_albums(mountpoint, ["A", "B", "Real"])))
            shutil.copy(photo, os.path.join(source, "A", "2.jpg"))
            shutil.copy(photo, os.path.join(source, "Real", "2.jpg"))
            time.sleep(1.5)
            steps.append(("photos added to A and Real", ["A", "B", "Real"], wait_for_albums(mountpoint, ["A", "B", "Real"])))
        finally:
            mount.close()
        mount = Mount(source, mountpoint, options)
        try:
            time.sleep(1)
            steps.append(("a remount", ["A", "B", "Real"], wait_for_albums(mountpoint, ["A", "B", "Real"])))
            skipped = subprocess.run([BINARY, "skipped", "-o", options, source], capture_output=True, text=True).stdout
            for link in ("A/up", "Alias"):
                if f"linked-folder\t{source}/{link}" not in skipped.splitlines():
                    problems.append(f"assetfs skipped does not list {link} as a linked folder: {skipped!r}")
        finally:
            mount.close()
        # A bind mount inside SOURCE of a folder inside it is the same folder reached twice.
        bound = os.path.join(source, "Bound")
        os.makedirs(bound)
        subprocess.run(["mount", "--bind", os.path.join(source, "Real"), bound], check=True)
        try:
            mount = Mount(source, mountpoint, f"cache={scratch.path}/bind.sqlite")
            try:
                steps.append(("a first scan with Bound bound to Real", ["A", "B", "Real"], wait_for_albums(mountpoint, ["A", "B", "Real"], 0)))
            finally:
                mount.close()
        finally:
            subprocess.run(["umount", bound], capture_output=True)
        for step, expected, albums in steps:
            if albums != expected:
                problems.append(f"after {step}: albums {albums}, expected {expected}")
        if not problems:
            checks.figure(f"linked folders: a link to the parent and a link to a sibling add no album after the first scan, "
                          f"new folders, new photos, a remount and a bind mount of Real inside SOURCE ({len(steps)} steps, albums A, B, Real)")
    finally:
        scratch.close()
    return problems


def as_other_user(path):
    """errno-ish outcome of reading `path` as the unprivileged user: 'ok' or the error text."""
    out = subprocess.run(["runuser", "-u", OTHER_USER, "--", "cat", path], capture_output=True)
    return "ok" if out.returncode == 0 else out.stderr.decode().strip()


def other_user_attribute(path, name):
    """The value of extended attribute `name` of `path` as the unprivileged user, or None if refused."""
    out = subprocess.run(["runuser", "-u", OTHER_USER, "--", "getfattr", "--only-values", "-n", name, path], capture_output=True)
    return out.stdout if out.returncode == 0 else None


def other_user_listing(path):
    """The names `ls -A path` shows the unprivileged user (empty if refused)."""
    out = subprocess.run(["runuser", "-u", OTHER_USER, "--", "ls", "-A", path], capture_output=True)
    return set(out.stdout.decode().split("\n")) - {""}


def ensure_other_user():
    try:
        pwd.getpwnam(OTHER_USER)
    except KeyError:
        subprocess.run(["useradd", "--no-create-home", "--shell", "/usr/sbin/nologin", OTHER_USER], check=True)


def dated_asset_folders(mountpoint, count):
    """Each photo's folder under dates/, by its source path (user.assetfs.source), as root sees them,
    once the background has dated all `count` photos (a busy machine takes a while after the mount)."""
    def dated():
        stats = json.loads(os.getxattr(mountpoint, "user.assetfs.stats"))
        return sum(value for key, value in stats.items() if key.startswith("dates_")) >= count
    wait_until(dated, 30)
    found = {}
    for folder, subfolders, _ in os.walk(os.path.join(mountpoint, "dates")):
        for name in subfolders:
            path = os.path.join(folder, name)
            try:
                found[os.getxattr(path, "user.assetfs.source").decode()] = path
            except OSError:
                pass
    return found


def make_live_photo(folder):
    """A Live Photo in `folder`: its still without GPS (readable by all) and its movie, which has a
    position, readable by its owner only. Its asset folder."""
    os.makedirs(folder, exist_ok=True)
    still, movie = os.path.join(folder, "IMG_0020.HEIC"), os.path.join(folder, "IMG_0020.MOV")
    shutil.copy(os.path.join(TESTDATA, "formats/iPhone_XR_irot.heic"), still)
    shutil.copy(os.path.join(TESTDATA, "video/iPhone6s_livephoto.mov"), movie)
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-gps:all=",
                    "-Apple:MediaGroupUUID=E905E6C6-C747-4805-942F-9904A0281F02", still], check=True)
    os.chmod(still, 0o644)
    os.chmod(movie, 0o600)
    return "IMG_0020"


def lent_place_problems(asset):
    """The still of Live Photo `asset` took its movie's place: root reads it in its location, the
    other user, who may read the still but not the movie, does not."""
    def located():
        try:
            return os.getxattr(asset, "user.assetfs.location")
        except OSError:
            return None
    if not wait_until(located, 30):
        return [f"{asset}: the still has no location from its movie for root"]
    if other_user_attribute(asset, "user.assetfs.date") is None:
        return [f"{asset}: the other user cannot read the still's date"]
    location = other_user_attribute(asset, "user.assetfs.location")
    return [] if location is None else [f"{asset}: the other user reads the movie's location {location!r}"]


def other_users(checks):
    """Another user reaches a photo by any path of the mount (groups/, dates/, the size views, an
    album's poster, attributes, listings) only if they could read it in SOURCE: search on every
    folder on the way, read on the file, POSIX ACLs included."""
    scratch = Scratch("users")
    problems = []
    try:
        ensure_other_user()
        source = scratch.sub("source")
        # A picture of its own each (the orientation set's): copies of one are one asset in dates/.
        photos = [os.path.join(TESTDATA, f"orientation/Landscape_{n}.jpg") for n in range(1, 9)]
        layout = {  # source path: (mode, whether the other user may read it)
            "Public/public.jpg": (0o644, True),
            "PrivateFile/private.jpg": (0o600, False),
            "Closed/Inner/inner.jpg": (0o644, False),
            "Secret/secret.jpg": (0o644, False),
            "Mixed/a_private.jpg": (0o600, False),
            "Mixed/b_public.jpg": (0o644, True),
            "Shared/shared.jpg": (0o600, True),        # shared with the other user by an ACL
            "Barred/barred.jpg": (0o644, False),       # its folder bars the other user by an ACL
        }
        for (relative, (mode, _)), photo in zip(layout.items(), photos):
            path = os.path.join(source, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            shutil.copy(photo, path)
            os.chmod(path, mode)
        os.chmod(os.path.join(source, "Closed"), 0o700)
        os.chmod(os.path.join(source, "Secret"), 0o700)
        subprocess.run(["setfacl", "-m", f"u:{OTHER_USER}:r", os.path.join(source, "Shared/shared.jpg")], check=True)
        subprocess.run(["setfacl", "-m", f"u:{OTHER_USER}:-", os.path.join(source, "Barred")], check=True)
        live = make_live_photo(os.path.join(source, "Live"))
        mountpoint = scratch.sub("mnt")
        cache = os.path.join(scratch.path, "cachedir", "cache.sqlite")
        mount = Mount(source, mountpoint, f"cache={cache},allow_other")
        try:
            groups = os.path.join(mountpoint, "groups")
            dated = dated_asset_folders(mountpoint, len(layout))
            paths = {}
            for relative, (_, allowed) in layout.items():
                album, name = relative.rsplit("/", 1)
                album = album.replace("/", "／")
                asset = name[:-len(".jpg")]
                for view in ("thumbnails", "fullscreen"):
                    paths[f"{mountpoint}/{view}/{album}/{asset}.jpg"] = allowed
                for folder in (f"{groups}/{album}/{asset}", dated.get(relative)):
                    if folder is None:
                        problems.append(f"{relative}: not found under dates/")
                        continue
                    for file in ("thumbnail.jpg", "fullscreen.jpg", "original.jpg"):
                        paths[f"{folder}/{file}"] = allowed
            paths[f"{groups}/Closed／Inner/thumbnail.jpg"] = False
            paths[f"{groups}/Secret/thumbnail.jpg"] = False
            paths[f"{groups}/Mixed/thumbnail.jpg"] = False   # its poster shows a_private.jpg
            paths[f"{groups}/Public/thumbnail.jpg"] = True
            paths[cache] = False  # last: renders made it
            for path, allowed in paths.items():
                with open(path, "rb") as f:  # root reads everything, which renders it (and fills the page cache) too
                    f.read()
                outcome = as_other_user(path)
                if (outcome == "ok") != allowed:
                    problems.append(f"{path}: other user got {outcome!r}, expected {'access' if allowed else 'a refusal'}")
            for relative, (_, allowed) in layout.items():
                folder = dated.get(relative)
                if folder is None:
                    continue
                for name in ("user.assetfs.source", "user.assetfs.date"):
                    if (other_user_attribute(folder, name) is not None) != allowed:
                        problems.append(f"{folder} {name}: other user {'refused' if allowed else 'read it'}")
                if (os.path.basename(folder) in other_user_listing(os.path.dirname(folder))) != allowed:
                    problems.append(f"{os.path.dirname(folder)}: other user's listing {'lacks' if allowed else 'shows'} {relative}")
            albums = other_user_listing(groups)
            expected_albums = {"Public", "PrivateFile", "Mixed", "Shared", "Live"}
            if albums != expected_albums:
                problems.append(f"groups/ as the other user: {sorted(albums)}, expected {sorted(expected_albums)}")
            if other_user_listing(f"{groups}/PrivateFile") != {"thumbnail.jpg"}:
                problems.append(f"groups/PrivateFile as the other user: {sorted(other_user_listing(groups + '/PrivateFile'))}, expected only the poster's name")
            problems += lent_place_problems(f"{groups}/Live/{live}")
            for path, mode in ((cache, 0o600), (os.path.dirname(cache), 0o700)):
                actual = os.stat(path).st_mode & 0o777
                if actual != mode:
                    problems.append(f"{path}: mode {oct(actual)}, expected {oct(mode)}")
        finally:
            mount.close()
        if not problems:
            checks.figure(f"other users: {len(paths)} paths (groups/, dates/, size views, posters) read as root then as another user, "
                          "each allowed exactly when SOURCE allows (0600 file, 0700 folder, ACL grant, ACL bar); attributes and listings likewise, "
                          "and a Live Photo still's location from a 0600 movie is root's alone")
        problems += folders_above_source(checks, scratch)
    finally:
        scratch.close()
    return problems


def folders_above_source(checks, scratch):
    """SOURCE's own ancestors count: a library in a 0700 home folder is closed to other users, and a
    chmod of that folder while mounted counts within seconds."""
    problems = []
    home = scratch.sub("home")
    source = os.path.join(home, "Pictures")
    os.makedirs(os.path.join(source, "Album"))
    shutil.copy(os.path.join(TESTDATA, "malformed/grayscale.jpg"), os.path.join(source, "Album", "a.jpg"))
    os.chmod(home, 0o700)
    mountpoint = scratch.sub("mnt-home")
    mount = Mount(source, mountpoint, f"cache={scratch.path}/home.sqlite,allow_other")
    original = os.path.join(mountpoint, "groups", "Album", "a", "original.jpg")
    try:
        with open(original, "rb") as f:
            f.read()
        if as_other_user(original) == "ok":
            problems.append(f"{original}: read by another user although SOURCE's parent folder is 0700")
        for mode, allowed in ((0o755, True), (0o700, False)):
            os.chmod(home, mode)
            started = time.time()
            while (as_other_user(original) == "ok") != allowed and time.time() - started < 10:
                time.sleep(0.2)
            seconds = time.time() - started
            if (as_other_user(original) == "ok") != allowed:
                problems.append(f"chmod {oct(mode)} of SOURCE's parent: still {'refused' if allowed else 'readable'} after {seconds:.1f} s")
            else:
                checks.figure(f"folders above SOURCE: after chmod {oct(mode)} of its parent the other user is "
                              f"{'let in' if allowed else 'refused'} within {seconds:.1f} s")
    finally:
        mount.close()
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
