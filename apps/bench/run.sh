#!/bin/bash
# run.sh - the application benchmark: every version of every app at one
# size, on loopback or across network namespaces with a shaped network.
#
#   apps/bench/run.sh [--size small|bench] [--net loopback|shaped]
#                     [--delay 100us] [--rate 100mbit] [--procs "1 2 4 8"]
#                     [--apps "sweep3d qsort tsp fft3d water stencil nbody himeno nw"]
#                     [--versions "seq gomp dsm ompdsm mpi"]
#                     [--build DIR] [--out DIR] [--timeout S] [--no-verify]
#                     [--reps N]
#
# Versions: seq once; gomp (gcc -fopenmp) with OMP_NUM_THREADS=p on this
# host, the one-host reference; dsm (hand-written libdsm) and ompdsm (the
# OpenMP source through ompdsmcc) under dsmrun -n p with
# DSM_STATS=json:FILE, from which the messages and bytes sent by all ranks
# are summed (the whole job: setup and rank 0's final check included);
# mpi under mpirun -np p (loopback only, see below).
#
# --net shaped puts every DSM rank in its own network namespace ("a
# workstation"), each joined by a veth pair to one bridge. The namespace
# end of each veth gets `netem delay D rate R` (a host's NIC: every packet
# is delayed once, on the way out) and the bridge end `netem rate R` (the
# switch port towards the host: bandwidth is limited in both directions).
# The ranks are started with dsmrun --hostfile F --launcher 'ip netns exec
# {host}'. MPI is skipped there: Open MPI's launcher would need an rsh agent
# wrapping ip netns exec and its out-of-band wiring across the namespaces,
# which this script does not set up.
#
# --reps N runs the whole plan N times, one round after another (so that
# the runs of one cell are minutes apart, not back to back: this host's
# speed drifts), and reports the median time of each cell; the CSV's last
# column lists every round's time. Speedups are medians over medians.
#
# Output (in --out, default ./results): bench.csv, bench.md, speedup_<app>.png
# and logs/ with every run's output. Each run must print VERIFIED (unless
# --no-verify); a failed or timed-out run is recorded with its status and
# no time. Needs root for --net shaped. Namespaces are removed on exit.
set -u

SIZE=small NET=loopback DELAY=100us RATE=100mbit
PROCS="1 2 4 8"
APPS="sweep3d qsort tsp fft3d water stencil nbody himeno nw"
VERSIONS="seq gomp dsm ompdsm mpi"
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD="$ROOT/build" OUT="$PWD/results" TMO="" VERIFY=1 REPS=1

usage() { sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --size) SIZE=$2; shift 2 ;;
    --net) NET=$2; shift 2 ;;
    --delay) DELAY=$2; shift 2 ;;
    --rate) RATE=$2; shift 2 ;;
    --procs) PROCS=$2; shift 2 ;;
    --apps) APPS=$2; shift 2 ;;
    --versions) VERSIONS=$2; shift 2 ;;
    --build) BUILD=$(cd "$2" && pwd) || exit 2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --timeout) TMO=$2; shift 2 ;;
    --no-verify) VERIFY=0; shift ;;
    --reps) REPS=$2; shift 2 ;;
    -h|--help) usage ;;
    *) echo "run.sh: unknown option $1" >&2; usage ;;
  esac
done
case "$SIZE" in small|bench) ;; *) echo "run.sh: --size small|bench" >&2; exit 2 ;; esac
case "$REPS" in ''|*[!0-9]*|0) echo "run.sh: --reps takes a count of 1 or more" >&2; exit 2 ;; esac
case "$NET" in loopback|shaped) ;; *) echo "run.sh: --net loopback|shaped" >&2; exit 2 ;; esac
[ -n "$TMO" ] || { [ "$SIZE" = small ] && TMO=180 || TMO=1800; }

DSMRUN="$BUILD/tools/dsmrun"
BIN="$BUILD/apps"
[ -x "$DSMRUN" ] || { echo "run.sh: no $DSMRUN; build first (meson/ninja) or pass --build" >&2; exit 2; }
mkdir -p "$OUT/logs" || exit 2
OUT=$(cd "$OUT" && pwd)
CSV="$OUT/bench.csv" MD="$OUT/bench.md"
APPARGS=(-s "$SIZE")
[ "$VERIFY" = 1 ] || APPARGS+=(-V)
MPIRUN=$(command -v mpirun || true)
MPI_ENV=(OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_mpi_yield_when_idle=1
         OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)

