#!/bin/bash
# test_ending.sh DSMRUN OMPDSMCC SOURCE — how an OpenMP job ends when one
# of its threads exits, crashes or returns early (issue 56): the whole job
# ends promptly with the status the program would have on one machine,
# dsmrun names the rank and the cause that came first, and the others say
# why they stop. SOURCE is ending.c, built here by ompdsmcc with -g.
. "$(dirname "$0")/../lib.sh"
OMPDSMCC=${2:?usage: $0 DSMRUN OMPDSMCC SOURCE}
SRC=${3:?usage: $0 DSMRUN OMPDSMCC SOURCE}
"$OMPDSMCC" -g -O1 -o "$T/ending" "$SRC" || { echo "cannot build $SRC"; exit 1; }
PROG=$(marked "$T/ending")

# job NAME ARGS...: run PROG ARGS on 2 processes, with a safety net far
# above what any case may take.
job() { local name=$1; shift; run_dsmrun "$T/out" "$T/err" -n 2 --max-time 30 "$PROG" "$@"
        echo "--- $name: status $RC after $MS ms"; cat "$T/err"; }
quick() { [ "$MS" -lt 5000 ]; }
no_line() { ! grep -Eq -- "$1" "$2"; }

# 1. exit(0) on thread 1 while thread 0 waits at a barrier: status 0, at once.
job "exit 0" exit 0
check "exit(0) in a region: status 0" [ "$RC" -eq 0 ]
check "exit(0) in a region: within 5 s" quick
check "exit(0) in a region: rank 0 says why it stops" \
  grep_q '^dsm\[0\]: stopping: rank 1 exited with status 0' "$T/err"
check "exit(0) in a region: nothing ran after the region" no_line 'after the region' "$T/out"
check "exit(0) in a region: no process left" no_process "$PROG"

# 2. exit(3) on thread 1: status 3, rank 1 named, rank 0 says why.
job "exit 3" exit 3
check "exit(3) in a region: status 3" [ "$RC" -eq 3 ]
check "exit(3) in a region: within 5 s" quick
check "exit(3) in a region: rank 1 named" \
  grep_q '^dsmrun: rank 1 \(host localhost, pid [0-9]+\) exited with status 3$' "$T/err"
check "exit(3) in a region: named once" [ "$(grep -c '^dsmrun: rank' "$T/err")" -eq 1 ]
check "exit(3) in a region: rank 0 says rank 1 exited" \
  grep_q '^dsm\[0\]: stopping: rank 1 exited with status 3' "$T/err"
check "exit(3) in a region: no 'launcher went away'" no_line 'launcher went away' "$T/err"

# 3. The master exits inside the region.
job "master exit 4" master-exit 4
check "master's exit(4) in a region: status 4" [ "$RC" -eq 4 ]
check "master's exit(4) in a region: within 5 s" quick
check "master's exit(4) in a region: rank 0 named" \
  grep_q '^dsmrun: rank 0 \(host localhost, pid [0-9]+\) exited with status 4$' "$T/err"
check "master's exit(4) in a region: rank 1 says why" \
  grep_q '^dsm\[1\]: stopping: rank 0 exited with status 4' "$T/err"

# 4. _exit(0) runs no exit handler: dsmrun notices (the rank joined the job
# and did not leave in its shutdown) and ends the job with status 0.
job "_exit" _exit
check "_exit(0) in a region: status 0" [ "$RC" -eq 0 ]
check "_exit(0) in a region: within 5 s" quick
check "_exit(0) in a region: rank 0 says why it stops" \
  grep_q '^dsm\[0\]: stopping: rank 1 exited with status 0 before the job' "$T/err"

# 5. main returns 2 after a region: rank 0's status, rank 0 named, and
# rank 1 leaves quietly. This was a race (rank 1 exited 2 first, and was
# blamed), so several runs.
for i in 1 2 3 4 5; do
  job "return 2 ($i)" return 2
  check "main returns 2 ($i): status 2" [ "$RC" -eq 2 ]
  check "main returns 2 ($i): rank 0 named" \
    grep_q '^dsmrun: rank 0 \(host localhost, pid [0-9]+\) exited with status 2$' "$T/err"
  check "main returns 2 ($i): named once" [ "$(grep -c '^dsmrun: rank' "$T/err")" -eq 1 ]
  check "main returns 2 ($i): nobody stopping" no_line 'stopping:' "$T/err"
done

# 6. A bad pointer: the address, a backtrace naming the line, the job down
# at once, rank 1 named.
fault_line=$(grep -n 'FAULT HERE' "$SRC" | cut -d: -f1)
job "segv" segv
check "SIGSEGV: status 139" [ "$RC" -eq 139 ]
check "SIGSEGV: within 5 s" quick
check "SIGSEGV: the address" \
  grep_q '^dsm\[1\]: killed by SIGSEGV at address 0x10 \(address not mapped\)' "$T/err"
if command -v addr2line > /dev/null; then
  check "SIGSEGV: the backtrace starts at the faulting line" \
    grep_q "^dsm\[1\]:   #0 0x[0-9a-f]+ in .* at .*:$fault_line( |$)" "$T/err"
fi
check "SIGSEGV: rank 1 named" \
  grep_q '^dsmrun: rank 1 \(host localhost, pid [0-9]+\) killed by signal SIGSEGV$' "$T/err"
check "SIGSEGV: rank 0 says why" \
  grep_q '^dsm\[0\]: stopping: rank 1 was killed by SIGSEGV at address 0x10' "$T/err"
check "SIGSEGV: no process left" no_process "$PROG"

# 7. abort() from a failed assert: the frames from the program's line on.
assert_line=$(grep -n 'ASSERT HERE' "$SRC" | cut -d: -f1)
job "abort" abort
check "SIGABRT: status 134" [ "$RC" -eq 134 ]
check "SIGABRT: within 5 s" quick
check "SIGABRT: reported" grep_q '^dsm\[1\]: killed by SIGABRT$' "$T/err"
if command -v addr2line > /dev/null; then
  check "SIGABRT: the backtrace has the assert's line" \
    grep_q "^dsm\[1\]:   #[0-9]+ 0x[0-9a-f]+ in .* at .*:$assert_line( |$)" "$T/err"
fi
check "SIGABRT: rank 0 says why" grep_q '^dsm\[0\]: stopping: rank 1 was killed by SIGABRT' "$T/err"

# 8. The shared heap's reservation is kept out of core files.
job "dontdump" dontdump
check "the shared heap is not dumped in cores" grep_q 'kept out of cores: yes' "$T/out"

finish
