#!/bin/bash
# test_env.sh DSMRUN — what every rank of a local job is given, and how the
# job's exit status and output come back.
. "$(dirname "$0")/../lib.sh"

# 1. Four local ranks print their environment.
run_dsmrun "$T/out" "$T/err" -n 4 sh -c \
  'echo "env $DSM_RANK $DSM_SIZE $DSM_MASTER $DSM_KEY $DSM_TIMEOUT $DSM_TRANSPORT $DSM_LIFELINE"'
check "4-rank job exits 0" [ "$RC" -eq 0 ]
check "4 lines of output" [ "$(grep -c '^env ' "$T/out")" -eq 4 ]
check "ranks are 0..3, each once" \
  [ "$(awk '{print $2}' "$T/out" | sort -n | tr '\n' ' ')" = "0 1 2 3 " ]
check "every rank sees DSM_SIZE=4" [ "$(awk '$3 != 4' "$T/out" | wc -l)" -eq 0 ]
check "one key for the job" [ "$(awk '{print $5}' "$T/out" | sort -u | wc -l)" -eq 1 ]
check "key is 32 lowercase hex digits" \
  grep -Eq '^[0-9a-f]{32}$' <<<"$(awk 'NR == 1 {print $5}' "$T/out")"
check "one master for the job" [ "$(awk '{print $4}' "$T/out" | sort -u | wc -l)" -eq 1 ]
check "master is 127.0.0.1 with a port in 20000..60999" \
  awk -F'[ :]' 'NR == 1 { exit !($4 == "127.0.0.1" && $5 >= 20000 && $5 <= 60999) }' "$T/out"
check "default DSM_TIMEOUT=30, DSM_TRANSPORT=udp, DSM_LIFELINE=3" \
  [ "$(awk '{print $6, $7, $8}' "$T/out" | sort -u)" = "30 udp 3" ]
check "no complaints on stderr" [ ! -s "$T/err" ]

# Two jobs get different keys.
"$DSMRUN" -n 1 sh -c 'echo $DSM_KEY' >"$T/key2" </dev/null
check "a second job gets another key" [ "$(cat "$T/key2")" != "$(awk 'NR == 1 {print $5}' "$T/out")" ]

# 2. The lifeline fd is really open in the rank (test_lifeline.sh checks
# that it closes when dsmrun dies). A rank started here may report back on
# it (dsmrun_life.c): it is a socket, and DSM_REPORT_FD names it.
run_dsmrun "$T/out" "$T/err" -n 2 sh -c \
  'echo "$(readlink /proc/self/fd/$DSM_LIFELINE) report=$DSM_REPORT_FD life=$DSM_LIFELINE"'
check "lifeline is an inherited socket" [ "$(grep -c '^socket:' "$T/out")" -eq 2 ]
check "DSM_REPORT_FD is the lifeline" [ "$(grep -Ec 'report=([0-9]+) life=\1$' "$T/out")" -eq 2 ]

# 2b. dsmrun holds the master's port from the moment it picks it: rank 0
# inherits the bound UDP socket as DSM_MASTER_FD (libdsm adopts it; had it
# bound the port again, every DSM job would fail with "Address already in
# use"). The socket's inode must be the one /proc/net/udp lists for the port.
run_dsmrun "$T/out" "$T/err" -n 2 sh -c '
  if [ -z "$DSM_MASTER_FD" ]; then echo "rank $DSM_RANK none"; exit 0; fi
  ino=$(readlink /proc/self/fd/$DSM_MASTER_FD | tr -dc 0-9)
  port=$(printf "%04X" "${DSM_MASTER##*:}")
  awk -v p=":$port" -v i="$ino" "\$2 ~ p\"\$\" && \$10 == i { f = 1 } END { exit !f }" /proc/net/udp &&
    echo "rank $DSM_RANK fd $DSM_MASTER_FD bound"'
check "rank 0 inherits the master's bound UDP socket at fd 4" \
  [ "$(sort "$T/out" | tr '\n' ' ')" = "rank 0 fd 4 bound rank 1 none " ]
DSM_MASTER_FD=9 run_dsmrun "$T/out" "$T/err" -n 2 sh -c 'echo "r$DSM_RANK ${DSM_MASTER_FD:-none}"'
check "an inherited DSM_MASTER_FD is replaced" [ "$(sort "$T/out" | tr '\n' ' ')" = "r0 4 r1 none " ]

# 3. Options that become environment.
DSM_STATS=json:/dev/null run_dsmrun "$T/out" "$T/err" -n 2 --timeout 7 --transport verbs \
  sh -c 'echo "$DSM_TIMEOUT $DSM_TRANSPORT $DSM_STATS"'
