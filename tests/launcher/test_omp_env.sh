#!/bin/bash
# test_omp_env.sh DSMRUN OMPDSMCC SOURCE — the OpenMP environment variables
# mean what they mean to gcc -fopenmp where a job of processes can follow
# OpenMP, and what docs/coming-from.md says where it cannot (issue 56).
# SOURCE is omp_env.c, built here by ompdsmcc and, to compare, by gcc.
. "$(dirname "$0")/../lib.sh"
OMPDSMCC=${2:?usage: $0 DSMRUN OMPDSMCC SOURCE}
SRC=${3:?usage: $0 DSMRUN OMPDSMCC SOURCE}
"$OMPDSMCC" -O1 -o "$T/oe" "$SRC" || { echo "cannot build $SRC with ompdsmcc"; exit 1; }
GCC_OK=0
gcc -fopenmp -O1 -o "$T/oe_gcc" "$SRC" 2>/dev/null && GCC_OK=1
unset OMP_NUM_THREADS OMP_STACKSIZE DSM_THREADS DSM_THREAD_STACK_MB DSM_REGION_STACK_MB

# 1. A program started on its own is a job of one process: OpenMP's default
# of one thread per CPU it may use, as gcc's runtime gives.
cpus=$(nproc)
alone=$("$T/oe" threads 2>&1)
check "alone: one thread per CPU ($alone, $cpus CPUs)" [ "$alone" = "max $cpus team $cpus" ]
if [ $GCC_OK = 1 ]; then
  check "alone: as gcc -fopenmp" [ "$alone" = "$("$T/oe_gcc" threads)" ]
  check "alone, OMP_NUM_THREADS=3: as gcc -fopenmp" \
    [ "$(OMP_NUM_THREADS=3 "$T/oe" threads)" = "$(OMP_NUM_THREADS=3 "$T/oe_gcc" threads)" ]
fi

# 2. Under dsmrun: OMP_NUM_THREADS is the team's size over the job; without
# it each process runs one thread; a team is at most the job's threads.
out=$(OMP_NUM_THREADS=4 "$DSMRUN" -n 2 "$T/oe" threads 2>&1)
check "-n 2, OMP_NUM_THREADS=4: a team of 4 ($out)" [ "$out" = "max 4 team 4" ]
out=$("$DSMRUN" -n 2 "$T/oe" threads 2>&1)
check "-n 2 alone: one thread a process ($out)" [ "$out" = "max 2 team 2" ]
out=$(OMP_NUM_THREADS=8 "$DSMRUN" -n 2 --threads 2 "$T/oe" threads 2>"$T/err")
check "-n 2 --threads 2, OMP_NUM_THREADS=8: the job's 4 ($out)" [ "$out" = "max 4 team 4" ]
check "... and a warning says so" grep_q 'asks for 8 threads; its team has 4' "$T/err"

# 3. OMP_STACKSIZE: a thread the runtime starts gets it (40 MiB deep does
# not fit the default 16 MiB), in a job of one and in a job's processes.
run_timed "$T/out" "$T/err" env OMP_NUM_THREADS=2 "$T/oe" deep 40
check "without OMP_STACKSIZE, 40 MiB deep overflows (status $RC)" [ "$RC" -eq 139 ]
check "... and says so with a backtrace" grep_q 'killed by SIGSEGV.*backtrace|backtrace' "$T/err"
for size in 64M 64m ' 65536 ' 67108864B 1G; do
  run_timed "$T/out" "$T/err" env OMP_NUM_THREADS=2 OMP_STACKSIZE="$size" "$T/oe" deep 40
  check "OMP_STACKSIZE='$size': 40 MiB deep fits (status $RC)" grep -qx 'deep ok' "$T/out"
done
run_dsmrun "$T/out" "$T/err" -n 2 --threads 2 --max-time 60 -x OMP_STACKSIZE=64M "$T/oe" deep 40
check "-n 2 --threads 2, OMP_STACKSIZE=64M: a thread of rank 1 ($(head -c 200 "$T/err"))" \
  grep -qx 'deep ok' "$T/out"
run_dsmrun "$T/out" "$T/err" -n 2 --max-time 60 -x OMP_STACKSIZE=128M "$T/oe" deep 100
check "-n 2, OMP_STACKSIZE=128M: rank 1's region body, 100 MiB deep ($(head -c 200 "$T/err"))" \
  grep -qx 'deep ok' "$T/out"
# 4. argv's strings, read in a region by another process's thread.
run_dsmrun "$T/out" "$T/err" -n 2 --max-time 60 "$T/oe" argv hello-from-argv
check "argv read by rank 1's thread ($(head -c 200 "$T/err"))" grep -qx 'thread 1: hello-from-argv' "$T/out"

run_timed "$T/out" "$T/err" env OMP_STACKSIZE=12Q "$T/oe" threads
check "OMP_STACKSIZE=12Q: an error naming it (status $RC)" \
  eval '[ "$RC" -ne 0 ] && grep -q "OMP_STACKSIZE=.12Q. is not a stack size" "$T/err"'

finish
