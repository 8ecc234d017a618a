#!/bin/bash
# test_threads.sh DSMRUN [AFFINITY_PROG] — dsmrun --threads T: its checks,
# the DSM_THREADS=T every rank gets (started here, through an exec launcher,
# through ssh) and how it meets an inherited DSM_THREADS or OMP_NUM_THREADS,
# its --help text, and, with the libdsm job AFFINITY_PROG, the CPUs the
# library binds each rank to (T of them when the host has the CPUs).
. "$(dirname "$0")/../lib.sh"
AFFINITY=${2:-}

# Whatever the caller exported must not decide what these jobs see.
unset DSM_THREADS OMP_NUM_THREADS DSM_CPU_BIND

# 1. Bad values are usage errors naming the option; nothing starts.
bad "--threads 0"              "--threads must be at least 1, got 0"       --threads 0 true
bad "--threads 0 with -n"      "--threads must be at least 1, got 0"       -n 2 --threads 0 echo started
bad "--threads x"              "--threads needs a whole number, got 'x'"   -n 2 --threads x echo started
bad "--threads 3x"             "--threads needs a whole number, got '3x'"  -n 2 --threads 3x echo started
bad "--threads 257"            "--threads must be at most 256, got 257"    -n 2 --threads 257 echo started
bad "--threads -1"             "--threads must be at least 1, got -1"      -n 2 --threads -1 echo started
bad "-t 0 names --threads"     "--threads must be at least 1"              -n 2 -t 0 echo started
bad "--threads=0"              "--threads must be at least 1"              -n 2 --threads=0 echo started
bad "--threads without value"  "option --threads needs an argument"        -n 2 --threads
bad "-t without value"         "option -t needs an argument"               -n 2 -t
# An inherited DSM_THREADS is checked the same way, naming the variable.
DSM_THREADS=x bad "DSM_THREADS=x"     "DSM_THREADS needs a whole number, got 'x'" -n 2 echo started
DSM_THREADS=0 bad "DSM_THREADS=0"     "DSM_THREADS must be at least 1, got 0"    -n 2 echo started
DSM_THREADS=999 bad "DSM_THREADS=999" "DSM_THREADS must be at most 256, got 999" -n 2 echo started
# The limits themselves are accepted.
run_dsmrun "$T/out" "$T/err" -n 1 --threads 256 sh -c 'echo "$DSM_THREADS"'
check "--threads 256 is accepted ($(cat "$T/err"))" [ "$RC" -eq 0 -a "$(cat "$T/out")" = 256 ]
run_dsmrun "$T/out" "$T/err" -n 1 --threads=1 sh -c 'echo "$DSM_THREADS"'
check "--threads=1 is accepted" [ "$RC" -eq 0 -a "$(cat "$T/out")" = 1 ]

# 2. Ranks started here. REPORT prints the rank, DSM_THREADS (or unset),
# how many times the name is in the environment the rank was started with
# (the shell would hide a second one; glibc's getenv finds the first), and
# OMP_NUM_THREADS.
REPORT='echo "$DSM_RANK ${DSM_THREADS-unset} $(tr "\0" "\n" </proc/$$/environ | grep -c "^DSM_THREADS=") ${OMP_NUM_THREADS-unset}"'
run_dsmrun "$T/out" "$T/err" -n 2 --threads 3 -- sh -c "$REPORT"
check "--threads 3: every rank sees DSM_THREADS=3 ($(cat "$T/err"))" \
  [ "$RC" -eq 0 -a "$(sort -n "$T/out")" = "$(printf '0 3 1 unset\n1 3 1 unset')" ]
run_dsmrun "$T/out" "$T/err" -n 2 -t 4 sh -c "$REPORT"
check "-t 4 is --threads 4" [ "$(awk '{print $2}' "$T/out" | sort -u)" = 4 ]
run_dsmrun "$T/out" "$T/err" -n 2 sh -c "$REPORT"
check "without --threads or DSM_THREADS, none is set" \
  [ "$(awk '{print $2, $3}' "$T/out" | sort -u)" = "unset 0" ]
