#!/bin/sh
# run_local.sh -n N prog args... — a stand-in for dsmrun on one host, used by
# the transport tests only while tools/dsmrun is not built. Sets the launcher's
# environment contract (DSM_RANK, DSM_SIZE, DSM_MASTER, DSM_KEY), starts N
# processes and fails if any of them fails.
set -u
[ "$1" = "-n" ] || { echo "usage: $0 -n N prog args" >&2; exit 2; }
n=$2; shift 2
port=$(( 20000 + $$ % 30000 ))
key=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
pids=""
r=0
while [ $r -lt "$n" ]; do
  DSM_RANK=$r DSM_SIZE=$n DSM_MASTER=127.0.0.1:$port DSM_KEY=$key "$@" &
  pids="$pids $!"
  r=$((r + 1))
done
status=0
for p in $pids; do
  wait "$p" || status=1
done
exit $status
