#!/usr/bin/env bash
# What -Ounchecked buys the renderer, in instructions: `assetfs render` built three ways, side by
# side in one run, each against the libjpeg-turbo decode floor (`djpeg` at the DCT scale the
# render decodes at):
#   as-is       the tree as it is (Package.swift: only RenditionsKernels is -Ounchecked)
#   checked     every -Ounchecked in Package.swift replaced by plain -O
#   renditions  as-is plus the whole Renditions target -Ounchecked (how it was built before)
# Counts are valgrind callgrind totals (Ir, whole process): unlike wall time they repeat exactly
# whatever else the machine runs. `perf stat -e instructions:u` is added where the CPU counter works.
#
#   bash bench/unchecked-bench.sh            # from anywhere in the package
#   BENCH_CORPUS=12mp BENCH_SIZES=1920 BENCH_VARIANTS="as-is checked" bash bench/unchecked-bench.sh
#
# Environment:
#   BENCH_CORPUS      photos, from: 12mp 24mp 24mp-progressive (default "12mp 24mp-progressive")
#   BENCH_SIZES       longest sides to render (default "256 1920")
#   BENCH_VARIANTS    builds to compare, the first is the reference (default "as-is checked renditions")
#   BENCH_SKIP_BUILD  1: reuse the binaries of the last run
#
# Each variant is a copy of the working tree (tracked and untracked, not ignored files) with its
# Package.swift edited, built into its own scratch path, so nothing here touches .build or the
# tree. Everything lives in bench/out/unchecked/ (gitignored); the corpus is cached there.
set -euo pipefail
export LC_ALL=C

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
OUT="$ROOT/bench/out/unchecked"
QUALITY=85
read -r -a CORPUS <<<"${BENCH_CORPUS:-12mp 24mp-progressive}"
read -r -a SIZES <<<"${BENCH_SIZES:-256 1920}"
read -r -a VARIANTS <<<"${BENCH_VARIANTS:-as-is checked renditions}"
declare -A PHOTO_DIMS=([12mp]="4000 3000 12" [24mp]="6000 4000 24" [24mp-progressive]="6000 4000 24")  # as in render-bench.sh

log() { printf 'unchecked-bench: %s\n' "$*" >&2; }
die() { printf 'unchecked-bench: error: %s\n' "$*" >&2; exit 1; }
for photo in "${CORPUS[@]}"; do [[ -n ${PHOTO_DIMS[$photo]+x} ]] || die "unknown photo '$photo' (known: ${!PHOTO_DIMS[*]})"; done
for variant in "${VARIANTS[@]}"; do [[ $variant =~ ^(as-is|checked|renditions)$ ]] || die "unknown variant '$variant'"; done

# ---------------------------------------------------------------- tools
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
find_numpy_python
missing=()
command -v valgrind >/dev/null && command -v callgrind_annotate >/dev/null || missing+=(valgrind)
command -v djpeg >/dev/null && command -v cjpeg >/dev/null && command -v jpegtran >/dev/null || missing+=(libjpeg-turbo-progs)
command -v objcopy >/dev/null || missing+=(binutils)
[[ -n $PY ]] || missing+=(python3-numpy)
install_missing "${missing[@]}"
find_numpy_python
[[ -n $PY ]] || die "no python3 with numpy"
PERF=0
if command -v perf >/dev/null && [[ $(perf stat -x, -e instructions:u true 2>&1 >/dev/null | cut -d, -f1) =~ ^[0-9]+$ ]]; then PERF=1; fi

