#!/bin/sh
# expect_fail.sh STATUS SECONDS PATTERN -- command...
# Runs the command (a dsmrun job that must fail) and checks that it exits
# with STATUS, within SECONDS, and that its stderr matches PATTERN.
set -u
want=$1 limit=$2 pattern=$3
shift 4
err=$(mktemp)
start=$(date +%s)
"$@" 2>"$err"
st=$?
end=$(date +%s)
cat "$err" >&2
rm -f "$err.keep"
ok=0
if [ "$st" -ne "$want" ]; then echo "expect_fail: exit status $st, wanted $want" >&2; ok=1; fi
if [ $((end - start)) -gt "$limit" ]; then echo "expect_fail: took $((end - start)) s, limit $limit s" >&2; ok=1; fi
if ! grep -q -- "$pattern" "$err"; then echo "expect_fail: stderr does not match '$pattern'" >&2; ok=1; fi
rm -f "$err"
[ $ok -eq 0 ] && echo "expect_fail: status $st after $((end - start)) s, message matched"
exit $ok