# ---- the shaped network ------------------------------------------------------
ID=$$
BR="dbb$ID"
NSS=()
HOSTFILE="$OUT/logs/hostfile.$NET"
cleanup() {
  local i
  for i in "${!NSS[@]}"; do
    ip netns del "${NSS[$i]}" 2>/dev/null
    ip link del "dbv$ID$i" 2>/dev/null
  done
  ip link del "$BR" 2>/dev/null
  return 0
}
if [ "$NET" = shaped ]; then
  trap cleanup EXIT
  trap 'echo "run.sh: interrupted" >&2; exit 130' INT TERM
  [ "$(id -u)" -eq 0 ] || { echo "run.sh: --net shaped needs root" >&2; exit 2; }
  maxp=0
  for p in $PROCS; do [ "$p" -gt "$maxp" ] && maxp=$p; done
  setup_net() {
    ip link add "$BR" type bridge && ip link set "$BR" up || return 1
    : >"$HOSTFILE"
    local i
    for ((i = 0; i < maxp; i++)); do
      local ns="dbn$ID-$i" addr="10.78.0.$((11 + i))"
      NSS[$i]=$ns
      ip netns add "$ns" || return 1
      ip link add "dbv$ID$i" type veth peer name eth0 netns "$ns" || return 1
      ip link set "dbv$ID$i" master "$BR" up || return 1
      ip -n "$ns" addr add "$addr/24" dev eth0 || return 1
      ip -n "$ns" link set eth0 up || return 1
      ip -n "$ns" link set lo up || return 1
      if [ "$SHAPER" = netem ]; then
        ip netns exec "$ns" tc qdisc add dev eth0 root netem delay "$DELAY" rate "$RATE" limit 10000 || return 1
        tc qdisc add dev "dbv$ID$i" root netem rate "$RATE" limit 10000 || return 1
      else
        ip netns exec "$ns" tc qdisc add dev eth0 root tbf rate "$RATE" burst 64kb latency 50ms || return 1
        tc qdisc add dev "dbv$ID$i" root tbf rate "$RATE" burst 64kb latency 50ms || return 1
      fi
      echo "$ns slots=1 addr=$addr" >>"$HOSTFILE"
    done
  }
  # Some kernels (containers) lack sch_netem. Then only the rate can be
  # shaped (tbf) and the delay is not emulated; the report says so.
  SHAPER=netem
  probe="dbp$ID"
  if ip netns add "$probe" 2>/dev/null; then
    ip netns exec "$probe" tc qdisc add dev lo root netem delay "$DELAY" 2>/dev/null || SHAPER=tbf
    ip netns del "$probe"
  fi
  if [ "$SHAPER" = tbf ]; then
    SHAPENOTE="this kernel has no netem qdisc: rate $RATE shaped with tbf on both veth ends, delay $DELAY NOT emulated"
    echo "warning: $SHAPENOTE" >&2
  fi
  if ! setup_net; then
    echo "run.sh: cannot set up namespaces/veth/bridge/netem here" >&2
    exit 1
  fi
  DSMNET=(--hostfile "$HOSTFILE" --launcher 'ip netns exec {host}')
  if [ "$SHAPER" = netem ]; then shape="netem delay $DELAY rate $RATE"; else shape="tbf rate $RATE, no delay"; fi
  echo "network: $maxp namespaces on bridge $BR, $shape (hostfile $HOSTFILE)"
else
  DSMNET=()
fi

# ---- the plan ----------------------------------------------------------------
PLAN=()
MPINOTE=""
SHAPENOTE="${SHAPENOTE:-}"
for app in $APPS; do
  for v in $VERSIONS; do
    case "$v" in
      seq) [ -x "$BIN/${app}_seq" ] && PLAN+=("$app seq 1") ;;
      gomp|dsm|ompdsm|mpi)
        exe="$BIN/${app}_$v"
        if [ ! -x "$exe" ]; then
          echo "note: $exe not built; skipping $app $v"
          continue
        fi
        if [ "$v" = mpi ] && [ "$NET" = shaped ]; then
          MPINOTE="mpi skipped: --net shaped (mpirun is not pointed at the namespaces)"
          continue
        elif [ "$v" = mpi ] && [ -z "$MPIRUN" ]; then
          MPINOTE="mpi skipped: no mpirun"
          continue
        fi
        for p in $PROCS; do PLAN+=("$app $v $p"); done ;;
      *) echo "run.sh: unknown version $v" >&2; exit 2 ;;
    esac
  done