check "--timeout, --transport, and DSM_STATS passed through" \
  [ "$(sort -u "$T/out")" = "7 verbs json:/dev/null" ]
DSM_STATS=json:/dev/null run_dsmrun "$T/out" "$T/err" -n 2 --stats sh -c 'echo "$DSM_STATS"'
check "--stats sets DSM_STATS=1" [ "$(sort -u "$T/out")" = "1" ]
DSM_RANK=9 DSM_KEY=stale run_dsmrun "$T/out" "$T/err" -n 2 sh -c 'echo "$DSM_RANK $DSM_KEY"'
check "stale job variables in dsmrun's environment are replaced" \
  [ "$(grep -c stale "$T/out")" -eq 0 ]
DSMRUN_TEST_MARK=kept run_dsmrun "$T/out" "$T/err" -n 1 sh -c 'echo "$DSMRUN_TEST_MARK"'
check "the rest of the environment is forwarded" [ "$(cat "$T/out")" = "kept" ]

# 4. The exit status of a failing rank is dsmrun's.
run_dsmrun "$T/out" "$T/err" -n 4 sh -c '[ "$DSM_RANK" = 2 ] && exit 3; exit 0'
check "rank 2 exits 3 -> dsmrun exits 3" [ "$RC" -eq 3 ]
check "the report names rank 2 and its status" \
  grep -Eq '^dsmrun: rank 2 \(host localhost, pid [0-9]+\) exited with status 3$' "$T/err"
check "reported exactly once" [ "$(grep -c '^dsmrun: rank' "$T/err")" -eq 1 ]

# 5. stdin goes to rank 0 only.
echo "line-for-rank-0" | "$DSMRUN" -n 3 sh -c 'read -r x; echo "$DSM_RANK [$x]"' >"$T/out" 2>"$T/err"
check "rank 0 reads dsmrun's stdin" grep -qx '0 \[line-for-rank-0\]' "$T/out"
check "other ranks read nothing" [ "$(grep -c '^[12] \[\]$' "$T/out")" -eq 2 ]

# 6. Output: lines are never mixed, and --tag-output tags each line. The
# lines are longer than PIPE_BUF, so the pipe itself may split them.
run_dsmrun "$T/out" "$T/err" -n 4 sh -c \
  'i=0; l=$(printf "%06000d" 0); while [ $i -lt 100 ]; do echo "R$DSM_RANK $l E"; i=$((i+1)); done'
check "400 whole lines from 4 ranks" \
  [ "$(awk 'length($0) == 6005 && /^R[0-3] 0+ E$/' "$T/out" | wc -l)" -eq 400 -a \
    "$(wc -l <"$T/out")" -eq 400 ]
run_dsmrun "$T/out" "$T/err" -n 3 --tag-output sh -c \
  'echo "out $DSM_RANK"; echo "err $DSM_RANK" >&2; printf "partial $DSM_RANK"'
check "--tag-output tags stdout lines" \
  [ "$(grep -Ec '^\[([0-2])\] (out|partial) \1$' "$T/out")" -eq 6 ]
check "--tag-output tags stderr lines" [ "$(grep -Ec '^\[([0-2])\] err \1$' "$T/err")" -eq 3 ]

# 6b. mpirun's spellings (issue 56): -np N, and -x VAR / -x VAR=VALUE,
# which also replaces an inherited value.
run_dsmrun "$T/out" "$T/err" -np 3 sh -c 'echo "rank $DSM_RANK of $DSM_SIZE"'
check "-np 3 starts 3 ranks ($(head -c 200 "$T/err"))" \
  [ "$RC" -eq 0 -a "$(grep -c ' of 3$' "$T/out")" -eq 3 ]
DSMRUN_X_KEEP=kept DSMRUN_X_OVER=old run_dsmrun "$T/out" "$T/err" -np 2 -x DSMRUN_X_KEEP \
  -x DSMRUN_X_OVER=new -x DSMRUN_X_NEW=fresh sh -c 'echo "$DSMRUN_X_KEEP $DSMRUN_X_OVER $DSMRUN_X_NEW"; env | grep -c "^DSMRUN_X_OVER="'
check "-x: values given, passed on, replaced once" \
  [ "$(sort -u "$T/out" | tr '\n' ' ')" = "1 kept new fresh " ]

# 7. A program that does not exist on the node: exec fails in the child.
run_dsmrun "$T/out" "$T/err" -n 2 sh -c 'exec /nonexistent/prog-$DSM_RANK'
check "exec failure makes the job fail" [ "$RC" -ne 0 ]

finish
