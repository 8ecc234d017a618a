#!/usr/bin/env bash
# Several OpenMP threads per process (issue 18), side by side in one run.
#
#   apps/bench/threads.sh [--build DIR] [--size small|bench] [--reps R]
#                         [--apps "sweep3d qsort tsp fft3d water stencil nbody himeno nw"]
#                         [--part host|ns|both] [--out DIR]
#
# host: on this machine, each app as gcc -fopenmp with 2 threads, as ompdsm
#   with one process of 2 threads (dsmrun -n 1 --threads 2: the DSM adds
#   nothing there), and as ompdsm with 2 processes of one thread, R times
#   each, interleaved (this VM's speed drifts over minutes); the median of
#   each and the ratio of ompdsm -n 1 --threads 2 to gcc.
# ns: every process in a network namespace of its own (veth pairs on a
#   bridge: separate network stacks and real addresses, as separate hosts
#   would have), 4 threads as 2 processes of 2 threads and as 4 processes
#   of 1; the bytes and messages the DSM sent (DSM_STATS) and the ratio.
#   Needs root.
# Every run must verify its answer; a run that does not is reported as such.
# Output: a table on stdout and threads.csv in --out (default ./results-threads).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD="$HERE/../../build"
SIZE=bench
REPS=3
APPS="sweep3d qsort tsp fft3d water stencil nbody himeno nw"
PART=both
OUT=./results-threads
usage() { sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD=$2; shift 2 ;;
    --size) SIZE=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --apps) APPS=$2; shift 2 ;;
    --part) PART=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    -h|--help) usage ;;
    *) echo "threads.sh: unknown option $1" >&2; usage 2 >&2 ;;
  esac
done
case "$PART" in host|ns|both) ;; *) echo "threads.sh: --part host|ns|both" >&2; exit 2 ;; esac
BUILD=$(cd "$BUILD" && pwd) || exit 2
DSMRUN="$BUILD/tools/dsmrun" BIN="$BUILD/apps"
[ -x "$DSMRUN" ] || { echo "threads.sh: no $DSMRUN: build first" >&2; exit 2; }
mkdir -p "$OUT/logs" && OUT=$(cd "$OUT" && pwd) || exit 2
CSV="$OUT/threads.csv"
echo "part,app,config,rep,time_s,msgs,bytes,status" >"$CSV"

# run LOG CMD...: the app's reported time, or a status word.
run() {
  local log=$1; shift
  "$@" >"$log" 2>&1 </dev/null
  local rc=$? t
  t=$(sed -n 's/^APP=.* time=\([0-9.eE+-]*\) s$/\1/p' "$log" | head -1)
  if [ $rc -ne 0 ]; then echo "exit$rc"
  elif ! grep -q '^VERIFIED ' "$log"; then echo unverified
  elif [ -z "$t" ]; then echo noresult
  else echo "$t"; fi
}
json_totals() {
  grep -oE '"msgs_sent": [0-9]+, "bytes_sent": [0-9]+, "by_type"' "$1" 2>/dev/null |
    awk '{m += $2; gsub(",", "", $4); b += $4} END {if (NR) printf "%.0f %.0f", m, b}'
}
median() { tr ' ' '\n' | grep -E '^[0-9.]+$' | sort -g | awk '{a[NR] = $1} END {if (NR) print a[int((NR + 1) / 2)]}'; }

if [ "$PART" != ns ]; then
  echo "== this host: gcc -fopenmp 2 threads, ompdsm 1 process x 2 threads, ompdsm 2 processes x 1 ($SIZE, $REPS reps, medians)"
  printf '%-8s %10s %10s %10s %12s %12s\n' app gomp-t2 n1-t2 n2-t1 n1t2/gomp n2t1/gomp
  for app in $APPS; do
    declare -A T=()
    for ((r = 1; r <= REPS; r++)); do
      for cfg in gomp n1t2 n2t1; do
        log="$OUT/logs/host-$app-$cfg-$r.log"
        case $cfg in
          gomp) t=$(run "$log" env OMP_NUM_THREADS=2 OMP_WAIT_POLICY=passive "$BIN/${app}_gomp" -s "$SIZE") ;;
          n1t2) t=$(run "$log" "$DSMRUN" -n 1 --threads 2 "$BIN/${app}_ompdsm" -s "$SIZE") ;;
          n2t1) t=$(run "$log" "$DSMRUN" -n 2 "$BIN/${app}_ompdsm" -s "$SIZE") ;;
        esac
        T[$cfg]="${T[$cfg]:-} $t"
        case $t in [0-9]*) st=ok ;; *) st=$t; t="" ;; esac
        echo "host,$app,$cfg,$r,$t,,,$st" >>"$CSV"
      done
    done
    g=$(echo ${T[gomp]} | median) a=$(echo ${T[n1t2]} | median) b=$(echo ${T[n2t1]} | median)
    ra=$(awk -v x="$a" -v g="$g" 'BEGIN {if (x > 0 && g > 0) printf "%.2f", x / g; else print "-"}')
    rb=$(awk -v x="$b" -v g="$g" 'BEGIN {if (x > 0 && g > 0) printf "%.2f", x / g; else print "-"}')
    printf '%-8s %10s %10s %10s %12s %12s\n' "$app" "${g:--}" "${a:--}" "${b:--}" "$ra" "$rb"
    for cfg in gomp n1t2 n2t1; do
      case "${T[$cfg]}" in *[a-z]*) echo "   $app $cfg: some runs failed:${T[$cfg]} (logs in $OUT/logs)" ;; esac
    done
    unset T
  done