done
TOTAL=${#PLAN[@]}
[ -z "$MPINOTE" ] || echo "note: $MPINOTE"
echo "app,version,procs,net,time_s,speedup_vs_seq,msgs,bytes,status,times" >"$CSV"

# Sum of every rank's top-level msgs_sent / bytes_sent in a DSM_STATS json.
json_totals() {
  grep -oE '"msgs_sent": [0-9]+, "bytes_sent": [0-9]+, "by_type"' "$1" 2>/dev/null |
    awk '{m += $2; gsub(",", "", $4); b += $4} END {if (NR) printf "%.0f %.0f", m, b}'
}

median() { tr ' ' '\n' | awk 'NF' | sort -g | awk '{v[NR] = $1} END {if (NR) printf "%s", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }

# Per cell ("app v p"): the times of its rounds, its first failure, and the
# messages and bytes of its last run that worked.
declare -A TIMES FAIL MSGS BYTES
k=0
for ((round = 1; round <= REPS; round++)); do
  for item in "${PLAN[@]}"; do
    k=$((k + 1))
    read -r app v p <<<"$item"
    tag="$app-$v-$p-$NET"
    [ "$REPS" = 1 ] || tag="$tag.r$round"
    log="$OUT/logs/$tag.log"
    stats="$OUT/logs/$tag.json"
    rm -f "$stats"
    printf '[%d/%d] %s %s n=%s ... ' "$k" "$((TOTAL * REPS))" "$app" "$v" "$p"
    case "$v" in
      seq)  cmd=(timeout "$TMO" "$BIN/${app}_seq" "${APPARGS[@]}") ;;
      gomp) cmd=(env OMP_NUM_THREADS="$p" OMP_WAIT_POLICY=passive timeout "$TMO"
                 "$BIN/${app}_gomp" "${APPARGS[@]}") ;;
      dsm|ompdsm)
            cmd=(env DSM_STATS="json:$stats" timeout $((TMO + 10)) "$DSMRUN" -n "$p"
                 "${DSMNET[@]}" --max-time "$TMO" "$BIN/${app}_$v" "${APPARGS[@]}") ;;
      mpi)  cmd=(env "${MPI_ENV[@]}" timeout "$TMO" "$MPIRUN" --oversubscribe --allow-run-as-root
                 -np "$p" "$BIN/${app}_mpi" "${APPARGS[@]}") ;;
    esac
    "${cmd[@]}" >"$log" 2>&1 </dev/null
    rc=$?
    t=$(sed -n 's/^APP=.* time=\([0-9.eE+-]*\) s$/\1/p' "$log" | head -1)
    status=ok
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then status=timeout
    elif [ $rc -ne 0 ]; then status="exit$rc"
    elif [ -z "$t" ]; then status=noresult
    elif [ "$VERIFY" = 1 ] && ! grep -q '^VERIFIED ' "$log"; then status=unverified
    fi
    if [ "$status" != ok ]; then
      [ -n "${FAIL[$item]:-}" ] || FAIL[$item]=$status
      printf '%s (see %s)\n' "$status" "$log"
      continue
    fi
    TIMES[$item]="${TIMES[$item]:-} $t"
    msgs="" bytes=""
    if [ "$v" = dsm ] || [ "$v" = ompdsm ]; then
      read -r msgs bytes <<<"$(json_totals "$stats")"
      MSGS[$item]=$msgs BYTES[$item]=$bytes
    fi
    printf '%.2f s%s\n' "$t" "${msgs:+, $msgs msgs, $bytes bytes}"
  done
done

# One row per cell: the median of its rounds (a cell with a failed round
# reports the failure and no time).
declare -A MED SEQT
for item in "${PLAN[@]}"; do
  read -r app v p <<<"$item"
  MED[$item]=""
  [ -n "${FAIL[$item]:-}" ] || MED[$item]=$(median <<<"${TIMES[$item]:-}")
  [ "$v" = seq ] && [ -n "${MED[$item]}" ] && SEQT[$app]=${MED[$item]}
done
for item in "${PLAN[@]}"; do
  read -r app v p <<<"$item"
  status=${FAIL[$item]:-ok}
  t=${MED[$item]}
  sp=""
  if [ -n "$t" ] && [ -n "${SEQT[$app]:-}" ]; then
    sp=$(awk -v s="${SEQT[$app]}" -v t="$t" 'BEGIN {if (t > 0) printf "%.2f", s / t}')
  fi
  times=$(echo ${TIMES[$item]:-} | tr ' ' ';')
  echo "$app,$v,$p,$NET,$t,$sp,${MSGS[$item]:-},${BYTES[$item]:-},$status,$times" >>"$CSV"
done

# ---- the report --------------------------------------------------------------
NOTE="$MPINOTE${MPINOTE:+${SHAPENOTE:+; }}$SHAPENOTE" "$HERE/report.sh" "$CSV" "$MD" "$OUT" "$SIZE" "$NET" "${shape:-}"
echo "wrote $CSV, $MD and plots in $OUT"
