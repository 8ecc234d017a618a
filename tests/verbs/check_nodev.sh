#!/bin/sh
# check_nodev.sh EXPECT_FAIL -- dsmrun args...
# With the real libibverbs on a host without an RDMA device, the job must
# fail at once (within 5 s) with a message naming the missing device. On a
# host that has a device the check does not apply (skipped, status 77).
set -u
expect_fail=$1
shift 2
if [ -n "$(ls /sys/class/infiniband 2>/dev/null)" ]; then
  echo "check_nodev: this host has an RDMA device; nothing to check" >&2
  exit 77
fi
exec "$expect_fail" 70 5 'no RDMA device found (libibverbs lists 0 devices)' -- "$@"
