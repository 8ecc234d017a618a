#!/bin/sh
# test_qp_death.sh RUN_LOCAL QP_DEATH — see qp_death.c.
set -u
out=$(mktemp)
trap 'rm -f "$out"' EXIT
start=$(date +%s)
DSM_TRANSPORT=verbs DSM_TIMEOUT=60 "$1" -n 3 "$2" > "$out" 2>&1
took=$(( $(date +%s) - start ))
cat "$out"
fail() { echo "test_qp_death: error: $*" >&2; exit 1; }
[ "$took" -lt 15 ] || fail "took ${took}s: the survivors waited for the timeout"
n=$(grep -c "stopping: RDMA queue pair to rank 1 failed" "$out")
[ "$n" -eq 2 ] || fail "expected 2 ranks stopping on a queue pair error to rank 1, saw $n"
grep -q "returned" "$out" && fail "a call to the dead rank returned"
echo "test_qp_death: ok (${took}s)"
