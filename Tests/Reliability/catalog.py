"""The stored catalog where inotify cannot help: folders that cannot be watched (the
fs.inotify.max_user_watches limit) are checked periodically instead, and the log says how to
raise the limit."""
import os

from harness import Mount, Scratch, wait_until
from trust import make_library

WATCHES = "/proc/sys/fs/inotify/max_user_watches"


def watch_limit_falls_back_to_checks(checks):
    problems = []
    scratch = Scratch("watches")
    with open(WATCHES) as f:
        limit = f.read().strip()
    mount = None
    try:
        source = make_library(scratch, 30)  # 3 albums
        # No watch can be added while this mounts (root's other watches already use the one).
        with open(WATCHES, "w") as f:
            f.write("1")
        mount = Mount(source, scratch.sub("mnt"), f"cache={scratch.path}/cache.sqlite,recheck=2")
        if not wait_until(lambda: "max_user_watches" in mount.read_log(), 5):
            problems.append(f"no log line naming fs.inotify.max_user_watches: {mount.read_log()[-400:]!r}")
        album = os.path.join(mount.mountpoint, "groups", "Album1")
        before = sorted(os.listdir(album))
        with open(os.path.join(source, "Album1", "p10.jpg"), "rb") as f:
            photo = f.read()
        with open(os.path.join(source, "Album1", "late.jpg"), "wb") as f:
            f.write(photo + b"late")
        seen = wait_until(lambda: "late" in os.listdir(album), 8)
        checks.figure(f"watch limit: {'seen' if seen else 'NOT seen'} by the periodic check (recheck=2) with no folder watched; "
                      f"{len(before) - 1} photos before")
        if not seen:
            problems.append("a photo added to an unwatched folder did not appear within 8 s")
    finally:
        with open(WATCHES, "w") as f:
            f.write(limit)
        if mount:
            mount.close()
        scratch.close()
    return problems
