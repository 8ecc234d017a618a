#!/bin/sh
# test_abort.sh TP_TEST — a failing rank's ABORT stops the others quickly.
#
# Runs under run_local.sh, not dsmrun, on purpose: dsmrun would kill the
# survivors itself and hide whether the ABORT datagram did it. Rank 1 fails
# (status 70); ranks 0 and 2 are blocked in a call to it and must stop with
# status 75, naming rank 1, well before the 30 s liveness timeout.
set -u
prog=$1
here=$(dirname "$0")
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$(date +%s)
DSM_TIMEOUT=30 "$here/run_local.sh" -n 3 "$prog" abort > "$out" 2>&1
took=$(( $(date +%s) - start ))
cat "$out"
fail() { echo "test_abort: error: $*" >&2; exit 1; }
[ "$took" -lt 10 ] || fail "took ${took}s: the survivors waited for the timeout"
n=$(grep -c "stopping: rank 1 failed: tp_test: failing on purpose" "$out")
[ "$n" -eq 2 ] || fail "expected 2 ranks stopping on rank 1's ABORT, saw $n"
grep -q "dsm\[1\]: error: tp_test: failing on purpose" "$out" || fail "rank 1 did not report its error"
echo "test_abort: ok (${took}s)"
