#!/bin/bash
# test_ssh.sh DSMRUN LIFELINE_PROG [HELLO_PROG] — ranks started through a
# real sshd on loopback: the explicit --launcher form, the default ssh path
# (DSMRUN_SSH plus an ssh config), the stdin lifeline of ssh-started ranks,
# and failure handling across ssh.
#
# The sshd is private to this test: its own host key, authorized key, config
# and random port in a temporary directory, run in the foreground (-D) as a
# child of this script and killed on exit. Exits 77 (skipped) when there is
# no sshd or it cannot start, printing why.
. "$(dirname "$0")/../lib.sh"
PROG=${2:?usage: $0 DSMRUN LIFELINE_PROG [HELLO_PROG]}
HELLO=${3:-}

SSHD=/usr/sbin/sshd
if [ ! -x "$SSHD" ] || ! command -v ssh >/dev/null || ! command -v ssh-keygen >/dev/null; then
  skip "openssh-server or openssh-client is not installed"
fi
# sshd insists on its privilege-separation directory.
[ -d /run/sshd ] || mkdir -p -m 0755 /run/sshd 2>/dev/null

ssh-keygen -q -t ed25519 -N '' -f "$T/hostkey" -C dsmrun-test-host || exit 1
ssh-keygen -q -t ed25519 -N '' -f "$T/userkey" -C dsmrun-test-user || exit 1
cp "$T/userkey.pub" "$T/authorized_keys"
chmod 600 "$T/authorized_keys"
USER_NAME=$(id -un)

start_sshd() {
  local attempt i
  for attempt in 1 2 3 4 5; do
    PORT=$((30000 + RANDOM % 30000))
    cat >"$T/sshd_config" <<CONF
Port $PORT
ListenAddress 127.0.0.1
HostKey $T/hostkey
AuthorizedKeysFile $T/authorized_keys
PidFile none
UsePAM no
StrictModes no
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
AllowUsers $USER_NAME
MaxStartups 64
MaxSessions 64
LogLevel INFO
CONF
    : >"$T/sshd.log"
    "$SSHD" -D -e -f "$T/sshd_config" 2>"$T/sshd.log" &
    SSHD_PID=$!
    # sshd says when it listens; wait for that (bounded) or for it to die.
    for ((i = 0; i < 100; i++)); do
      grep -q "Server listening on 127.0.0.1 port $PORT" "$T/sshd.log" && return 0
      kill -0 $SSHD_PID 2>/dev/null || break
      sleep 0.05
    done
    kill $SSHD_PID 2>/dev/null; wait $SSHD_PID 2>/dev/null
  done
  return 1
}
if ! start_sshd; then
  skip "sshd does not start here: $(cat "$T/sshd.log")"
fi
CLEANUP+=("kill $SSHD_PID 2>/dev/null; wait $SSHD_PID 2>/dev/null")

SSH_OPTS="-p $PORT -i $T/userkey -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes"
if ! ssh $SSH_OPTS 127.0.0.1 true </dev/null 2>"$T/ssh-probe.err"; then
  skip "ssh to the test sshd fails: $(cat "$T/ssh-probe.err" "$T/sshd.log")"
fi

# What a rank reports: rank, whether it came through sshd, its lifeline,
# what its stdin is.
REPORT='echo "$DSM_RANK ${SSH_CONNECTION:+viassh} ${DSM_LIFELINE-unset} $(readlink /proc/self/fd/0 | cut -c1-5) $DSM_SIZE"'

# 1. --launcher 'ssh ... {host}'.
run_dsmrun "$T/out" "$T/err" -n 3 --host 127.0.0.1:3 --max-time 60 \
  --launcher "ssh $SSH_OPTS {host}" sh -c "$REPORT"
