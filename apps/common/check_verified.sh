#!/bin/sh
# check_verified.sh CMD ARGS... - runs one app and passes only when it exits
# with status 0 AND printed a line starting with "VERIFIED". The output is
# passed through so the test log shows the timing and checksums.
out=$("$@" 2>&1)
status=$?
printf '%s\n' "$out"
if [ $status -ne 0 ]; then
    echo "check_verified: exit status $status"
    exit 1
fi
if ! printf '%s\n' "$out" | grep -q '^VERIFIED '; then
    echo "check_verified: no VERIFIED line"
    exit 1
fi
exit 0
