#!/bin/bash
# overheads.sh - what each OpenMP construct costs on ompdsm, by the EPCC
# method (apps/bench/ompbench.c), side by side in one run with the raw UDP
# round trip of the same machine (from dsmbench) and with gcc -fopenmp.
#
#   apps/bench/overheads.sh [--build DIR] [--procs "2 4"] [--ms MS] [--runs R]
#
# ompbench_ompdsm runs under dsmrun on each process count; ompbench_gomp
# with as many threads (OMP_WAIT_POLICY=passive when there are more threads
# than CPUs, as libgomp's spinning would otherwise starve them). The UDP
# round trip is dsmbench's, on 2 processes, measured just before, with the
# ranks pinned as dsmrun pins them (the ratios use it) and again unpinned.
#
# The task constructs come from the same source built with -DOMPBENCH_TASKS,
# with that program's parallel and barrier beside them (tasks:parallel,
# tasks:barrier): a program with tasks completes them at every barrier.
# Output: a Markdown table on stdout, each ompdsm overhead in microseconds
# and as a multiple of the round trip, and the gcc -fopenmp overhead. Exit
# status 1 if a run fails or its constructs computed a wrong result.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD="$ROOT/build" PROCS="2 4" MS=200 RUNS=5
while [ $# -gt 0 ]; do
  case $1 in
    --build) BUILD=$(cd "$2" && pwd) || exit 2; shift 2 ;;
    --procs) PROCS=$2; shift 2 ;;
    --ms) MS=$2; shift 2 ;;
    --runs) RUNS=$2; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "overheads.sh: error: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
DSMRUN="$BUILD/tools/dsmrun"
for f in "$DSMRUN" "$BUILD/tools/dsmbench" "$BUILD/apps/ompbench_ompdsm" "$BUILD/apps/ompbench_gomp" \
         "$BUILD/apps/ompbench_tasks_ompdsm" "$BUILD/apps/ompbench_tasks_gomp"; do
  [ -x "$f" ] || { echo "overheads.sh: error: no $f (build first)" >&2; exit 2; }
done
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
export OMPBENCH_MS=$MS OMPBENCH_RUNS=$RUNS
NCPU=$(nproc)

echo "overheads.sh: UDP round trip (dsmbench, 2 processes)" >&2
"$DSMRUN" -n 2 "$BUILD/tools/dsmbench" > "$T/dsmbench" 2>&1 || { cat "$T/dsmbench" >&2; exit 1; }
RTT=$(awk '/^raw UDP round trip/ { for (i = 1; i < NF; i++) if ($(i+1) == "us") { print $i; exit } }' "$T/dsmbench")
[ -n "$RTT" ] || { echo "overheads.sh: error: no round trip in dsmbench's output" >&2; exit 1; }
# The same round trip with the ranks left to the scheduler: on a VM two
# processes ping-ponging on one CPU answer several times faster than pinned
# to two, so the table says which yardstick it uses and shows the other.
DSM_CPU_BIND=none "$DSMRUN" -n 2 "$BUILD/tools/dsmbench" > "$T/dsmbench_unbound" 2>&1 || { cat "$T/dsmbench_unbound" >&2; exit 1; }
RTT_UNBOUND=$(awk '/^raw UDP round trip/ { for (i = 1; i < NF; i++) if ($(i+1) == "us") { print $i; exit } }' "$T/dsmbench_unbound")

status=0
for p in $PROCS; do
  echo "overheads.sh: ompdsm on $p processes, gcc -fopenmp with $p threads" >&2
  # OMP_DYNAMIC=false: the overhead of the whole team, not of a region the
  # runtime ran on the master's process alone (design.md, "How wide a region runs")
  OMP_DYNAMIC=false "$DSMRUN" -n "$p" "$BUILD/apps/ompbench_ompdsm" > "$T/dsm$p" 2>&1 || status=1
  OMP_DYNAMIC=false "$DSMRUN" -n "$p" "$BUILD/apps/ompbench_tasks_ompdsm" > "$T/tdsm$p" 2>&1 || status=1
  policy=active
  [ "$p" -gt "$NCPU" ] && policy=passive
  OMP_NUM_THREADS=$p OMP_WAIT_POLICY=$policy "$BUILD/apps/ompbench_gomp" > "$T/gomp$p" 2>&1 || status=1
  OMP_NUM_THREADS=$p OMP_WAIT_POLICY=$policy "$BUILD/apps/ompbench_tasks_gomp" > "$T/tgomp$p" 2>&1 || status=1
  for f in "$T/dsm$p" "$T/gomp$p" "$T/tdsm$p" "$T/tgomp$p"; do
    grep -q '^VERIFIED ' "$f" || { echo "overheads.sh: $(basename "$f") failed:" >&2; cat "$f" >&2; status=1; }
  done
done

printf '\nConstruct overheads, EPCC method (us per instance; x: multiple of the raw UDP round trip, %s us,\n' "$RTT"
printf 'between two ranks pinned to CPUs of their own as dsmrun runs them; unpinned: %s us)\n\n' "${RTT_UNBOUND:--}"
header="| construct |"; rule="|---|"
for p in $PROCS; do
  header+=" ompdsm n=$p | x RTT | gomp t=$p |"; rule+="---:|---:|---:|"
done
echo "$header"; echo "$rule"
for c in parallel for parallel_for barrier single master critical lock atomic reduction \
         for_dynamic for_guided ordered \
         tasks:parallel tasks:barrier task_parallel task_master task_wait; do
  # tasks:X and task_*: from the build with tasks (ompbench -DOMPBENCH_TASKS)
  line="| $c |" name=${c#tasks:} pre=
  case $c in tasks:*|task_*) pre=t ;; esac
  for p in $PROCS; do
    d=$(awk -v c="$name" '$1 == "ompbench:" && $2 == c { print $3 }' "$T/${pre}dsm$p")
    g=$(awk -v c="$name" '$1 == "ompbench:" && $2 == c { print $3 }' "$T/${pre}gomp$p")
    x=$(awk -v d="${d:-0}" -v r="$RTT" 'BEGIN { printf "%.2f", d / r }')
    line+=" ${d:--} | ${x} | ${g:--} |"
  done
  echo "$line"
done
exit $status
