#!/usr/bin/env python3
"""The reliability suite: hostile photos, faults, load and other users, against real mounts of the
release binary. Needs root and /dev/fuse. RELIABILITY_QUICK=1 shortens the long parts (CI).

    python3 Tests/Reliability/run.py [CHECK ...]      # all checks, or the named ones
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bad_input  # noqa: E402
import catalog  # noqa: E402
import faults  # noqa: E402
import load  # noqa: E402
import mounts  # noqa: E402
import network  # noqa: E402
import phone_dump  # noqa: E402
import readme  # noqa: E402
import security  # noqa: E402
import trust  # noqa: E402
import videos  # noqa: E402
from harness import BINARY, Checks  # noqa: E402

CHECKS = {
    "bad-input": bad_input.check,
    "kill-9": faults.kill_during_renders,
    "readers-gone": faults.readers_gone_mid_wait,
    "damaged-cache": faults.damaged_cache,
    "full-disk": faults.full_disk,
    "warm-beside-mount": faults.warm_beside_mount,
    "two-mounts": mounts.two_mounts,
    "source-rewritten": faults.source_rewritten_while_read,
    "open-files-keep-their-version": trust.open_files_keep_their_version,
    "read-errors-mid-decode": faults.read_errors_mid_decode,
    "load": load.check,
    "watch-limit": catalog.watch_limit_falls_back_to_checks,
    "read-only-source": security.read_only_source,
    "symlinks": security.symlinks,
    "linked-folders": security.linked_folders,
    "other-users": security.other_users,
    "hostile-names": security.hostile_names,
    "bogus-dates": trust.bogus_dates,
    "daemon-cache-ops": trust.daemon_cache_ops,
    "sigterm-during-renders": trust.sigterm_during_renders,
    "sizes-after-cache-ops": trust.sizes_after_cache_ops,
    "restored-mtime-edit": trust.restored_mtime_edit,
    "reader-never-mixes": trust.reader_never_mixes,
    "transient-errors-not-sticky": trust.transient_errors_not_sticky,
    "source-unplugged": trust.source_unplugged,
    "broken-photo-lists": trust.broken_photo_lists,
    "source-boundary-swaps": trust.source_boundary_swaps,
    "db-never-stalls": trust.db_never_stalls,
    "videos": videos.check,
    "phone-dump": phone_dump.check,
    "readme-examples": readme.check,
    "samba": network.samba,
    "nfs": network.nfs,
}


def main(names):
    if not os.access(BINARY, os.X_OK):
        print(f"no assetfs binary at {BINARY}: build it with 'swift build -c release'")
        return 1
    checks = Checks()
    for name in names or CHECKS:
        checks.run(name, CHECKS[name], checks)
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
