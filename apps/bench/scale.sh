#!/bin/bash
# scale.sh - how the traffic of each app grows with the number of processes,
# for the hand-written DSM, the OpenMP source through ompdsmcc and MPI
# (issue 53), and how long the apps take on the test networks.
#
#   apps/bench/scale.sh [--size small|bench] [--procs "2 4 8 16"]
#                       [--apps "sweep3d qsort tsp fft3d water stencil nbody himeno nw"]
#                       [--versions "dsm ompdsm mpi"]
#                       [--profiles "loopback 10g 1g"] [--time-procs "2 4"]
#                       [--reps R] [--build DIR] [--out DIR] [--timeout S]
#                       [--no-plot] [--check BOUNDS]
#
# Counts: every app and version at every n of --procs on this host's
# loopback. dsm and ompdsm run under dsmrun with DSM_STATS=json:F (every
# rank's messages and bytes sent, payload bytes, the whole run: start-up
# and rank 0's check of the answer included); mpi under mpirun with
# `--mca pml_monitoring_enable 1` (every point-to-point message at the PML,
# the ones collectives make included; payload bytes). Messages and bytes do
# not depend on the machine, so n=16 on 2 cores counts as well as 16
# workstations would (times at n > 4 on 2 cores mean nothing and are not
# shown).
#
# Times: every app and version at each n of --time-procs (at most 4) under
# each profile of --profiles (apps/bench/net.sh: loopback, or every rank in
# a namespace of its own on links of 1g = 1 Gbit/s + 50 us one way, 10g =
# 10 Gbit/s + 10 us, ...). MPI runs in the same namespaces over TCP. Under a
# shaped profile, the relay's statistics for each run (how far from their
# due time frames left) are kept beside it; a run where they are far off
# says so in the report. --reps R runs the timed plan R times over, one
# round after another (a cell's runs are minutes apart: this host's speed
# drifts, and other work shares its 2 cores), and reports each cell's
# median; counts come from the first round. Shaped profiles need root; without it, or
# without ip/tc/netrelay, they are skipped with a note. Without mpirun
# the mpi version is skipped; an app not built is skipped.
#
# Report (stdout and OUT/scale.md): per app, messages and bytes per process
# per step (a step = the ITERS of the app's result line: sweep3d's source
# iterations, fft3d's, water's and nbody's time steps, stencil's sweeps,
# himeno's Jacobi iterations; qsort, tsp and nw are one step), the
# ompdsm/MPI and dsm/MPI ratios, the largest process's share and rank 0's
# (the manager's) as multiples of the mean; a summary of ratios per app and
# n with geometric means; the times.
# OUT/scale.csv has one line per run, OUT/bytes_<app>.png plots bytes per
# process per step against n (gnuplot; --no-plot: none), OUT/logs/ every
# run's output and statistics.
#
# --check BOUNDS: after the report, compare with bounds, one per line
#   APP VERSION N METRIC MAX     (METRIC: msgs, bytes per process per step,
#                                 maxshare, rank0share as multiples of the mean)
# and exit 1 if a run failed or a bound is exceeded (tests/scale uses it).
set -u

SIZE=small PROCS="2 4 8 16" TIMEPROCS="2 4"
APPS="sweep3d qsort tsp fft3d water stencil nbody himeno nw"
VERSIONS="dsm ompdsm mpi"
PROFILES="loopback 10g 1g"
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD="$ROOT/build" OUT="$PWD/scale-results" TMO="" PLOT=1 CHECK="" REPS=1

usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "${1:-2}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --size) SIZE=$2; shift 2 ;;
    --procs) PROCS=$2; shift 2 ;;
    --time-procs) TIMEPROCS=$2; shift 2 ;;
    --apps) APPS=$2; shift 2 ;;
    --versions) VERSIONS=$2; shift 2 ;;
    --profiles) PROFILES=$2; shift 2 ;;
    --build) BUILD=$(cd "$2" && pwd) || exit 2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --timeout) TMO=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --no-plot) PLOT=0; shift ;;
    --check) CHECK=$(realpath "$2") || exit 2; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "scale.sh: unknown option $1" >&2; usage ;;
  esac
done
case "$SIZE" in small|bench) ;; *) echo "scale.sh: --size small|bench" >&2; exit 2 ;; esac
for p in $PROCS $TIMEPROCS; do
  case "$p" in ''|*[!0-9]*|0) echo "scale.sh: process counts are numbers of 1 or more" >&2; exit 2 ;; esac
