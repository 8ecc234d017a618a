#!/bin/bash
# tasks.sh - the OpenMP task benchmarks (apps/tasks/*.c): each program
# built three ways and timed side by side.
#
#   apps/bench/tasks.sh [--build DIR] [--reps R] [--size bench|small]
#                       [--programs "nqueens_task sort_task"] [--no-ompdsm]
#                       [--timeout S] [--work DIR]
#
# Builds each program with ${CC:-gcc} -O2 (sequential: the pragmas are
# ignored), ${CC:-gcc} -O2 -fopenmp, and DIR/compiler/ompdsmcc -O2, then
# runs, in each of R repetitions (default 3), every variant once, one after
# the other, so that a drift of the machine's speed hits all variants
# alike:
#   seq          the sequential build
#   gomp2        the -fopenmp build with OMP_NUM_THREADS=2
#   ompdsm n=1   DIR/tools/dsmrun -n 1 --max-time S <the ompdsmcc build>
#   ompdsm n=2   DIR/tools/dsmrun -n 2 --max-time S <the ompdsmcc build>
#   ompdsm 1x2   DIR/tools/dsmrun -n 1 --threads 2 ... (one process, two
#                OpenMP threads: the tasks move between threads only)
# Each run must exit 0 and print "verify: OK" and "time: <s>" (the kernel's
# own time); the table gives the median over the repetitions and the
# speedup of each parallel variant over seq. --no-ompdsm skips the
# ompdsm variants (and the need for a build directory), e.g. while
# ompdsmcc does not accept the task directives yet.
#
# --size bench (default) runs each program at its built-in default size
# (about 2-4 s sequentially on the 2-core development VM); --size small is a
# quick check. Logs and binaries go to --work (default: a temporary
# directory, kept and named when something fails).
# Exit status: 0 when every run verified, 1 if any failed (the failures are
# listed), 2 on a usage or build error.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SRC="$ROOT/apps/tasks"
BUILD="$ROOT/build" REPS=3 SIZE=bench PROGRAMS="nqueens_task sort_task"
OMPDSM=1 TMO=600 WORK=""
CC=${CC:-gcc}

usage() { sed -n '2,31p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-2}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD=$(cd "$2" && pwd) || exit 2; shift 2 ;;
    --reps) REPS=$2; shift 2 ;;
    --size) SIZE=$2; shift 2 ;;
    --programs) PROGRAMS=$2; shift 2 ;;
    --no-ompdsm) OMPDSM=0; shift ;;
    --timeout) TMO=$2; shift 2 ;;
    --work) WORK=$2; shift 2 ;;
    -h|--help) usage 0 ;;
    *) echo "tasks.sh: error: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
case "$SIZE" in bench|small) ;; *) echo "tasks.sh: error: --size bench|small" >&2; exit 2 ;; esac
case "$REPS" in ''|*[!0-9]*|0) echo "tasks.sh: error: --reps wants a positive number" >&2; exit 2 ;; esac

# the program's arguments at each size (empty: its built-in bench default)
args_for() {
  case "$1:$SIZE" in
    nqueens_task:bench) echo "" ;;
    nqueens_task:small) echo "11" ;;
    sort_task:bench) echo "" ;;
    sort_task:small) echo "2000000" ;;
    *) echo "" ;;
  esac
}

OMPDSMCC="$BUILD/compiler/ompdsmcc"
DSMRUN="$BUILD/tools/dsmrun"
VARIANTS="seq gomp2"
if [ "$OMPDSM" = 1 ]; then
  for f in "$OMPDSMCC" "$DSMRUN"; do
    [ -x "$f" ] || { echo "tasks.sh: error: no $f (build first, pass --build DIR, or use --no-ompdsm)" >&2; exit 2; }
  done
  VARIANTS="$VARIANTS dsm1 dsm2 dsm1t2"
fi
for p in $PROGRAMS; do
  [ -f "$SRC/$p.c" ] || { echo "tasks.sh: error: no $SRC/$p.c" >&2; exit 2; }
done

if [ -z "$WORK" ]; then
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/ompdsm-tasks.XXXXXX") || exit 2
  KEEP=0
else
  mkdir -p "$WORK" || exit 2
  WORK=$(cd "$WORK" && pwd)
  KEEP=1
fi
mkdir -p "$WORK/logs"

# ---- build -----------------------------------------------------------------
for p in $PROGRAMS; do
  echo "tasks.sh: building $p" >&2
  "$CC" -O2 -w -o "$WORK/$p.seq" "$SRC/$p.c" -lm >"$WORK/logs/$p.build-seq" 2>&1 ||
    { cat "$WORK/logs/$p.build-seq" >&2; echo "tasks.sh: error: $CC -O2 $p.c failed" >&2; exit 2; }
  "$CC" -O2 -fopenmp -o "$WORK/$p.gomp" "$SRC/$p.c" -lm >"$WORK/logs/$p.build-gomp" 2>&1 ||
    { cat "$WORK/logs/$p.build-gomp" >&2; echo "tasks.sh: error: $CC -O2 -fopenmp $p.c failed" >&2; exit 2; }
  if [ "$OMPDSM" = 1 ]; then
    "$OMPDSMCC" -O2 -o "$WORK/$p.ompdsm" "$SRC/$p.c" -lm >"$WORK/logs/$p.build-ompdsm" 2>&1 ||
      { cat "$WORK/logs/$p.build-ompdsm" >&2
        echo "tasks.sh: error: ompdsmcc -O2 $p.c failed (--no-ompdsm runs the gcc variants only)" >&2; exit 2; }
  fi
