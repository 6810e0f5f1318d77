#!/usr/bin/env bash
# Byte identity of two assetfs binaries' renditions, as users read them: each binary mounts
# Tests/Fixtures (every test photo and video, the malformed ones included) with a cache of its own,
# every thumbnail.jpg and fullscreen.jpg (and album poster) is read, and the two mounts' bytes are
# compared file by file. A refactor must print "differ 0"; a change that moves bytes must change
# the renderer's fingerprint, so that caches render again.
#
#   bash bench/byte-identity.sh OLD_ASSETFS NEW_ASSETFS        # from the package root, as root or a FUSE user
#
# Mounts, caches and listings go to a temporary folder, removed (and the mounts unmounted) on exit.
set -euo pipefail
export LC_ALL=C
[[ $# -eq 2 && -x $1 && -x $2 ]] || { echo "usage: bash bench/byte-identity.sh OLD_ASSETFS NEW_ASSETFS" >&2; exit 2; }
OLD=$(realpath "$1") NEW=$(realpath "$2")
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SOURCE="$ROOT/Tests/Fixtures"
WORK=$(mktemp -d /tmp/assetfs-identity-XXXXXX)
cleanup() {
    for side in old new; do mountpoint -q "$WORK/$side.mnt" 2>/dev/null && fusermount3 -u "$WORK/$side.mnt"; done
    rm -rf "$WORK"
}
trap cleanup EXIT

# Each side's sha256 of every rendition, by path below groups/.
for side in old new; do
    binary=$OLD; [[ $side == new ]] && binary=$NEW
    mkdir -p "$WORK/$side.mnt"
    "$binary" -o "cache=$WORK/$side.sqlite,log=$WORK/$side.log" "$SOURCE" "$WORK/$side.mnt"
    (cd "$WORK/$side.mnt/groups" && find . \( -name thumbnail.jpg -o -name fullscreen.jpg \) -print0 | sort -z |
        xargs -0 -r sha256sum) > "$WORK/$side.sums"
    fusermount3 -u "$WORK/$side.mnt"
done

same=$(join -j 2 <(sort -k2 "$WORK/old.sums") <(sort -k2 "$WORK/new.sums") | awk '$2 == $3' | wc -l)
join -j 2 <(sort -k2 "$WORK/old.sums") <(sort -k2 "$WORK/new.sums") | awk '$2 != $3 { print "differ  " $1 }'
differ=$(join -j 2 <(sort -k2 "$WORK/old.sums") <(sort -k2 "$WORK/new.sums") | awk '$2 != $3' | wc -l)
only_old=$(join -v 1 -j 2 <(sort -k2 "$WORK/old.sums") <(sort -k2 "$WORK/new.sums") | wc -l)
only_new=$(join -v 2 -j 2 <(sort -k2 "$WORK/old.sums") <(sort -k2 "$WORK/new.sums") | wc -l)
join -v 1 -j 2 <(sort -k2 "$WORK/old.sums") <(sort -k2 "$WORK/new.sums") | awk '{ print "old only  " $1 }'
join -v 2 -j 2 <(sort -k2 "$WORK/old.sums") <(sort -k2 "$WORK/new.sums") | awk '{ print "new only  " $1 }'
printf 'identical %d, differ %d, shown by the old binary only %d, by the new only %d\n(%s against %s)\n' \
    "$same" "$differ" "$only_old" "$only_new" "$OLD" "$NEW"
(( differ == 0 && only_old == 0 && only_new == 0 ))