DSM_THREADS=2 run_dsmrun "$T/out" "$T/err" -n 2 sh -c "$REPORT"
check "an inherited DSM_THREADS=2 passes through" \
  [ "$RC" -eq 0 -a "$(sort -n "$T/out")" = "$(printf '0 2 1 unset\n1 2 1 unset')" ]
DSM_THREADS=7 run_dsmrun "$T/out" "$T/err" -n 2 --threads 3 sh -c "$REPORT"
check "--threads overrides an inherited DSM_THREADS, which is gone" \
  [ "$(awk '{print $2, $3}' "$T/out" | sort -u)" = "3 1" ]
OMP_NUM_THREADS=5 run_dsmrun "$T/out" "$T/err" -n 2 sh -c "$REPORT"
check "OMP_NUM_THREADS passes through, and dsmrun derives no DSM_THREADS from it" \
  [ "$(awk '{print $2, $3, $4}' "$T/out" | sort -u)" = "unset 0 5" ]
OMP_NUM_THREADS=5 run_dsmrun "$T/out" "$T/err" -n 2 --threads 2 sh -c "$REPORT"
check "OMP_NUM_THREADS passes through beside --threads" \
  [ "$(awk '{print $2, $3, $4}' "$T/out" | sort -u)" = "2 1 5" ]

# 3. A launcher that execs its arguments (env(1) stands in for ip netns exec).
DSM_THREADS=7 run_dsmrun "$T/out" "$T/err" -n 2 --host localhost:2 \
  --launcher 'env DSMRUN_TEST_HOST={host}' --threads 3 sh -c "$REPORT"
check "exec launcher: --threads 3 reaches every rank ($(cat "$T/err"))" \
  [ "$RC" -eq 0 -a "$(awk '{print $2, $3}' "$T/out" | sort -u)" = "3 1" ]

# 4. The ssh path, with a stand-in ssh first in PATH that runs the command
# as sshd would: through a shell, in a fresh environment.
mkdir -p "$T/bin" "$T/home"
cat >"$T/bin/ssh" <<SSH
#!/bin/bash
# stand-in ssh: ssh [-o X]... HOST COMMAND...
while [ "\$1" = -o ]; do shift 2; done
shift
cd "$T/home" && exec env -i HOME="$T/home" PATH=/usr/bin:/bin sh -c "\$*"
SSH
chmod +x "$T/bin/ssh"
printf 'far1 slots=2 addr=192.0.2.1\nfar2 addr=192.0.2.2\n' >"$T/far-hosts"
PATH="$T/bin:$PATH" run_dsmrun "$T/out" "$T/err" -n 3 --hostfile "$T/far-hosts" --threads 3 \
  sh -c "$REPORT"
check "ssh: --threads 3 reaches every rank ($(cat "$T/err"))" \
  [ "$RC" -eq 0 -a "$(wc -l <"$T/out")" -eq 3 -a "$(awk '{print $2, $3}' "$T/out" | sort -u)" = "3 1" ]
# The forwarded settings come after the job's variables on the remote
# command line, so a stale DSM_THREADS among them would win there.
PATH="$T/bin:$PATH" DSM_THREADS=7 OMP_NUM_THREADS=6 run_dsmrun "$T/out" "$T/err" -n 3 \
  --hostfile "$T/far-hosts" --threads 3 sh -c "$REPORT"
check "ssh: --threads overrides an inherited DSM_THREADS" \
  [ "$(wc -l <"$T/out")" -eq 3 -a "$(awk '{print $2, $3, $4}' "$T/out" | sort -u)" = "3 1 6" ]
PATH="$T/bin:$PATH" DSM_THREADS=2 OMP_NUM_THREADS=6 run_dsmrun "$T/out" "$T/err" -n 3 \
  --hostfile "$T/far-hosts" sh -c "$REPORT"
