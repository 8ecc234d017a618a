#!/bin/bash
# npb.sh - the NAS Parallel Benchmarks (OpenMP C, NPB 3.0) as a workload
# nobody on this project wrote: each of the eight built three ways from the
# same unmodified source (gcc -O2 sequential, gcc -O2 -fopenmp, ompdsmcc
# -O2), run at one class, with NPB's own verification and timing.
#
#   apps/bench/npb.sh [--class S|W|A|B] [--procs "2"] [--threads T]
#                     [--benchmarks "ep is cg mg ft bt sp lu"]
#                     [--versions "seq gomp dsm"] [--gomp-threads N]
#                     [--npb DIR] [--build DIR] [--out DIR] [--timeout S]
#                     [--reps N] [--verify-only]
#
# The sources are read from --npb (default: ../shared/npb3.0-omp-c beside
# the repository; a user's clone has none, and the script then says so and
# exits 0). They are copied into --out to be built; nothing of them is
# kept in the repository. NPB's "Time in seconds" is its own timed section
# (for IS, whose timer is broken here, the wall-clock time); the speedup of a version is the sequential time over
# its time. The DSM runs go under dsmrun -n P [--threads T] with
# DSM_STATS=json:FILE; the table gives the messages and bytes all ranks
# sent (the whole run: set-up and verification included). The gomp
# version runs with OMP_NUM_THREADS = P x T unless --gomp-threads says.
#
# Every run must exit 0 and print NPB's "Verification = SUCCESSFUL": the
# script exits 1 if one does not (after printing the table). --verify-only
# runs the DSM version alone (the CI test, at class S).
# --reps N runs the plan N times, round after round, and reports medians.
#
# Output: a table on stdout, and in --out (default ./npb-results) npb.csv,
# npb.md and logs/ with every run's output.
set -u

CLASS=S PROCS=2 THREADS=1 GOMP_THREADS= REPS=1 TMO=
BENCHES="ep is cg mg ft bt sp lu"
VERSIONS="seq gomp dsm"
VERIFY_ONLY=0
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
NPB="$root/../shared/npb3.0-omp-c"
BUILD="$root/build"
OUT=./npb-results

usage() { sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }
while (($#)); do
  case "$1" in
    --class) CLASS=$2; shift 2 ;;
    --procs) PROCS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --gomp-threads) GOMP_THREADS=$2; shift 2 ;;
    --benchmarks) BENCHES=$2; shift 2 ;;
    --versions) VERSIONS=$2; shift 2 ;;
    --npb) NPB=$2; shift 2 ;;
    --build) BUILD=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    --timeout) TMO=$2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --verify-only) VERIFY_ONLY=1; shift ;;
    -h|--help) usage 0 ;;
    *) echo "npb.sh: unknown option $1" >&2; usage ;;
  esac
done
case "$CLASS" in S|W|A|B) ;; *) echo "npb.sh: --class S, W, A or B" >&2; exit 2 ;; esac
for x in $PROCS $THREADS $REPS ${GOMP_THREADS:-1}; do
  case "$x" in ''|*[!0-9]*|0) echo "npb.sh: counts are whole numbers of 1 or more" >&2; exit 2 ;; esac
done
for b in $BENCHES; do
  case "$b" in ep|is|cg|mg|ft|bt|sp|lu) ;; *) echo "npb.sh: unknown benchmark $b" >&2; exit 2 ;; esac
done
for v in $VERSIONS; do
  case "$v" in seq|gomp|dsm) ;; *) echo "npb.sh: unknown version $v (seq, gomp, dsm)" >&2; exit 2 ;; esac
done
[ "$VERIFY_ONLY" = 1 ] && VERSIONS=dsm
if [ ! -f "$NPB/sys/setparams.c" ]; then
  echo "npb.sh: no NAS sources at $NPB (they are not part of ompdsm); skipped"
  exit "${NPB_SKIP_STATUS:-0}"   # the meson test sets 77: skipped
fi
[ -n "$TMO" ] || case "$CLASS" in S) TMO=300 ;; W) TMO=900 ;; *) TMO=3600 ;; esac
DSMRUN="$BUILD/tools/dsmrun" OMPDSMCC="$BUILD/compiler/ompdsmcc"
for x in "$DSMRUN" "$OMPDSMCC"; do
  [ -x "$x" ] || { echo "npb.sh: no $x; build first (meson/ninja) or pass --build" >&2; exit 2; }
