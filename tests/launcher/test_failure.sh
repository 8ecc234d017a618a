#!/bin/bash
# test_failure.sh DSMRUN — one rank fails while the others would run for a
# long time: the job must be down within seconds, name the right rank, and
# leave no process behind.
. "$(dirname "$0")/../lib.sh"

# Every process of these jobs carries MARK in its command line (the shell's
# $0 and the sleep's argument), so pgrep finds leftovers of this test only.
MARK="dsmrun-fail-test-$$-$RANDOM"
SLEEP="1000.$$"     # GNU sleep takes fractions: a unique argument

# 1. Rank 1 exits 1 while the others sleep (in a child of the shell, so
# killing the rank's shell alone would leave the sleep behind).
run_dsmrun "$T/out" "$T/err" -n 4 sh -c \
  '[ "$DSM_RANK" = 1 ] && exit 1; sleep '"$SLEEP"'; echo survived' "$MARK"
check "exit 1: dsmrun exits 1" [ "$RC" -eq 1 ]
check "exit 1: down within 5 s (took ${MS} ms)" [ "$MS" -lt 5000 ]
check "exit 1: rank 1 named" \
  grep -Eq '^dsmrun: rank 1 \(host localhost, pid [0-9]+\) exited with status 1$' "$T/err"
check "exit 1: reported exactly once" [ "$(grep -c '^dsmrun: rank' "$T/err")" -eq 1 ]
check "exit 1: no process left" no_process "$MARK"
check "exit 1: no sleep left" no_process "sleep $SLEEP"
check "exit 1: nobody survived" [ "$(grep -c survived "$T/out")" -eq 0 ]

# 2. Rank 2 kills itself with SIGKILL.
run_dsmrun "$T/out" "$T/err" -n 4 sh -c \
  '[ "$DSM_RANK" = 2 ] && kill -9 $$; sleep '"$SLEEP" "$MARK"
check "kill -9: dsmrun exits 137" [ "$RC" -eq 137 ]
check "kill -9: down within 5 s (took ${MS} ms)" [ "$MS" -lt 5000 ]
check "kill -9: rank 2 named" \
  grep -Eq '^dsmrun: rank 2 \(host localhost, pid [0-9]+\) killed by signal SIGKILL$' "$T/err"
check "kill -9: reported exactly once" [ "$(grep -c '^dsmrun: rank' "$T/err")" -eq 1 ]
check "kill -9: no process left" no_process "$MARK"

# 3. Ranks that ignore SIGTERM are killed after the grace period.
run_dsmrun "$T/out" "$T/err" -n 3 sh -c \
  'trap "" TERM; [ "$DSM_RANK" = 0 ] && exit 5; sleep '"$SLEEP" "$MARK"
check "SIGTERM ignored: dsmrun exits 5" [ "$RC" -eq 5 ]
check "SIGTERM ignored: down within 5 s (took ${MS} ms)" [ "$MS" -lt 5000 ]
check "SIGTERM ignored: no process left" no_process "$MARK"

# 4. Blame: victims exit 75 first (they saw the failure and stopped), the
# culprit exits 70 a little later. dsmrun must name the culprit.
run_dsmrun "$T/out" "$T/err" -n 4 sh -c \
  '[ "$DSM_RANK" = 3 ] && { sleep 0.3; exit 70; }; exit 75' "$MARK"
check "blame: dsmrun exits 70" [ "$RC" -eq 70 ]
check "blame: rank 3 named, not a 75" grep -Eq '^dsmrun: rank 3 .* exited with status 70$' "$T/err"
check "blame: reported exactly once" [ "$(grep -c '^dsmrun: rank' "$T/err")" -eq 1 ]
# ... and when every failure is a 75, the first one is named.
run_dsmrun "$T/out" "$T/err" -n 3 sh -c \
  '[ "$DSM_RANK" = 1 ] && exit 75; sleep '"$SLEEP" "$MARK"
check "only 75s: dsmrun exits 75" [ "$RC" -eq 75 ]
check "only 75s: rank 1 named" grep -Eq '^dsmrun: rank 1 .* exited with status 75$' "$T/err"
check "only 75s: no process left" no_process "$MARK"

# 5. --max-time stops a job that runs too long.
run_dsmrun "$T/out" "$T/err" -n 3 --max-time 0.5 sh -c 'sleep '"$SLEEP" "$MARK"
check "--max-time: exit 124" [ "$RC" -eq 124 ]
check "--max-time: took about 0.5 s (${MS} ms)" [ "$MS" -ge 450 -a "$MS" -lt 4000 ]
check "--max-time: says so" grep -q 'exceeded --max-time' "$T/err"
check "--max-time: no process left" no_process "$MARK"

# 5b. DSMRUN_STACKS=1: a job that hangs shows the stacks of the ranks
# still running before it is stopped: after --max-time (every rank), and
# when a rank gave up on another as silent (exit 75) and the silent one
# still runs a second later (only it). Needs gdb.
if command -v gdb > /dev/null; then
  export DSMRUN_STACKS=1
  run_dsmrun "$T/out" "$T/err" -n 2 --max-time 0.5 sh -c 'exec sleep '"$SLEEP" "$MARK"
  check "stacks, --max-time: exit 124" [ "$RC" -eq 124 ]
  check "stacks, --max-time: both ranks shown" \
    [ "$(grep -c 'is still running; the stacks of its threads follow' "$T/err")" -eq 2 ]
  check "stacks, --max-time: a backtrace" grep -Eq '^#[0-9]+ .*(nanosleep|clock_nanosleep|sleep)' "$T/err"
  check "stacks, --max-time: no process left" no_process "$MARK"
  run_dsmrun "$T/out" "$T/err" -n 3 sh -c \
    '[ "$DSM_RANK" = 2 ] && exec sleep '"$SLEEP"'; exit 75' "$MARK"
  check "stacks, silent rank: exit 75" [ "$RC" -eq 75 ]
  check "stacks, silent rank: only rank 2 shown" \
    grep -Eq '^dsmrun: rank 2 \(pid [0-9]+\) is still running' "$T/err"
  check "stacks, silent rank: shown once" \
    [ "$(grep -c 'is still running; the stacks' "$T/err")" -eq 1 ]
  check "stacks, silent rank: no process left" no_process "$MARK"
  unset DSMRUN_STACKS
else
  echo "gdb not installed: DSMRUN_STACKS not checked"
fi
# ... and without it, none.
run_dsmrun "$T/out" "$T/err" -n 2 --max-time 0.5 sh -c 'exec sleep '"$SLEEP" "$MARK"
check "no DSMRUN_STACKS: no stacks" [ "$(grep -c 'the stacks of its threads' "$T/err")" -eq 0 ]

# 6. SIGTERM and SIGINT to dsmrun stop the whole job.
for sig in TERM INT; do
  "$DSMRUN" -n 3 sh -c 'echo up; exec sleep '"$SLEEP" "$MARK" >"$T/fifo-out" 2>"$T/err" </dev/null &
  pid=$!
  # Wait (blocking, bounded) until the sleeps run.
  for ((i = 0; i < 100; i++)); do
    [ "$(pgrep -f -c -- "sleep $SLEEP")" -ge 3 ] && break
    sleep 0.05
  done
  kill -$sig $pid
  wait $pid
  rc=$?
  case $sig in TERM) want=143 ;; INT) want=130 ;; esac
  check "SIG$sig to dsmrun: exit $want (got $rc)" [ "$rc" -eq "$want" ]
  check "SIG$sig to dsmrun: says so" grep -q "got SIG$sig" "$T/err"
  check "SIG$sig to dsmrun: no process left" no_process "$MARK"
done

finish
