#!/bin/sh
# test_peer_death.sh RUN_LOCAL PROG ARGS... — a rank killed with SIGKILL
# (no ABORT, no dsmrun to kill the rest: run_local.sh leaves survivors
# alone) must be noticed by the verbs transport itself: a queue pair to it
# fails (retry exhausted / flushed) or, when nothing was outstanding to it,
# the UDP keepalive finds it silent after DSM_TIMEOUT. Every survivor must
# stop with status 75, naming rank 1, well within the limit.
set -u
run_local=$1
shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$(date +%s)
DSM_TRANSPORT=verbs DSM_TIMEOUT=6 "$run_local" "$@" > "$out" 2>&1
took=$(( $(date +%s) - start ))
cat "$out"
fail() { echo "test_peer_death: error: $*" >&2; exit 1; }
[ "$took" -lt 25 ] || fail "took ${took}s"
n=$(grep -c "stopping: .*rank 1" "$out")
want=$(( $2 - 1 ))
[ "$n" -eq "$want" ] || fail "expected $want ranks stopping because of rank 1, saw $n"
grep -q "got past a dead process" "$out" && fail "a rank got past the dead one"
echo "test_peer_death: ok (${took}s; $(grep -c 'RDMA queue pair to rank 1' "$out") by a queue pair error)"