done
case "$REPS" in ''|*[!0-9]*|0) echo "scale.sh: --reps takes a count of 1 or more" >&2; exit 2 ;; esac
for p in $TIMEPROCS; do
  [ "$p" -le 4 ] || { echo "scale.sh: --time-procs at most 4: 2 cores cannot time more" >&2; exit 2; }
done
for v in $VERSIONS; do
  case "$v" in dsm|ompdsm|mpi) ;; *) echo "scale.sh: unknown version $v (dsm ompdsm mpi)" >&2; exit 2 ;; esac
done
[ -n "$TMO" ] || { [ "$SIZE" = small ] && TMO=300 || TMO=3600; }

DSMRUN="$BUILD/tools/dsmrun"
BIN="$BUILD/apps"
NET="$HERE/net.sh"
[ -x "$DSMRUN" ] || { echo "scale.sh: no $DSMRUN; build first (meson/ninja) or pass --build" >&2; exit 2; }
command -v python3 >/dev/null || { echo "scale.sh: needs python3 for the report" >&2; exit 2; }
mkdir -p "$OUT/logs" || exit 2
OUT=$(cd "$OUT" && pwd)
CSV="$OUT/scale.csv"
NOTES=()
note() { NOTES+=("$*"); echo "note: $*"; }

MPIRUN=$(command -v mpirun || true)
MPI_ENV=(OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_mpi_yield_when_idle=1
         OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
if [[ " $VERSIONS " == *" mpi "* ]] && [ -z "$MPIRUN" ]; then
  note "mpi skipped: no mpirun"
  VERSIONS=$(tr ' ' '\n' <<<"$VERSIONS" | grep -vx mpi | tr '\n' ' ')
fi

# Which profiles can run here.
RUNPROFILES=()
for prof in $PROFILES; do
  if [ "$prof" = loopback ]; then RUNPROFILES+=(loopback); continue; fi
  if [ "$(id -u)" -ne 0 ]; then note "profile $prof skipped: needs root (network namespaces)"; continue; fi
  if ! command -v ip >/dev/null || ! command -v tc >/dev/null; then note "profile $prof skipped: no ip/tc"; continue; fi
  if [ ! -x "$BUILD/tools/netrelay" ] || [ ! -x "$BUILD/tools/netprobe" ]; then
    note "profile $prof skipped: no $BUILD/tools/netrelay or netprobe"; continue
  fi
  RUNPROFILES+=("$prof")
done

NETDIR="$OUT/net"
cleanup() { [ -f "$NETDIR/teardown" ] && "$NET" down "$NETDIR" 2>/dev/null; return 0; }
trap cleanup EXIT
trap 'echo "scale.sh: interrupted" >&2; exit 130' INT TERM

echo "app,version,procs,profile,round,status,time_s,steps,stats,relay" >"$CSV"
NRUN=0

# run_one APP VERSION N PROFILE ROUND: one run; appends its line to the
# CSV. The network of PROFILE, when it is not loopback, is up in $NETDIR.
run_one() {
  local app=$1 v=$2 n=$3 prof=$4 round=$5
  local exe="$BIN/${app}_$v" tag="$app-$v-$n-$prof"
  [ "$round" = 1 ] || tag="$tag.r$round"
  local log="$OUT/logs/$tag.log" stats="" relay=""
  NET_DSMRUN=() NET_MPIEXEC=() NET_MPIRUN=()
  [ "$prof" = loopback ] || . "$NETDIR/env.sh"
  local rpid=""
  if [ -f "$NETDIR/relay.pid" ] && [ "$prof" != loopback ]; then
    rpid=$(cat "$NETDIR/relay.pid")
    kill -USR2 "$rpid" 2>/dev/null   # the relay's statistics of this run only
  fi
  NRUN=$((NRUN + 1))
  local rtag=""
  [ "$round" = 1 ] || rtag=" round $round"
  printf '[%d] %s %s n=%s %s%s ... ' "$NRUN" "$app" "$v" "$n" "$prof" "$rtag"
  case "$v" in
    dsm|ompdsm)
      stats="$OUT/logs/$tag.json"
      rm -f "$stats"
      env DSM_STATS="json:$stats" timeout $((TMO + 15)) "$DSMRUN" -n "$n" "${NET_DSMRUN[@]}" \
        --max-time "$TMO" "$exe" -s "$SIZE" >"$log" 2>&1 </dev/null ;;
    mpi)
      stats="$OUT/logs/$tag.mon"
      rm -f "$stats".*.prof
      env "${MPI_ENV[@]}" timeout "$TMO" "${NET_MPIEXEC[@]}" "$MPIRUN" --oversubscribe --allow-run-as-root \
        "${NET_MPIRUN[@]}" -np "$n" --mca pml_monitoring_enable 1 --mca pml_monitoring_enable_output 3 \
        --mca pml_monitoring_filename "$stats" "$exe" -s "$SIZE" >"$log" 2>&1 </dev/null ;;
  esac
  local rc=$? status=ok
  local t steps
  t=$(sed -n 's/^APP=.* time=\([0-9.eE+-]*\) s$/\1/p' "$log" | head -1)
  steps=$(sed -n 's/^APP=.* ITERS=\([0-9]*\) .*/\1/p' "$log" | head -1)
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then status=timeout
  elif [ $rc -ne 0 ]; then status="exit$rc"
  elif [ -z "$t" ]; then status=noresult
  elif ! grep -q '^VERIFIED ' "$log"; then status=unverified
  fi
  if [ -n "$rpid" ]; then
    relay="$OUT/logs/$tag.relay"
    rm -f "$NETDIR/relay.stats"
    kill -USR1 "$rpid" 2>/dev/null
    local i
    for ((i = 0; i < 20; i++)); do [ -s "$NETDIR/relay.stats" ] && break; sleep 0.05; done
    cp "$NETDIR/relay.stats" "$relay" 2>/dev/null || relay=""
  fi
  echo "$app,$v,$n,$prof,$round,$status,${t:-},${steps:-},${stats#"$OUT/"},${relay#"$OUT/"}" >>"$CSV"
  if [ "$status" = ok ]; then printf '%.2f s\n' "$t"; else printf '%s (see %s)\n' "$status" "$log"; fi
}