done
mkdir -p "$OUT/logs" "$OUT/bin" || exit 2
OUT=$(cd "$OUT" && pwd)
NPB=$(cd "$NPB" && pwd)

# ---- build ------------------------------------------------------------------
# NPB's own Makefiles need its config files; each benchmark is two cc
# lines, so they are run here (PROVENANCE.md in the NAS directory).
SRC="$OUT/src"
rm -rf "$SRC" && mkdir -p "$SRC" && cp -r "$NPB/." "$SRC/" || exit 2
cc -O2 -w -o "$SRC/sys/setparams" "$SRC/sys/setparams.c" || exit 2
build() {   # build BENCH VERSION -> $OUT/bin/BENCH.CLASS.VERSION
  local b=$1 v=$2 B cc
  B=$(echo "$b" | tr a-z A-Z)
  case "$v" in
    seq) cc=(gcc -O2 -w) ;;
    gomp) cc=(gcc -O2 -w -fopenmp) ;;
    dsm) cc=("$OMPDSMCC" -O2 -w) ;;
  esac
  local objs=("$b.c" ../common/c_print_results.c ../common/c_timers.c ../common/wtime.c)
  [ "$b" = is ] || objs+=(../common/c_randdp.c)
  (cd "$SRC/$B" && "$SRC/sys/setparams" "$b" "$CLASS" >/dev/null 2>&1 &&
   "${cc[@]}" -I../common -o "$OUT/bin/$b.$CLASS.$v" "${objs[@]}" -lm) \
    >"$OUT/logs/build-$b-$v.log" 2>&1
}
for b in $BENCHES; do
  for v in $VERSIONS; do
    if ! build "$b" "$v"; then
      echo "npb.sh: building $b ($v) failed; see $OUT/logs/build-$b-$v.log" >&2
      tail -5 "$OUT/logs/build-$b-$v.log" >&2
      exit 1
    fi
  done
done

# ---- run ----------------------------------------------------------------------
json_totals() {   # the msgs_sent and bytes_sent of every rank, summed
  grep -oE '"msgs_sent": [0-9]+, "bytes_sent": [0-9]+, "by_type"' "$1" 2>/dev/null |
    awk '{m += $2; gsub(",", "", $4); b += $4} END {if (NR) printf "%.0f %.0f", m, b}'
}
median() { tr ' ' '\n' | awk 'NF' | sort -g | awk '{v[NR] = $1} END {if (NR) printf "%s", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2)}'; }

PLAN=()
for b in $BENCHES; do
  for v in $VERSIONS; do
    case "$v" in
      seq) PLAN+=("$b seq 1") ;;
      gomp) PLAN+=("$b gomp 1") ;;
      dsm) for p in $PROCS; do PLAN+=("$b dsm $p"); done ;;
    esac
  done
done
GT=${GOMP_THREADS:-}
declare -A TIMES FAIL MSGS BYTES
bad=0
for ((round = 1; round <= REPS; round++)); do
  for item in "${PLAN[@]}"; do
    read -r b v p <<<"$item"
    tag="$b-$CLASS-$v"
    [ "$v" = dsm ] && tag="$tag-n$p-t$THREADS"
    [ "$REPS" = 1 ] || tag="$tag.r$round"
    log="$OUT/logs/$tag.log" stats="$OUT/logs/$tag.json"
    rm -f "$stats"
    exe="$OUT/bin/$b.$CLASS.$v"
    case "$v" in
      seq) cmd=("$exe") ;;
      gomp) cmd=(env OMP_NUM_THREADS="${GT:-$((${PROCS%% *} * THREADS))}" "$exe") ;;
      dsm) cmd=(env DSM_STATS="json:$stats" "$DSMRUN" -n "$p" --threads "$THREADS"
                --timeout "$TMO" "$exe") ;;
    esac
    echo "npb.sh: $b class $CLASS, $v${p:+ n=$p}, round $round" >&2
    t0=$(date +%s.%N)
    (cd "$OUT" && timeout $((TMO + 30)) "${cmd[@]}") >"$log" 2>&1
    rc=$?
    wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.2f", b - a}')
    key="$b $v $p"
    # NPB's own timed section; IS's is wall-clock time: its timer prints
    # nonsense on this platform (-2029641152.00 s at class S).
    t=$(sed -n 's/^ *Time in seconds *= *\([0-9.eE+-]*\).*/\1/p' "$log" | head -1)
    [ "$b" = is ] && t=$wall
    if [ $rc -ne 0 ] || ! grep -q 'Verification *= *SUCCESSFUL' "$log"; then
      why="exit $rc"
      [ $rc -eq 124 ] && why="timed out"
      [ $rc -eq 0 ] && why="not verified"
      [ -n "${FAIL[$key]:-}" ] || FAIL[$key]=$why
      echo "npb.sh: $b ($v${p:+, n=$p}) failed: $why; log $log" >&2
      bad=1
      continue
    fi
    TIMES[$key]="${TIMES[$key]:-} $t"
    if [ "$v" = dsm ]; then
      read -r m by <<<"$(json_totals "$stats")"
      MSGS[$key]=$m BYTES[$key]=$by
    fi
  done
