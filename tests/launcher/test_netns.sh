#!/bin/bash
# test_netns.sh DSMRUN LIFELINE_PROG [HELLO_PROG] — a job spread over three
# network namespaces ("hosts") joined by a bridge, started through
# --launcher 'ip netns exec {host}'. Proves that each rank runs in the
# namespace the hostfile gives it, with the master's address from addr=,
# that the lifeline survives ip netns exec, and (with HELLO_PROG, a libdsm
# program) that a real job runs across the namespaces.
#
# Needs root and ip netns; exits 77 (skipped) otherwise. All names carry
# this shell's pid so that parallel runs do not collide; the addresses
# (10.77.0.0/24) exist only inside this test's namespaces.
. "$(dirname "$0")/../lib.sh"
PROG=${2:?usage: $0 DSMRUN LIFELINE_PROG [HELLO_PROG]}
HELLO=${3:-}

need_root_netns

ADDR=(10.77.0.11 10.77.0.12 10.77.0.13)
if ! netns_hosts ds "${ADDR[@]}"; then
  skip "cannot create namespaces, veth pairs or a bridge here"
fi

cat >"$T/hosts" <<HOSTS
# three namespaces standing in for three workstations
${NS[0]} slots=2 addr=${ADDR[0]}
${NS[1]} slots=1 addr=${ADDR[1]}
${NS[2]} slots=1 addr=${ADDR[2]}
HOSTS
LAUNCH='ip netns exec {host}'

# 1. Where does each rank run?
run_dsmrun "$T/out" "$T/err" -n 4 --hostfile "$T/hosts" --launcher "$LAUNCH" --max-time 30 \
  bash -c 'echo "$DSM_RANK $(ip netns identify $$) $(ip -4 -o addr show dev eth0 | awk "{print \$4}") $DSM_MASTER $DSM_LIFELINE"'
check "netns job exits 0 ($(head -c 300 "$T/err"))" [ "$RC" -eq 0 ]
check "4 ranks reported" [ "$(wc -l <"$T/out")" -eq 4 ]
expect="0 ${NS[0]} ${ADDR[0]}/24
1 ${NS[0]} ${ADDR[0]}/24
2 ${NS[1]} ${ADDR[1]}/24
3 ${NS[2]} ${ADDR[2]}/24"
check "each rank in its namespace with its address" \
  [ "$(sort -n "$T/out" | awk '{print $1, $2, $3}')" = "$expect" ]
check "DSM_MASTER is ${ADDR[0]}:port" \
  [ "$(awk '{print $4}' "$T/out" | sort -u | grep -Ec "^${ADDR[0]//./\\.}:[0-9]{5}\$")" -eq 1 ]
check "fd lifeline through ip netns exec" [ "$(awk '{print $5}' "$T/out" | sort -u)" = 3 ]

# 2. A failing rank in one namespace stops the others.
MARK="dsmrun-netns-test-$$-$RANDOM"
run_dsmrun "$T/out" "$T/err" -n 4 --hostfile "$T/hosts" --launcher "$LAUNCH" --max-time 30 \
  sh -c '[ "$DSM_RANK" = 3 ] && exit 9; sleep 1000' "$MARK"
check "remote failure: status 9" [ "$RC" -eq 9 ]
check "remote failure: host named" \
  grep -Eq "^dsmrun: rank 3 \\(host ${NS[2]}, pid [0-9]+\\) exited with status 9\$" "$T/err"
check "remote failure: down in under 5 s (${MS} ms)" [ "$MS" -lt 5000 ]
check "remote failure: no process left" no_process "$MARK"

# 3. The lifeline reaches ranks inside namespaces: kill -9 dsmrun.
mkfifo "$T/report"
exec 7<>"$T/report"
"$DSMRUN" -n 4 --hostfile "$T/hosts" --launcher "$LAUNCH" "$PROG" "$T/report" 20 \
  >"$T/lout" 2>"$T/lerr" </dev/null &
dpid=$!
CLEANUP+=("kill -9 $dpid 2>/dev/null")
read_lines 7 4 10
check "lifeline ranks up in the namespaces" [ "${#LINES[@]}" -eq 4 ]
kill -9 $dpid
wait $dpid 2>/dev/null
read_lines 7 4 5
check "all 4 ranks saw the lifeline close" \
  [ "$(printf '%s\n' "${LINES[@]}" | grep -c '^gone')" -eq 4 ]

# 4. A libdsm job across the namespaces.
if [ -n "$HELLO" ]; then
  run_dsmrun "$T/out" "$T/err" -n 4 --hostfile "$T/hosts" --launcher "$LAUNCH" \
    --timeout 10 --max-time 60 "$HELLO"
  check "libdsm hello across namespaces exits 0 ($(head -c 300 "$T/err"))" [ "$RC" -eq 0 ]
  check "libdsm hello: 4 greetings" \
    [ "$(grep -Ec '^hello from [0-3] of 4$' "$T/out")" -eq 4 ]
fi

finish
