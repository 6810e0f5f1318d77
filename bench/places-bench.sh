#!/usr/bin/env bash
# Places benchmark (issue 31): the offline reverse geocoder (Sources/Places) looking up GPS
# positions, per lookup and at first use, in a release build of bench/places-lookup.
#
#   bash bench/places-bench.sh                 # 1,000,000 positions of each kind
#   PLACES_LOOKUPS=100000 bash bench/places-bench.sh
#
# Kinds of position: near cities (within ±0.3° of 24 cities of every continent, as photos are) and
# anywhere (uniform over the globe's area, mostly sea: the search's cells are then mostly empty).
# "first lookup (load)" is the first call in a fresh process: the table is built into the binary
# and read in place, so its load is the page faults of the cells and places that lookup touches.
# The peak RSS is the process's, the table's touched pages included.
set -euo pipefail
export LC_ALL=C
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
LOOKUPS=${PLACES_LOOKUPS:-1000000}
[[ $LOOKUPS =~ ^[1-9][0-9]*$ ]] || { echo "places-bench: PLACES_LOOKUPS must be a positive integer" >&2; exit 1; }
swift build -c release --product places-lookup >/dev/null
"$ROOT/.build/release/places-lookup" "$LOOKUPS"