check "ssh: an inherited DSM_THREADS and OMP_NUM_THREADS are carried over" \
  [ "$(wc -l <"$T/out")" -eq 3 -a "$(awk '{print $2, $3, $4}' "$T/out" | sort -u)" = "2 1 6" ]

# 5. --help.
"$DSMRUN" --help >"$T/help" 2>&1
check "--help mentions -t, --threads" grep -Eq -- '^ +-t, --threads T ' "$T/help"
check "--help names DSM_THREADS" grep -q 'DSM_THREADS' "$T/help"
check "--help says how OpenMP numbers the threads" grep -q 'r\*T+t' "$T/help"
check "--help says what OMP_NUM_THREADS does without it" grep -q 'ceil(M/N)' "$T/help"

# 6. Binding (dsm/bind.c): rank r of a host with N ranks of T threads each
# is bound to the T allowed CPUs from the (r*T)-th on (counting round) when
# 2 <= N*T <= the CPUs this test may use; otherwise it may use all of them.
if [ -n "$AFFINITY" ]; then
  # The CPUs this test may use, as an unbound job sees them.
  run_dsmrun "$T/out" "$T/err" -n 1 --timeout 10 --max-time 60 "$AFFINITY"
  check "affinity job of one ($(head -c 300 "$T/err"))" [ "$RC" -eq 0 ]
  IFS=, read -r -a CPUS <<<"$(awk '{print $3}' "$T/out")"
  NCPU=${#CPUS[@]}
  ALL=$(IFS=,; echo "${CPUS[*]}")
  check "a job of one thread is not bound" [ "$NCPU" -ge 1 -a "$(cat "$T/out")" = "0 $NCPU $ALL" ]
  # unbound N: the lines "rank count list" of N ranks that may use every CPU.
  unbound() {
    local r
    for ((r = 0; r < $1; r++)); do echo "$r $NCPU $ALL"; done
  }
  # expected N T: the lines of N ranks of T threads each.
  expected() {
    local n=$1 t=$2 r k
    if [ $((n * t)) -lt 2 ] || [ $((n * t)) -gt "$NCPU" ]; then
      unbound "$n"
      return
    fi
    for ((r = 0; r < n; r++)); do
      echo "$r $t $(for ((k = 0; k < t; k++)); do echo "${CPUS[$(( (r * t + k) % NCPU ))]}"; done |
                     sort -n | paste -sd,)"
    done
  }
  # same NAME WANT: the job's sorted output is WANT; shows both when not.
  same() {
    local got
    got=$(sort -n "$T/out")
    if [ "$RC" -eq 0 ] && [ "$got" = "$2" ]; then
      pass "$1"
    else
      fail "$1: status $RC, got [$got], want [$2], stderr: $(head -c 300 "$T/err")"
    fi
  }
  for nt in "2 1" "1 2" "2 2" "3 1" "1 3" "2 3"; do
    read -r n t <<<"$nt"
    run_dsmrun "$T/out" "$T/err" -n "$n" --threads "$t" --timeout 10 --max-time 60 "$AFFINITY"
    same "bind -n $n --threads $t on $NCPU CPUs" "$(expected "$n" "$t")"
  done
  # Without --threads, OMP_NUM_THREADS=M asks for ceil(M/N) threads a
  # process (dsm/threads.c), and binding counts them.
  OMP_NUM_THREADS=3 run_dsmrun "$T/out" "$T/err" -n 2 --timeout 10 --max-time 60 "$AFFINITY"
  same "bind -n 2 with OMP_NUM_THREADS=3 (2 threads a process) on $NCPU CPUs" "$(expected 2 2)"
  run_dsmrun "$T/out" "$T/err" -n 2 --bind-to none --timeout 10 --max-time 60 "$AFFINITY"
  same "--bind-to none binds nothing" "$(unbound 2)"
fi

finish