# The plan: which (app, version) exist.
PAIRS=()
for app in $APPS; do
  for v in $VERSIONS; do
    if [ -x "$BIN/${app}_$v" ]; then PAIRS+=("$app $v")
    else note "$BIN/${app}_$v not built; skipping $app $v"; fi
  done
done
[ ${#PAIRS[@]} -gt 0 ] || { echo "scale.sh: nothing to run" >&2; exit 2; }

# Counts (and loopback times): every n of --procs, and the timed n that
# --procs lacks when loopback is a profile.
LOOPN="$PROCS"
if [[ " ${RUNPROFILES[*]} " == *" loopback "* ]]; then
  for n in $TIMEPROCS; do [[ " $LOOPN " == *" $n "* ]] || LOOPN="$LOOPN $n"; done
fi
LOOPN=$(tr ' ' '\n' <<<"$LOOPN" | awk 'NF' | sort -n | uniq | tr '\n' ' ')
for n in $LOOPN; do
  for pair in "${PAIRS[@]}"; do
    read -r app v <<<"$pair"
    run_one "$app" "$v" "$n" loopback 1
  done
done
# The other rounds of the loopback times.
if [[ " ${RUNPROFILES[*]} " == *" loopback "* ]]; then
  for ((round = 2; round <= REPS; round++)); do
    for n in $TIMEPROCS; do
      for pair in "${PAIRS[@]}"; do
        read -r app v <<<"$pair"
        run_one "$app" "$v" "$n" loopback "$round"
      done
    done
  done
fi

# Times under each shaped profile.
maxt=0
for n in $TIMEPROCS; do [ "$n" -gt "$maxt" ] && maxt=$n; done
for prof in "${RUNPROFILES[@]}"; do
  [ "$prof" = loopback ] && continue
  echo "network: $prof, $maxt hosts"
  if ! "$NET" up "$prof" "$maxt" "$NETDIR" --build "$BUILD"; then
    note "profile $prof skipped: net.sh up failed"
    continue
  fi
  for ((round = 1; round <= REPS; round++)); do
    for n in $TIMEPROCS; do
      for pair in "${PAIRS[@]}"; do
        read -r app v <<<"$pair"
        run_one "$app" "$v" "$n" "$prof" "$round"
      done
    done
  done
  "$NET" down "$NETDIR"
done

# The report.
args=(--csv "$CSV" --out "$OUT" --size "$SIZE" --procs "$PROCS" --time-procs "$TIMEPROCS"
      --profiles "${RUNPROFILES[*]}")
[ "$PLOT" = 1 ] && command -v gnuplot >/dev/null && args+=(--plot)
[ "$PLOT" = 1 ] && ! command -v gnuplot >/dev/null && note "no gnuplot: no plots"
[ -n "$CHECK" ] && args+=(--check "$CHECK")
for n in "${NOTES[@]}"; do args+=(--note "$n"); done
python3 "$HERE/scale_report.py" "${args[@]}"
