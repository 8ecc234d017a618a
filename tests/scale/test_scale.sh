#!/bin/bash
# test_scale.sh DSMRUN BUILD_ROOT BOUNDS — the scaling counts of issue 53
# in CI: apps/bench/scale.sh runs water's OpenMP version (ompdsmcc) at
# n=8 on loopback and checks its messages and bytes per process per step
# and its shares against BOUNDS (tests/scale/bounds.txt). Counts, not
# times: they are the same on 2 cores as on 8 workstations.
#
# The checker is checked too: the same measurement against bounds 10%
# below it must fail, so a check that passes everything fails the test.
. "$(dirname "$0")/../lib.sh"
BUILD=${2:?usage: $0 DSMRUN BUILD_ROOT BOUNDS}
BOUNDS=${3:?}
BENCH="$(dirname "$0")/../../apps/bench"
command -v python3 >/dev/null || skip "no python3 (scale.sh's report)"
[ -x "$BUILD/apps/water_ompdsm" ] || skip "no $BUILD/apps/water_ompdsm (ompdsmcc not built)"

bash "$BENCH/scale.sh" --build "$BUILD" --apps water --versions ompdsm --procs 8 \
  --time-procs "" --profiles loopback --no-plot --timeout 150 --out "$T/out" \
  --check "$BOUNDS" >"$T/report" 2>&1
rc=$?
cat "$T/report"
nb=$(grep -cvE '^\s*(#|$)' "$BOUNDS")
check "scale.sh --check exits 0" [ "$rc" -eq 0 ]
check "every bound ($nb) was checked and held" \
  [ "$(grep -c '^check: ok ' "$T/report")" -eq "$nb" ]
check "the run verified its answer" grep_q '^VERIFIED' "$T/out/logs/water-ompdsm-8-loopback.log"

# Bounds 10% below what was just measured: every one must fail on the
# same measurement.
sed -n 's/^check: ok \([^ ]*\) \([^ ]*\) n=\([0-9]*\) \([a-z0-9]*\) = \([0-9.]*\) .*/\1 \2 \3 \4 \5/p' \
  "$T/report" | awk '{$5 = $5 * 0.9; print}' >"$T/tight"
python3 "$BENCH/scale_report.py" --csv "$T/out/scale.csv" --out "$T/out" --procs 8 \
  --time-procs "" --check "$T/tight" >"$T/tight.out" 2>&1
rc=$?
grep '^check:' "$T/tight.out"
check "bounds 10% below the measurement: the check exits 1" [ "$rc" -eq 1 ]
check "bounds 10% below the measurement: all $nb fail" \
  [ "$(grep -c '^check: FAIL ' "$T/tight.out")" -eq "$nb" ]
finish