check "launcher ssh job exits 0 ($(head -c 300 "$T/err"))" [ "$RC" -eq 0 ]
check "launcher ssh: every rank came through sshd, stdin lifeline on 1 and 2" \
  [ "$(sort -n "$T/out")" = "0 viassh unset pipe: 3
1 viassh 0 pipe: 3
2 viassh 0 pipe: 3" ]

# 1b. -x (issue 56): sshd gives a fresh environment, so a variable that is
# not DSM_* or OMP_* reaches the ranks only when -x names it, with dsmrun's
# value or the one given.
DSMRUN_X_TEST=from-dsmrun run_dsmrun "$T/out" "$T/err" -n 2 --host 127.0.0.1:2 --max-time 60 \
  --launcher "ssh $SSH_OPTS {host}" -x DSMRUN_X_TEST -x DSMRUN_X_SET=given \
  sh -c 'echo "$DSM_RANK ${SSH_CONNECTION:+viassh} $DSMRUN_X_TEST $DSMRUN_X_SET"'
check "-x through ssh ($(head -c 300 "$T/err"))" \
  [ "$(sort -n "$T/out")" = "0 viassh from-dsmrun given
1 viassh from-dsmrun given" ]
DSMRUN_X_TEST=from-dsmrun run_dsmrun "$T/out" "$T/err" -n 1 --host 127.0.0.1 --max-time 60 \
  --launcher "ssh $SSH_OPTS {host}" sh -c 'echo "[${DSMRUN_X_TEST-unset}]"'
check "without -x, sshd's fresh environment lacks it" [ "$(cat "$T/out")" = "[unset]" ]

# 2. The default path: no --launcher; the host is not this machine's name,
# so dsmrun runs $DSMRUN_SSH HOST ...; the ssh config maps the host alias.
ALIAS="dsmrun-test-$$"
cat >"$T/ssh_config" <<CONF
Host $ALIAS
  HostName 127.0.0.1
  Port $PORT
  User $USER_NAME
  IdentityFile $T/userkey
  StrictHostKeyChecking no
  UserKnownHostsFile /dev/null
  LogLevel ERROR
  BatchMode yes
CONF
printf '%s slots=4 addr=127.0.0.1\n' "$ALIAS" >"$T/hosts"
DSMRUN_SSH="ssh -F $T/ssh_config" run_dsmrun "$T/out" "$T/err" -n 3 --hostfile "$T/hosts" \
  --max-time 60 sh -c "$REPORT"
check "default ssh path exits 0 ($(head -c 300 "$T/err"))" [ "$RC" -eq 0 ]
check "default ssh path: ranks came through sshd" \
  [ "$(sort -n "$T/out")" = "0 viassh unset pipe: 3
1 viassh 0 pipe: 3
2 viassh 0 pipe: 3" ]

# 3. A rank fails; the others (which watch their stdin lifeline, as libdsm
# does) must stop when dsmrun kills their ssh and the connection closes.
mkfifo "$T/report"
exec 7<>"$T/report"
MARK="dsmrun-ssh-test-$$-$RANDOM"
run_dsmrun "$T/out" "$T/err" -n 3 --host 127.0.0.1:3 --max-time 60 \
  --launcher "ssh $SSH_OPTS {host}" sh -c \
  '[ "$DSM_RANK" = 0 ] && { sleep 1; date +%s%N >"$3"; exit 5; }; exec "$2" "$1" 20' \
  "$MARK" "$T/report" "$PROG" "$T/failed_at"
check "ssh failure: status 5" [ "$RC" -eq 5 ]
check "ssh failure: rank 0 named" grep -Eq '^dsmrun: rank 0 \(host 127.0.0.1, pid [0-9]+\) exited with status 5$' "$T/err"
# Measured from the failure, not from the start: ssh logins are slow on a
# loaded machine.
down_ms=$(( (END_NS - $(cat "$T/failed_at")) / 1000000 ))
check "ssh failure: down within 5 s of the failure (${down_ms} ms)" [ "$down_ms" -lt 5000 ]
read_lines 7 4 5     # ready 1, ready 2, gone 1, gone 2 in some order
check "ssh failure: remote ranks saw their lifeline close" \
  [ "$(printf '%s\n' "${LINES[@]}" | grep -c '^gone [12]$')" -eq 2 ]
check "ssh failure: no process left" no_process "$MARK"

# 4. kill -9 dsmrun: ranks 1.. see EOF on stdin once their ssh clients lose
# dsmrun's end of the pipe. (Rank 0's stdin is dsmrun's own, so an
# ssh-started rank 0 learns of it only through the library's peer timeout;
# this test's rank 0 just waits and is cleaned up below.)
"$DSMRUN" -n 3 --host 127.0.0.1:3 --launcher "ssh $SSH_OPTS {host}" sh -c \
  '[ "$DSM_RANK" = 0 ] && { echo $$ >"$3"; exec sleep 60; }; exec "$2" "$1" 20' \
  "$MARK" "$T/report" "$PROG" "$T/rank0.pid" \
  >"$T/out" 2>"$T/err" </dev/null &
dpid=$!
CLEANUP+=("kill -9 $dpid 2>/dev/null" "[ -s $T/rank0.pid ] && kill \$(cat $T/rank0.pid) 2>/dev/null")
read_lines 7 2 15
check "kill -9 dsmrun: ranks 1 and 2 up" [ "$(printf '%s\n' "${LINES[@]}" | grep -c '^ready')" -eq 2 ]
kill -9 $dpid
wait $dpid 2>/dev/null
read_lines 7 2 10
check "kill -9 dsmrun: ranks 1 and 2 saw their lifeline close" \
  [ "$(printf '%s\n' "${LINES[@]}" | grep -c '^gone [12]$')" -eq 2 ]
# Rank 0 (started by sshd, so not our child) wrote its pid.
[ -s "$T/rank0.pid" ] && kill "$(cat "$T/rank0.pid")" 2>/dev/null

# 5. A libdsm job over ssh.
if [ -n "$HELLO" ]; then
  run_dsmrun "$T/out" "$T/err" -n 3 --host 127.0.0.1:3 --launcher "ssh $SSH_OPTS {host}" \
    --timeout 10 --max-time 60 "$HELLO"
  check "libdsm hello over ssh exits 0 ($(head -c 300 "$T/err"))" [ "$RC" -eq 0 ]
  check "libdsm hello over ssh: 3 greetings" [ "$(grep -Ec '^hello from [0-2] of 3$' "$T/out")" -eq 3 ]
fi

finish