fi

if [ "$PART" != host ]; then
  [ "$(id -u)" -eq 0 ] || { echo "threads.sh: --part ns needs root" >&2; exit 2; }
  ID=$$ BR="dtb$ID" NSS=()
  cleanup() {
    local i
    for i in "${!NSS[@]}"; do ip netns del "${NSS[$i]}" 2>/dev/null; ip link del "dtv$ID$i" 2>/dev/null; done
    ip link del "$BR" 2>/dev/null
    return 0
  }
  trap cleanup EXIT
  trap 'echo "threads.sh: interrupted" >&2; exit 130' INT TERM
  ip link add "$BR" type bridge && ip link set "$BR" up || { echo "threads.sh: no bridge" >&2; exit 1; }
  for i in 0 1 2 3; do
    ns="dtn$ID-$i" addr="10.79.0.$((11 + i))"
    NSS[$i]=$ns
    { ip netns add "$ns" && ip link add "dtv$ID$i" type veth peer name eth0 netns "$ns" &&
      ip link set "dtv$ID$i" master "$BR" up && ip -n "$ns" addr add "$addr/24" dev eth0 &&
      ip -n "$ns" link set eth0 up && ip -n "$ns" link set lo up; } ||
      { echo "threads.sh: cannot set up namespace $ns" >&2; exit 1; }
    echo "$ns slots=1 addr=$addr" >>"$OUT/logs/hosts4"
  done
  head -2 "$OUT/logs/hosts4" >"$OUT/logs/hosts2"
  echo "== 4 threads over network namespaces: 2 processes x 2 threads vs 4 processes x 1 ($SIZE)"
  printf '%-8s %8s %12s %8s %12s %10s %10s\n' app msgs-2x2 bytes-2x2 msgs-4x1 bytes-4x1 bytes-ratio time-ratio
  for app in $APPS; do
    declare -A M=() B=() TT=()
    for cfg in 2x2 4x1; do
      np=${cfg%x*} nt=${cfg#*x}
      stats="$OUT/logs/ns-$app-$cfg.json" log="$OUT/logs/ns-$app-$cfg.log"
      rm -f "$stats"
      t=$(run "$log" env DSM_STATS="json:$stats" "$DSMRUN" -n "$np" --threads "$nt" \
            --hostfile "$OUT/logs/hosts$np" --launcher 'ip netns exec {host}' --max-time 1200 \
            "$BIN/${app}_ompdsm" -s "$SIZE")
      read -r m b <<<"$(json_totals "$stats")"
      case $t in [0-9]*) st=ok ;; *) st=$t; t="" ;; esac
      echo "ns,$app,$cfg,1,$t,$m,$b,$st" >>"$CSV"
      M[$cfg]=${m:-?} B[$cfg]=${b:-?} TT[$cfg]=${t:-$st}
    done
    br=$(awk -v a="${B[2x2]}" -v b="${B[4x1]}" 'BEGIN {if (b > 0) printf "%.2f", a / b; else print "-"}')
    tr=$(awk -v a="${TT[2x2]}" -v b="${TT[4x1]}" 'BEGIN {if (a > 0 && b > 0) printf "%.2f", a / b; else print "-"}')
    printf '%-8s %8s %12s %8s %12s %10s %10s\n' "$app" "${M[2x2]}" "${B[2x2]}" "${M[4x1]}" "${B[4x1]}" "$br" "$tr"
    unset M B TT
  done
fi
echo "wrote $CSV"
