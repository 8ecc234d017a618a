#!/bin/bash
# onesided.sh - how much of the work one-sided fetches take off the remote
# CPUs: every job twice over the verbs transport, with DSM_ONESIDED=1 and
# =0, side by side in one run.
#
#   apps/bench/onesided.sh [--build DIR] [--lib LIBIBVERBS] [--procs N]
#
# Without an RDMA device the jobs run over the stand-in of tests/verbs
# (the default --lib), which models queue pairs and READ between processes
# but not a fabric's timing, so this counts messages rather than timing
# them: the PAGE and DIFF requests a peer's service thread had to answer,
# and all messages sent, summed over the ranks from DSM_STATS=json. Every
# job must verify its answer in both runs. On a cluster with RDMA, pass
# --lib libibverbs.so.1 (and a hostfile through DSMRUN_ARGS) to count the
# same on real hardware.
#
# Output: one Markdown table on stdout; the ratio column is messages
# without one-sided fetches over messages with them (above 1: fewer
# messages with them).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD="$ROOT/build" LIB="" PROCS=4
while [ $# -gt 0 ]; do
  case $1 in
    --build) BUILD=$(cd "$2" && pwd); shift 2 ;;
    --lib) LIB=$2; shift 2 ;;
    --procs) PROCS=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "onesided.sh: error: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
LIB=${LIB:-$BUILD/tests/verbs/libibverbs_standin.so}
DSMRUN="$BUILD/tools/dsmrun"
[ -x "$DSMRUN" ] || { echo "onesided.sh: error: no $DSMRUN (build first)" >&2; exit 2; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

# name | command line (relative to the build directory)
JOBS=(
  "sor|tests/dsm/dsm_sor"
  "cold_fetch 32 MiB|tests/dsm/dsm_cold_fetch 32"
  "multi_writer|tests/dsm/dsm_multi_writer"
  "water (dsm)|apps/water_dsm -s small"
  "tsp (dsm)|apps/tsp_dsm -s small"
  "fft3d (dsm)|apps/fft3d_dsm -s small"
  "water (ompdsmcc)|apps/water_ompdsm -s small"
  "qsort (ompdsmcc)|apps/qsort_ompdsm -s small"
)

# count FILE FIELD...: sums over the ranks of the JSON statistics.
count() {
  python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
def one(k):
    if k.startswith('req:'):   # requests of a type that a peer answered
        return sum(r['by_type'].get(k[4:], {}).get('msgs_recv', 0) for r in d['ranks'])
    return sum(r[k] for r in d['ranks'])
print(' '.join(str(one(k)) for k in sys.argv[2:]))
PY
}

echo "| job | n | PAGE+DIFF messages, off | on | all messages, off | on | ratio | pages read one-sided | diffs read one-sided |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
status=0
for j in "${JOBS[@]}"; do
  name=${j%%|*} cmd=${j#*|}
  declare -A got=()
  for os in 0 1; do
    # shellcheck disable=SC2086
    if ! (cd "$BUILD" && DSM_VERBS_LIB=$LIB DSM_ONESIDED=$os DSM_STATS="json:$T/s.json" \
          "$DSMRUN" -n "$PROCS" --transport verbs ${DSMRUN_ARGS:-} $cmd) >"$T/out" 2>&1 ||
       ! grep -Eq "VERIFIED|OK|bit for bit" "$T/out"; then
      echo "onesided.sh: $name with DSM_ONESIDED=$os failed:" >&2
      tail -5 "$T/out" >&2
      status=1
      continue 2
    fi
    got[$os]=$(count "$T/s.json" req:PAGE req:DIFF msgs_sent pages_fetched os_pages diffs_applied os_diffs)
  done
  read -r p0 d0 m0 _ _ _ _ <<<"${got[0]}"
  read -r p1 d1 m1 pf op da od <<<"${got[1]}"
  awk -v n="$name" -v np="$PROCS" -v a=$((p0 + d0)) -v b=$((p1 + d1)) -v m0="$m0" -v m1="$m1" \
      -v pf="$pf" -v op="$op" -v da="$da" -v od="$od" 'BEGIN {
    printf "| %s | %d | %d | %d | %d | %d | %.2f | %d of %d (%.0f%%) | %d of %d (%.0f%%) |\n",
      n, np, a, b, m0, m1, m1 ? m0 / m1 : 0, op, pf, pf ? 100 * op / pf : 0,
      od, da, da ? 100 * od / da : 0 }'
done
exit $status