# ---------------------------------------------------------------- builds
mkdir -p "$OUT/corpus" "$OUT/bin" "$OUT/run" "$OUT/callgrind"
# The working tree's files as they are now (deleted tracked files left out).
tree_files() {
    git -C "$ROOT" ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' f; do [[ -e $ROOT/$f ]] && printf '%s\0' "$f"; done
}
make_variant_source() {
    local variant=$1 src="$OUT/src/$1"
    rm -rf "$src" && mkdir -p "$src"
    tree_files | tar -C "$ROOT" --null -T - -cf - | tar -C "$src" -xf -
    local manifest="$src/Package.swift"
    case $variant in
        as-is) ;;
        checked)
            sed -i 's/"-Ounchecked"/"-O"/g' "$manifest"
            ! grep -q '"-Ounchecked"' "$manifest" || die "checked: -Ounchecked left in $manifest" ;;
        renditions)
            if grep -Eq '\.target\(name: "Renditions", dependencies: \[[^]]*\]\)' "$manifest"; then
                sed -Ei 's/(\.target\(name: "Renditions", dependencies: \[[^]]*\])\)/\1, swiftSettings: [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))])/' "$manifest"
            elif grep -Eq '\.target\(name: "Renditions", .*swiftSettings' "$manifest"; then
                log "renditions: the Renditions target has settings already (a tree from before RenditionsKernels?): built as it is"
            else
                die "renditions: no Renditions target found in Package.swift to patch"
            fi ;;
    esac
    local targets=none   # in this package only the -Ounchecked targets have Swift settings
    if grep -q '"-Ounchecked"' "$manifest"; then
        targets=$(grep -E '^ *\.target\(name: .*swiftSettings' "$manifest" | sed -E 's/.*name: "([A-Za-z]+)".*/\1/' | paste -sd' ' || true)
    fi
    log "$variant: -Ounchecked targets: ${targets:-?}"
}
if [[ ${BENCH_SKIP_BUILD:-0} != 1 ]]; then
    for variant in "${VARIANTS[@]}"; do
        make_variant_source "$variant"
        log "$variant: swift build -c release"
        swift build -c release --package-path "$OUT/src/$variant" --scratch-path "$OUT/build/$variant" >"$OUT/build-$variant.log" 2>&1 ||
            { tail -30 "$OUT/build-$variant.log" >&2; die "$variant: build failed (see $OUT/build-$variant.log)"; }
        # valgrind 3.19 gives up on the DWARF 5 that Swift 6 writes ("Possibly corrupted debuginfo
        # file"); without the .debug sections it runs, and the symbol table still names functions.
        objcopy --strip-debug "$OUT/build/$variant/release/assetfs" "$OUT/bin/assetfs-$variant"
    done
fi
for variant in "${VARIANTS[@]}"; do [[ -x $OUT/bin/assetfs-$variant ]] || die "no $OUT/bin/assetfs-$variant (run without BENCH_SKIP_BUILD=1)"; done

