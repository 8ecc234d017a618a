#!/bin/bash
# test_hosts.sh DSMRUN — rank placement, hostfile parsing, the launcher
# template and the ssh command line, without any real remote host: the
# "launcher" is env(1), which execs its arguments like ip netns exec does,
# and "ssh" is a stand-in script that runs the command string with sh -c
# the way sshd hands it to the remote user's shell.
. "$(dirname "$0")/../lib.sh"

cat >"$T/hosts" <<'HOSTS'
# a comment line, then hosts as mpirun writes them, plus addr=
nsA slots=2 addr=10.77.0.11   # trailing comment
nsB addr=10.77.0.12

nsC slots=1 max_slots=4 addr=10.77.0.13
HOSTS

# 1. Placement: fill slots in order (A A B C), then round-robin (A B C A ...).
run_dsmrun "$T/out" "$T/err" -n 7 --hostfile "$T/hosts" --launcher 'env DSMRUN_TEST_HOST={host}' \
  sh -c 'echo "$DSM_RANK $DSMRUN_TEST_HOST $DSM_MASTER $DSM_LIFELINE"'
check "hostfile job exits 0" [ "$RC" -eq 0 ]
check "placement A A B C A B C" \
  [ "$(sort -n "$T/out" | awk '{printf "%s ", $2}')" = "nsA nsA nsB nsC nsA nsB nsC " ]
check "DSM_MASTER is rank 0's addr= with a port" \
  [ "$(awk '{print $3}' "$T/out" | sort -u | grep -Ec '^10\.77\.0\.11:[0-9]{5}$')" -eq 1 ]
check "exec launchers get the fd lifeline" [ "$(awk '{print $4}' "$T/out" | sort -u)" = 3 ]

# 2. --host with slots; duplicate names add up.
run_dsmrun "$T/out" "$T/err" -n 5 --host localhost:2,127.0.0.1,localhost \
  --launcher 'env DSMRUN_TEST_HOST={host}' sh -c 'echo "$DSM_RANK $DSMRUN_TEST_HOST $DSM_MASTER"'
check "--host placement" \
  [ "$(sort -n "$T/out" | awk '{printf "%s ", $2}')" = "localhost localhost localhost 127.0.0.1 localhost " ]
check "--host localhost resolves to 127.0.0.1" \
  [ "$(awk '{print $3}' "$T/out" | sort -u | cut -d: -f1)" = 127.0.0.1 ]

# 3. {host} inside a word, and quoted template words.
run_dsmrun "$T/out" "$T/err" -n 2 --hostfile "$T/hosts" \
  --launcher "env 'DSMRUN_TEST_HOST=at {host} here'" sh -c 'echo "$DSMRUN_TEST_HOST"'
check "{host} replaced inside a quoted word" [ "$(sort -u "$T/out")" = "at nsA here" ]

# 4. Hosts that are this machine run locally without a launcher.
run_dsmrun "$T/out" "$T/err" -n 3 --host localhost:3 sh -c 'echo "$DSM_RANK $DSM_LIFELINE $PPID"'
check "localhost ranks start directly" [ "$RC" -eq 0 -a "$(awk '{print $2}' "$T/out" | sort -u)" = 3 ]

# 5. The default ssh path, with a stand-in ssh first in PATH. It logs its
# arguments and runs the command as sshd would (through a shell, in $HOME).
mkdir -p "$T/bin" "$T/home" "$T/work dir"
cat >"$T/bin/ssh" <<SSH
#!/bin/bash
# stand-in ssh: ssh [-o X]... HOST COMMAND...
args=("\$@")
while [ "\$1" = -o ]; do shift 2; done
host=\$1; shift
printf '%s\n' "\${args[*]}" >>"$T/ssh.log"
cd "$T/home" && exec env -i HOME="$T/home" PATH=/usr/bin:/bin FAKE_HOST="\$host" sh -c "\$*"
SSH
chmod +x "$T/bin/ssh"
printf 'far1 slots=2 addr=192.0.2.1\nfar2 addr=192.0.2.2\n' >"$T/far-hosts"
( cd "$T/work dir" &&
  PATH="$T/bin:$PATH" DSM_DEBUG=7 OMP_NUM_THREADS=2 UNRELATED=x \
  "$DSMRUN" -n 3 --hostfile "$T/far-hosts" --stats sh -c \
    'echo "$DSM_RANK|$FAKE_HOST|${DSM_LIFELINE-unset}|$DSM_DEBUG|$OMP_NUM_THREADS|${UNRELATED-unset}|$DSM_STATS|$(pwd)|$(readlink /proc/self/fd/0 | cut -c1-5)|$1"' \
    zero "it's a \"quoted\" \$arg" ) >"$T/out" 2>"$T/err" </dev/null
RC=$?
check "ssh job exits 0 ($(cat "$T/err"))" [ "$RC" -eq 0 ]
check "ssh runs with BatchMode" [ "$(grep -c '^-o BatchMode=yes far[12] ' "$T/ssh.log")" -eq 3 ]
check "ranks went to far1 far1 far2" \
  [ "$(sort -n "$T/out" | cut -d'|' -f2 | tr '\n' ' ')" = "far1 far1 far2 " ]
check "rank 0 has no lifeline, others DSM_LIFELINE=0" \
  [ "$(sort -n "$T/out" | cut -d'|' -f3 | tr '\n' ' ')" = "unset 0 0 " ]
check "ssh ranks other than 0 read the lifeline pipe on stdin" \
  [ "$(sort -n "$T/out" | cut -d'|' -f9 | tr '\n' ' ')" = "/dev/ pipe: pipe: " ]
check "DSM_* and OMP_* forwarded, the rest not" \
  [ "$(cut -d'|' -f4-7 "$T/out" | sort -u)" = "7|2|unset|1" ]
check "remote ranks start in the same directory" \
  [ "$(cut -d'|' -f8 "$T/out" | sort -u)" = "$T/work dir" ]
check "arguments survive the remote shell" \
  [ "$(cut -d'|' -f10 "$T/out" | sort -u)" = "it's a \"quoted\" \$arg" ]

# 6. DSMRUN_SSH replaces the ssh command; a failing remote rank is reported
# with its host name.
# The use of DSMRUN_SSH is counted on a job that succeeds: in a failing job
# dsmrun may stop the other ranks' ssh before they log their start.
: > "$T/ssh.log"
PATH="$T/bin:$PATH" DSMRUN_SSH="ssh -o Fake=1" run_dsmrun "$T/out" "$T/err" -n 3 \
  --hostfile "$T/far-hosts" true
check "DSMRUN_SSH is used" [ "$(grep -c '^-o Fake=1 far' "$T/ssh.log")" -eq 3 ]
PATH="$T/bin:$PATH" DSMRUN_SSH="ssh -o Fake=1" run_dsmrun "$T/out" "$T/err" -n 3 \
  --hostfile "$T/far-hosts" sh -c '[ "$DSM_RANK" = 2 ] && exit 4; exit 0'
check "remote failure: status 4" [ "$RC" -eq 4 ]
check "remote failure names host far2" grep -Eq '^dsmrun: rank 2 \(host far2, pid [0-9]+\) exited with status 4$' "$T/err"

finish