done

# ---- report -------------------------------------------------------------------
CSV="$OUT/npb.csv" MD="$OUT/npb.md"
echo "benchmark,class,version,procs,threads,time_s,speedup_vs_seq,msgs,bytes,status,times" >"$CSV"
hdr="| benchmark | seq s | gomp s | gomp speedup |"
sep="|---|---:|---:|---:|"
for p in $PROCS; do
  hdr="$hdr dsm n=$p s | dsm n=$p speedup | msgs | MB |"
  sep="$sep---:|---:|---:|---:|"
done
{
  echo "NPB class $CLASS; dsm: dsmrun -n P --threads $THREADS; gomp: OMP_NUM_THREADS=${GT:-$((${PROCS%% *} * THREADS))}; medians of $REPS round(s); $(date -u +%F)"
  echo
  echo "$hdr"
  echo "$sep"
} >"$MD"
geo_n=0 geo_log=0
declare -A GEO GEON
for b in $BENCHES; do
  seq=$(echo "${TIMES[$b seq 1]:-}" | median)
  row="| $b | ${seq:--} |"
  g=$(echo "${TIMES[$b gomp 1]:-}" | median)
  if [ -n "$g" ] && [ -n "$seq" ]; then
    row="$row $g | $(awk -v a="$seq" -v b="$g" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}') |"
  else
    row="$row ${g:-${FAIL[$b gomp 1]:--}} | - |"
  fi
  for v in seq gomp; do
    k="$b $v 1"
    [ -n "${TIMES[$k]:-}${FAIL[$k]:-}" ] || continue
    echo "$b,$CLASS,$v,1,1,$(echo "${TIMES[$k]:-}" | median),,,,${FAIL[$k]:-ok},${TIMES[$k]:-}" >>"$CSV"
  done
  for p in $PROCS; do
    k="$b dsm $p"
    t=$(echo "${TIMES[$k]:-}" | median)
    if [ -n "$t" ]; then
      sp=-
      if [ -n "$seq" ]; then
        sp=$(awk -v a="$seq" -v b="$t" 'BEGIN {printf "%.2f", (b > 0 ? a / b : 0)}')
        GEO[$p]=$(awk -v s="${GEO[$p]:-0}" -v x="$sp" 'BEGIN {printf "%.6f", s + (x > 0 ? log(x) : 0)}')
        GEON[$p]=$(( ${GEON[$p]:-0} + 1 ))
      fi
      row="$row $t | $sp | ${MSGS[$k]:-} | $(awk -v b="${BYTES[$k]:-0}" 'BEGIN {printf "%.1f", b / 1e6}') |"
      echo "$b,$CLASS,dsm,$p,$THREADS,$t,$sp,${MSGS[$k]:-},${BYTES[$k]:-},ok,${TIMES[$k]}" >>"$CSV"
    else
      row="$row ${FAIL[$k]:--} | - | - | - |"
      [ -z "${FAIL[$k]:-}" ] || echo "$b,$CLASS,dsm,$p,$THREADS,,,,,${FAIL[$k]}," >>"$CSV"
    fi
  done
  echo "$row" >>"$MD"
done
{
  echo
  for p in $PROCS; do
    [ -n "${GEON[$p]:-}" ] || continue
    echo "geometric mean of the dsm n=$p speedups over sequential: $(awk -v s="${GEO[$p]}" -v n="${GEON[$p]}" 'BEGIN {printf "%.2f", exp(s / n)}') (${GEON[$p]} benchmarks)"
  done
} >>"$MD"
cat "$MD"
echo "npb.sh: table in $MD, per run in $CSV, logs in $OUT/logs" >&2
exit $bad
