#!/bin/bash
# test_limits.sh DSMRUN HEAP_EXHAUST — resource limits end a job with a clear
# message and a non-zero status, never with a crash (death by a signal);
# except the shared heap, which fails as malloc does:
#  * dsm_malloc beyond the reserved heap (DSM_HEAP_MB=64): NULL with ENOMEM
#    and a warning naming DSM_HEAP_MB, and the job goes on (issue 56).
#  * dsmrun -n 100000: "dsmrun: error", usage status 2.
#  * more ranks than the open-file limit or the ephemeral ports allow: a
#    message naming the limit, non-zero, no process left.
#  * an unresolvable host in the hostfile, and a reachable host whose ssh
#    port is closed: non-zero within seconds, naming the host or rank.
. "$(dirname "$0")/../lib.sh"
HEAP=${2:?usage: $0 DSMRUN HEAP_EXHAUST}

# no_signal ERR: dsmrun reported no rank killed by a signal (a launcher's
# own failure status, like ssh's 255, is a plain exit status).
no_signal() { ! grep -q "killed by signal" "$1"; }
grep_absent() { ! grep -q -- "$1" "$2"; }

# ended_by_limit WHAT WITHIN_MS PATTERN: the job just run (RC, MS, $T/err,
# every process marked $MARK) ended as hitting a limit must end it: non-zero,
# not by a signal, within WITHIN_MS, with a message matching PATTERN, and
# with nothing left behind.
ended_by_limit() {
  local what=$1 within=$2 pattern=$3
  echo "$what: status $RC after $MS ms: $(head -c 300 "$T/err")"
  check "$what: non-zero" [ "$RC" -ne 0 ]
  check "$what: not a signal death" no_signal "$T/err"
  check "$what: within $((within / 1000)) s ($MS ms)" [ "$MS" -lt "$within" ]
  check "$what: message matches /$pattern/" grep_q "$pattern" "$T/err"
  check "$what: no process left" no_process "$MARK"
}

for n in 1 2; do
  MARK=$(marked "$HEAP")
  DSM_HEAP_MB=64 run_dsmrun "$T/out" "$T/err" -n $n --max-time 60 "$MARK"
  echo "heap n=$n: status $RC after $MS ms: $(grep -m1 DSM_HEAP_MB "$T/err")"
  check "heap n=$n: status 0 (the program saw NULL and went on)" [ "$RC" -eq 0 ]
  check "heap n=$n: the warning names DSM_HEAP_MB" \
    grep_q "warning: dsm_malloc.*exhausted.*returns NULL.*DSM_HEAP_MB" "$T/err"
  check "heap n=$n: warned once per process" \
    [ "$(grep -c 'warning: dsm_malloc' "$T/err")" -eq "$n" ]
  check "heap n=$n: it did allocate first" grep_q "heap_exhaust: rank 0: 1 MiB allocated" "$T/err"
  check "heap n=$n: every process saw NULL" \
    [ "$(grep -c 'returned NULL (ENOMEM)' "$T/err")" -eq "$n" ]
  check "heap n=$n: no process left" no_process "$MARK"
done

run_dsmrun "$T/out" "$T/err" -n 100000 --max-time 10 /bin/true
echo "-n 100000: status $RC: $(head -c 200 "$T/err")"
check "-n 100000: status 2" [ "$RC" -eq 2 ]
check "-n 100000: dsmrun: error" grep_q "dsmrun: .*error" "$T/err"

# More processes than the open-file limit allows: dsmrun needs a few
# descriptors per rank (output pipes, the lifeline), so -n 8 under
# `ulimit -n 24` cannot start; it must say so, not crash or hang.
MARK=$(marked "$HEAP")
run_timed "$T/out" "$T/err" bash -c 'ulimit -n 24; exec "$@"' limit "$DSMRUN" -n 8 --max-time 30 "$MARK"
ended_by_limit "open-file limit (ulimit -n 24, -n 8)" 10000 "open files|open-file limit"

# More processes than ports: in a network namespace whose ephemeral port
# range has 2 ports, the third rank's socket has no port. The job must end
# at once with a message about the port, not a crash and not a hang.
if [ "$(id -u)" -eq 0 ] && ip netns add "dfl$$" 2>/dev/null; then
  CLEANUP+=("ip netns del dfl$$ 2>/dev/null")
  ip -n "dfl$$" link set lo up
  ip netns exec "dfl$$" sysctl -q -w net.ipv4.ip_local_port_range="40000 40001" 2>/dev/null ||
    ip netns exec "dfl$$" sysctl -q -w net.ipv4.ip_local_port_range="40000 40002"
  MARK=$(marked "$HEAP")
  run_timed "$T/out" "$T/err" ip netns exec "dfl$$" "$DSMRUN" -n 8 --max-time 30 "$MARK"
  ended_by_limit "ports (2 ports, -n 8)" 10000 "no free UDP port.*ephemeral port range"
else
  echo "ports: not run (needs root and ip netns)"
fi

# Unresolvable host (the .invalid domain never resolves, RFC 2606).
BADHOST="nohost-$$.invalid"
echo "$BADHOST slots=2" >"$T/hosts1"
MARK="faults-limits-$$-$RANDOM"
run_dsmrun "$T/out" "$T/err" -n 2 --hostfile "$T/hosts1" --max-time 30 sh -c "sleep 100" "$MARK"
ended_by_limit "unresolvable host" 15000 "$BADHOST"

# Reachable but closed: nothing listens on port 1 of 127.0.0.1.
echo "127.0.0.1 slots=2" >"$T/hosts2"
run_dsmrun "$T/out" "$T/err" -n 2 --hostfile "$T/hosts2" \
  --launcher 'ssh -p 1 -o ConnectTimeout=2 -o BatchMode=yes -o StrictHostKeyChecking=no {host}' \
  --max-time 30 sh -c "sleep 100" "$MARK"
ended_by_limit "closed ssh port" 15000 "127\.0\.0\.1|rank [01]"

finish