done

# ---- run -------------------------------------------------------------------
declare -A TIMES        # "prog variant" -> space-separated times
declare -A BAD          # "prog variant" -> 1 when a run of it failed
FAILED=()
for ((r = 1; r <= REPS; r++)); do
  for p in $PROGRAMS; do
    read -r -a args <<<"$(args_for "$p")"
    for v in $VARIANTS; do
      log="$WORK/logs/$p.$v.rep$r"
      case $v in
        seq)   cmd=(timeout "$TMO" "$WORK/$p.seq") ;;
        gomp2) cmd=(env OMP_NUM_THREADS=2 timeout "$TMO" "$WORK/$p.gomp") ;;
        dsm1)  cmd=(timeout $((TMO + 10)) "$DSMRUN" -n 1 --max-time "$TMO" "$WORK/$p.ompdsm") ;;
        dsm2)  cmd=(timeout $((TMO + 10)) "$DSMRUN" -n 2 --max-time "$TMO" "$WORK/$p.ompdsm") ;;
        dsm1t2) cmd=(timeout $((TMO + 10)) "$DSMRUN" -n 1 --threads 2 --max-time "$TMO" "$WORK/$p.ompdsm") ;;
      esac
      printf 'tasks.sh: rep %d/%d %s %s ... ' "$r" "$REPS" "$p" "$v" >&2
      "${cmd[@]}" "${args[@]}" >"$log" 2>&1 </dev/null
      rc=$?
      t=$(sed -n 's/^time: \([0-9.eE+-]*\)$/\1/p' "$log" | head -1)
      why=""
      if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then why="timed out"
      elif [ $rc -ne 0 ]; then why="exit status $rc"
      elif ! grep -qx 'verify: OK' "$log"; then why="no 'verify: OK'"
      elif [ -z "$t" ]; then why="no 'time:' line"
      fi
      if [ -n "$why" ]; then
        echo "FAILED ($why)" >&2
        FAILED+=("$p $v rep $r: $why (log $log)")
        BAD["$p $v"]=1
        continue
      fi
      echo "$t s" >&2
      TIMES["$p $v"]="${TIMES["$p $v"]:-} $t"
    done
  done
done

# ---- report ----------------------------------------------------------------
cell() {     # prog variant -> the median time, or FAIL if a run failed
  if [ -n "${BAD["$1 $2"]:-}" ]; then echo FAIL; return; fi
  # shellcheck disable=SC2086
  median ${TIMES["$1 $2"]:-}
}
median() {   # numbers on the command line -> their median ("" if none)
  printf '%s\n' "$@" | sort -g | awk '{v[NR] = $1} END {
    if (NR == 0) exit
    if (NR % 2) printf "%.3f", v[(NR + 1) / 2]
    else printf "%.3f", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
speedup() { awk -v s="$1" -v t="$2" 'BEGIN { if (s + 0 > 0 && t + 0 > 0) printf "%.2f", s / t; else printf "-" }'; }

echo
echo "OpenMP task benchmarks: median of $REPS repetitions (kernel time, s), size $SIZE, $(nproc) CPUs"
echo
if [ "$OMPDSM" = 1 ]; then
  echo "| program | seq s | gcc-omp(2) s | ompdsm n=1 s | ompdsm n=2 s | ompdsm 1x2 s | speedup gcc-omp(2) | speedup ompdsm n=1 | speedup ompdsm n=2 | speedup ompdsm 1x2 |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
else
  echo "| program | seq s | gcc-omp(2) s | ompdsm n=1 s | ompdsm n=2 s | speedup gcc-omp(2) |"
  echo "|---|---:|---:|---:|---:|---:|"
fi
for p in $PROGRAMS; do
  s=$(cell "$p" seq) g=$(cell "$p" gomp2)
  a=$(args_for "$p")
  line="| $p${a:+ $a} | $s | $g |"
  if [ "$OMPDSM" = 1 ]; then
    d1=$(cell "$p" dsm1) d2=$(cell "$p" dsm2) d12=$(cell "$p" dsm1t2)
    line+=" $d1 | $d2 | $d12 | $(speedup "$s" "$g") | $(speedup "$s" "$d1") | $(speedup "$s" "$d2") | $(speedup "$s" "$d12") |"
  else
    line+=" skipped | skipped | $(speedup "$s" "$g") |"
  fi
  echo "$line"
done

if [ ${#FAILED[@]} -gt 0 ]; then
  echo >&2
  echo "tasks.sh: error: ${#FAILED[@]} run(s) failed:" >&2
  printf '  %s\n' "${FAILED[@]}" >&2
  echo "tasks.sh: logs kept in $WORK" >&2
  exit 1
fi
[ "$KEEP" = 1 ] || rm -rf "$WORK"
exit 0