# ---------------------------------------------------------------- corpus (the same photos as render-bench.sh)
STAMP=$( { sha256sum "$ROOT/bench/genphoto.py"; declare -p PHOTO_DIMS; cjpeg -version 2>&1 | head -n 1; } | sha256sum | cut -c1-16)
if [[ $(cat "$OUT/corpus/STAMP" 2>/dev/null) != "$STAMP" ]]; then rm -f "$OUT"/corpus/*.jpg; echo "$STAMP" >"$OUT/corpus/STAMP"; fi
photo_path() { echo "$OUT/corpus/photo-$1.jpg"; }
make_photo() {
    local photo=$1 path width height seed
    path=$(photo_path "$photo")
    [[ -s $path ]] && return 0
    read -r width height seed <<<"${PHOTO_DIMS[$photo]}"
    if [[ $photo == *-progressive ]]; then
        make_photo "${photo%-progressive}"
        jpegtran -progressive -copy all -outfile "$path.tmp" "$(photo_path "${photo%-progressive}")"
    else
        log "corpus: $photo (${width}x$height, seed $seed)"
        "$PY" "$ROOT/bench/genphoto.py" "$width" "$height" "$seed" | cjpeg -quality 90 -outfile "$path.tmp"
    fi
    mv "$path.tmp" "$path"
}
for photo in "${CORPUS[@]}"; do make_photo "$photo"; done

# ---------------------------------------------------------------- measuring
# ir FILE: the total Ir of a callgrind output file.
ir() { awk '/^(summary|totals):/ {print $2; exit}' "$1"; }
# callgrind NAME CMD...: runs CMD under callgrind into callgrind/NAME.out; prints its Ir.
callgrind() {
    local name=$1 file="$OUT/callgrind/$1.out"
    shift
    valgrind --tool=callgrind --callgrind-out-file="$file" "$@" >/dev/null 2>"$OUT/callgrind/$name.log" ||
        { tail -20 "$OUT/callgrind/$name.log" >&2; die "failed under callgrind: $*"; }
    ir "$file"
}
# perf_instructions CMD...: user-space instructions by the CPU counter, or - when it is not available.
perf_instructions() {
    ((PERF)) || { echo -; return; }
    perf stat -x, -e instructions:u "$@" 2>&1 >/dev/null | awk -F, '/instructions/ {print $1; exit}'
}
# jpeg_size FILE: "WIDTH HEIGHT" of a JPEG, from djpeg's PNM header.
jpeg_size() { djpeg -pnm "$1" | head -c 64 | "$PY" -c 'import sys; t = sys.stdin.buffer.read().split(); print(int(t[1]), int(t[2]))'; }
# self_ir FILE BINARY: Ir spent in BINARY's own code (the Swift and the C bridge; libjpeg and libc not counted).
self_ir() { callgrind_annotate --threshold=100 "$1" 2>/dev/null | awk -v bin="$2" 'index($0, "[" bin "]") { gsub(",", "", $1); s += $1 } END { printf "%d\n", s }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f%%", (a / b - 1) * 100 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
mir() { awk -v a="$1" 'BEGIN { printf "%.1f", a / 1e6 }'; }

log "valgrind: $(valgrind --version); perf instructions: $( ((PERF)) && echo yes || echo 'not available (no CPU counter here)')"
declare -A IR SELF PERFI FLOOR FLOORP SCALE SAME
for photo in "${CORPUS[@]}"; do
    input=$(photo_path "$photo")
    read -r width height _ <<<"${PHOTO_DIMS[$photo]}"
    for size in "${SIZES[@]}"; do
        reference=""
        SAME[$photo-$size]=yes
        for variant in "${VARIANTS[@]}"; do
            bin="$OUT/bin/assetfs-$variant" out="$OUT/run/$photo-$size-$variant.jpg"
            log "$photo at $size px: $variant"
            IR[$photo-$size-$variant]=$(callgrind "$photo-$size-$variant" "$bin" render --size "$size" --quality "$QUALITY" "$input" "$out")
            SELF[$photo-$size-$variant]=$(self_ir "$OUT/callgrind/$photo-$size-$variant.out" "$bin")
            PERFI[$photo-$size-$variant]=$(perf_instructions "$bin" render --size "$size" --quality "$QUALITY" "$input" "$out")
            if [[ -z $reference ]]; then reference=$out; elif ! cmp -s "$reference" "$out"; then SAME[$photo-$size]=NO; fi
        done
        read -r ow oh < <(jpeg_size "$reference")
        d=$(floor_denominator "$width" "$height" "$ow" "$oh")
        SCALE[$photo-$size]=$d
        if [[ -z ${FLOOR[$photo-$d]+x} ]]; then
            log "$photo: djpeg -scale 1/$d"
            FLOOR[$photo-$d]=$(callgrind "$photo-djpeg-$d" djpeg -scale "1/$d" -outfile /dev/null "$input")
            FLOORP[$photo-$d]=$(perf_instructions djpeg -scale "1/$d" -outfile /dev/null "$input")
        fi
    done
done

# ---------------------------------------------------------------- report
REPORT="$OUT/report.txt"
first=${VARIANTS[0]}
{
    echo "assetfs render: instructions (callgrind Ir, whole process, M = 10^6) by build, against djpeg at the scale the render decodes at"
    echo "builds: ${VARIANTS[*]} (as-is: $(grep -c '"-Ounchecked"' "$ROOT/Package.swift") -Ounchecked setting(s) in Package.swift)"
    echo
    printf '%-17s %5s %5s %10s' photo px scale floor_M
    for v in "${VARIANTS[@]}"; do printf ' %14s %8s' "${v}_M" "/floor"; done
    for v in "${VARIANTS[@]:1}"; do printf ' %11s' "$v:$first"; done
    printf ' %s\n' same-bytes
    for photo in "${CORPUS[@]}"; do
        for size in "${SIZES[@]}"; do
            d=${SCALE[$photo-$size]} f=${FLOOR[$photo-${SCALE[$photo-$size]}]}
            printf '%-17s %5s %5s %10s' "$photo" "$size" "1/$d" "$(mir "$f")"
            for v in "${VARIANTS[@]}"; do printf ' %14s %8s' "$(mir "${IR[$photo-$size-$v]}")" "$(ratio "${IR[$photo-$size-$v]}" "$f")"; done
            for v in "${VARIANTS[@]:1}"; do printf ' %11s' "$(pct "${IR[$photo-$size-$v]}" "${IR[$photo-$size-$first]}")"; done
            printf ' %s\n' "${SAME[$photo-$size]}"
        done
    done
    echo
    echo "Of which in the assetfs executable itself (Swift and the C bridge; not libjpeg, libc, the Swift runtime), M:"
    printf '%-17s %5s' photo px
    for v in "${VARIANTS[@]}"; do printf ' %14s' "$v"; done
    echo
    for photo in "${CORPUS[@]}"; do
        for size in "${SIZES[@]}"; do
            printf '%-17s %5s' "$photo" "$size"
            for v in "${VARIANTS[@]}"; do printf ' %14s' "$(mir "${SELF[$photo-$size-$v]}")"; done
            echo
        done
    done
    if ((PERF)); then
        echo
        echo "perf stat -e instructions:u (one run each), M:"
        for photo in "${CORPUS[@]}"; do
            for size in "${SIZES[@]}"; do
                printf '%-17s %5s floor %10s' "$photo" "$size" "$(mir "${FLOORP[$photo-${SCALE[$photo-$size]}]}")"
                for v in "${VARIANTS[@]}"; do printf '  %s %s' "$v" "$(mir "${PERFI[$photo-$size-$v]}")"; done
                echo
            done
        done
    else
        echo "(perf stat -e instructions: no CPU counter here, callgrind only)"
    fi
    echo
    echo "Per-function costs: callgrind_annotate $OUT/callgrind/<photo>-<size>-<build>.out"
} | tee "$REPORT"
