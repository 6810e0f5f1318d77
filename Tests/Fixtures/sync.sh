#!/usr/bin/env bash
# Copies the shared test data into Tests/Fixtures (the copy the tests use), or checks the copy.
#
#   Tests/Fixtures/sync.sh [--check] [SOURCE]
#
# SOURCE is the shared test-data folder, by default ../shared/testdata relative to the repository
# root (a relative SOURCE is taken relative to the repository root too, wherever this is run from).
# Copied: the image folders below (not video/: no test uses it) minus the files left out for their
# licence (see PROVENANCE.md), README.md, LICENSES/, and expectations.csv and SHA256SUMS cut down
# to the copied files. The source is verified against its SHA256SUMS before anything is copied,
# the copy against the cut-down SHA256SUMS after.
#
# --check changes nothing: it lists what differs between SOURCE and Tests/Fixtures (missing,
# changed and extra files) and exits 1 when anything does, 0 when in sync.
# Running it twice copies nothing the second time. Exit 2: SOURCE missing or damaged.
set -euo pipefail

FIXTURES=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$FIXTURES/../.." && pwd)

FOLDERS=(orientation cameras malformed formats raw)
# No licence allows redistributing these (see PROVENANCE.md, "Left out").
EXCLUDED=(cameras/30-type_error.jpg cameras/45-gps_ifd.jpg)
# Files of Tests/Fixtures that are ours, not copies.
OWN=(sync.sh PROVENANCE.md)

check=0
source_arg=""
for arg in "$@"; do
    case "$arg" in
        --check) check=1 ;;
        -h|--help) sed -n '2,16p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "sync: unknown option $arg" >&2; exit 2 ;;
        *) [ -z "$source_arg" ] || { echo "sync: one SOURCE only" >&2; exit 2; }; source_arg=$arg ;;
    esac
done
source_arg=${source_arg:-../shared/testdata}
case "$source_arg" in /*) SOURCE=$source_arg ;; *) SOURCE=$ROOT/$source_arg ;; esac
if [ ! -f "$SOURCE/SHA256SUMS" ] || [ ! -f "$SOURCE/expectations.csv" ]; then
    echo "sync: $SOURCE is not the shared test data (no SHA256SUMS / expectations.csv)" >&2
    exit 2
fi
SOURCE=$(cd "$SOURCE" && pwd)

work=$(mktemp -d "${TMPDIR:-/tmp}/assetfs-fixtures-XXXXXX")
trap 'rm -rf "$work"' EXIT

# The files to copy: every image of SHA256SUMS in FOLDERS, minus EXCLUDED.
is_wanted() {
    local file=$1 folder excluded
    for excluded in "${EXCLUDED[@]}"; do [ "$file" != "$excluded" ] || return 1; done
    for folder in "${FOLDERS[@]}"; do case "$file" in "$folder"/*) return 0 ;; esac; done
    return 1
}
: > "$work/SHA256SUMS"
: > "$work/files"
while IFS= read -r line; do
    file=${line#*  }
    if is_wanted "$file"; then
        printf '%s\n' "$line" >> "$work/SHA256SUMS"
        printf '%s\n' "$file" >> "$work/files"
    fi
done < "$SOURCE/SHA256SUMS"
[ -s "$work/files" ] || { echo "sync: nothing to copy from $SOURCE" >&2; exit 2; }

# The source must be intact before it is copied.
if ! (cd "$SOURCE" && sha256sum --check --quiet --strict "$work/SHA256SUMS") >&2; then
    echo "sync: $SOURCE does not match its SHA256SUMS: nothing copied" >&2
    exit 2
fi

# expectations.csv: the header and the rows of the copied files, byte for byte (one row per line:
# no field of this file holds a line break; checked here). The file column comes first and holds
# no comma or quote.
rows=$(wc -l < "$SOURCE/expectations.csv")
entries=$(wc -l < "$SOURCE/SHA256SUMS")
[ "$rows" -eq $((entries + 1)) ] || { echo "sync: expectations.csv has $rows lines for $entries files: multi-line rows are not handled" >&2; exit 2; }
awk -F, 'NR == FNR { wanted[$0] = 1; next } FNR == 1 || ($1 in wanted)' "$work/files" "$SOURCE/expectations.csv" > "$work/expectations.csv"

# Everything the copy should hold, relative to Tests/Fixtures: (path, where its bytes come from).
: > "$work/plan"
while IFS= read -r file; do printf '%s\t%s\n' "$file" "$SOURCE/$file" >> "$work/plan"; done < "$work/files"
printf '%s\t%s\n' README.md "$SOURCE/README.md" >> "$work/plan"
for licence in "$SOURCE"/LICENSES/*; do printf '%s\t%s\n' "LICENSES/${licence##*/}" "$licence" >> "$work/plan"; done
printf '%s\t%s\n' expectations.csv "$work/expectations.csv" SHA256SUMS "$work/SHA256SUMS" >> "$work/plan"
cut -f1 "$work/plan" | sort > "$work/expected-paths"

# What is there now (our own files aside).
(cd "$FIXTURES" && find . -type f | sed 's|^\./||' | sort) > "$work/present-paths"
for own in "${OWN[@]}"; do sed -i "\\|^${own}\$|d" "$work/present-paths"; done

differences=0
while IFS=$'\t' read -r path from; do
    if [ ! -f "$FIXTURES/$path" ]; then
        differences=$((differences + 1))
        if [ "$check" = 1 ]; then echo "missing: $path"; else
            mkdir -p "$(dirname "$FIXTURES/$path")"; install -m 0644 "$from" "$FIXTURES/$path"; echo "added: $path"; fi
    elif ! cmp -s "$from" "$FIXTURES/$path"; then
        differences=$((differences + 1))
        if [ "$check" = 1 ]; then echo "changed: $path"; else
            install -m 0644 "$from" "$FIXTURES/$path"; echo "updated: $path"; fi
    fi
done < "$work/plan"
while IFS= read -r path; do
    differences=$((differences + 1))
    if [ "$check" = 1 ]; then echo "extra: $path"; else rm -f "$FIXTURES/$path"; echo "removed: $path"; fi
done < <(comm -13 "$work/expected-paths" "$work/present-paths")
if [ "$check" = 0 ]; then
    find "$FIXTURES" -mindepth 1 -type d -empty -delete
fi

if [ "$check" = 1 ]; then
    if [ "$differences" -gt 0 ]; then
        echo "sync: Tests/Fixtures differs from $SOURCE in $differences file(s); run Tests/Fixtures/sync.sh to update" >&2
        exit 1
    fi
    (cd "$FIXTURES" && sha256sum --check --quiet --strict SHA256SUMS) || exit 1
    echo "sync: Tests/Fixtures is in sync with $SOURCE ($(wc -l < "$work/files") files)"
    exit 0
fi

(cd "$FIXTURES" && sha256sum --check --quiet --strict SHA256SUMS) || { echo "sync: the copy does not match SHA256SUMS" >&2; exit 1; }
echo "sync: $differences file(s) changed; Tests/Fixtures holds $(wc -l < "$work/files") files from $SOURCE, all matching SHA256SUMS"
