# lib.sh — the harness of the shell tests that run real dsmrun jobs
# (tests/launcher, tests/faults). Sourced by bash as the first line of a test:
#   . "$(dirname "$0")/../lib.sh"
# It gives every test the same prologue and the same way of reporting:
#   DSMRUN   path of the dsmrun under test ($1 of every test)
#   T        a private temporary directory, removed on exit
#   CLEANUP  commands run, last first, on every exit path (like a defer)
#   check/pass/fail/finish, skip, run_dsmrun, processes, namespaces
# Helpers that only one suite needs stay in that suite's folder.
set -u
DSMRUN=$(realpath -- "${1:?usage: $0 DSMRUN [...]}")
# The suite's name in the directory's name says whose leftovers these are.
T=$(mktemp -d "${TMPDIR:-/tmp}/dsm-$(basename "$(dirname "$0")").XXXXXX")
CLEANUP=()
cleanup() {
  local i
  for ((i = ${#CLEANUP[@]} - 1; i >= 0; i--)); do eval "${CLEANUP[$i]}" || true; done
  rm -rf "$T"
}
# Signals become exits, so that a test stopped by meson's timeout (TERM) or
# by hand still runs the EXIT trap and removes what it made.
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- reporting ------------------------------------------------------------

FAILS=0
PASSES=0
fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }
pass() { echo "ok: $*"; PASSES=$((PASSES + 1)); }

# bad CASE-NAME EXPECTED-MESSAGE-REGEX ARGS...: dsmrun ARGS is a usage
# error: status 2, one line "dsmrun: error: ..." matching the regex, and
# nothing on stdout (test_usage.sh, test_threads.sh).
bad() {
  local name=$1 re=$2; shift 2
  "$DSMRUN" "$@" >"$T/out" 2>"$T/err" </dev/null
  local rc=$?
  if [ $rc -eq 2 ] && grep -Eq "^dsmrun: error: .*$re" "$T/err" && [ ! -s "$T/out" ] \
     && [ "$(wc -l <"$T/err")" -eq 1 ]; then
    pass "$name"
  else
    fail "$name: status $rc, stdout: $(head -c 200 "$T/out"), stderr: $(cat "$T/err")"
  fi
}
# check DESCRIPTION COMMAND...: pass when COMMAND succeeds.
check() { local d=$1; shift; if "$@"; then pass "$d"; else fail "$d"; fi; }
# skip REASON: this machine cannot run the test; 77 is meson's "skipped".
skip() { echo "skip: $*"; exit 77; }

# grep_q PATTERN FILE: extended grep, quiet; shows FILE's head on failure.
grep_q() {
  grep -Eq -- "$1" "$2" && return 0
  echo "--- no /$1/ in $2:" >&2; head -c 1500 "$2" >&2; echo >&2
  return 1
}

finish() {
  echo "$PASSES passed, $FAILS failed"
  [ "$FAILS" -eq 0 ]
  exit $?
}

# ---- running jobs ---------------------------------------------------------

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# run_timed OUT ERR COMMAND...: run COMMAND with stdin from /dev/null;
# record its status in $RC, the elapsed wall time in milliseconds in $MS,
# and when it ended (date +%s%N) in $END_NS.
run_timed() {
  local out=$1 err=$2; shift 2
  local t0 t1
  t0=$(date +%s%N)
  "$@" >"$out" 2>"$err" </dev/null
  RC=$?
  t1=$(date +%s%N)
  MS=$(( (t1 - t0) / 1000000 ))
  END_NS=$t1
}

# run_dsmrun OUT ERR ARGS...: run_timed of the dsmrun under test.
run_dsmrun() {
  local out=$1 err=$2; shift 2
  run_timed "$out" "$err" "$DSMRUN" "$@"
}

# read_lines FD COUNT SECONDS: read COUNT lines from FD (a FIFO the job
# writes to) into the array LINES, blocking at most SECONDS per line.
read_lines() {
  local fd=$1 count=$2 secs=$3 line i
  LINES=()
  for ((i = 0; i < count; i++)); do
    IFS= read -r -t "$secs" -u "$fd" line || return 1
    LINES+=("$line")
  done
}

# ---- processes ------------------------------------------------------------

# marked EXE: a symlink to EXE whose path carries this test's pid and a
# random number, so that pgrep -f finds exactly this test's processes.
marked() {
  local l="$T/m$$-$RANDOM-$(basename "$1")"
  ln -s "$(realpath -- "$1")" "$l"
  echo "$l"
}

# no_process MARK: no process has MARK in its command line. A process that
# was just SIGKILLed may take a moment to leave the process table, so look
# again (at most 2 s) before concluding that something was left behind.
no_process() {
  local i
  for ((i = 0; i < 20; i++)); do
    pgrep -f -- "$1" >/dev/null || return 0
    sleep 0.1
  done
  echo "left behind:" >&2
  pgrep -a -f -- "$1" >&2
  return 1
}

# ---- network namespaces as hosts ------------------------------------------

# need_root_netns: skip unless this test may create network namespaces.
need_root_netns() {
  [ "$(id -u)" -eq 0 ] || skip "needs root"
  command -v ip >/dev/null && ip netns list >/dev/null 2>&1 || skip "ip netns is not available"
}

# netns_hosts PREFIX ADDR...: a bridge and one network namespace per ADDR,
# to stand in for workstations under --launcher 'ip netns exec {host}'.
# Namespace i is joined to the bridge by a veth pair whose inner end is
# eth0 with ADDR/24 (lo is up too). Sets BR (the bridge), NS (namespace
# names) and VETH (the bridge-side ends, where a test may shape the link).
# Every name carries PREFIX and this shell's pid, so that parallel runs do
# not collide; interface names stay within 15 characters for PREFIX of two.
# Removal is registered in CLEANUP before anything is made. Returns
# non-zero when something cannot be made.
netns_hosts() {
  local prefix=$1 letters=ABCDEFGHIJKLMNOPQRSTUVWXYZ i; shift
  local addr=("$@")
  BR="${prefix}b$$"
  NS=()
  VETH=()
  CLEANUP+=("ip link del $BR 2>/dev/null")
  for i in "${!addr[@]}"; do
    NS+=("${prefix}${letters:i:1}$$")
    VETH+=("${prefix}v$$$i")
    CLEANUP+=("ip netns del ${NS[$i]} 2>/dev/null" "ip link del ${VETH[$i]} 2>/dev/null")
  done
  ip link add "$BR" type bridge || return 1
  ip link set "$BR" up || return 1
  for i in "${!addr[@]}"; do
    ip netns add "${NS[$i]}" || return 1
    ip link add "${VETH[$i]}" type veth peer name eth0 netns "${NS[$i]}" || return 1
    ip link set "${VETH[$i]}" master "$BR" up || return 1
    ip -n "${NS[$i]}" addr add "${addr[$i]}/24" dev eth0 || return 1
    ip -n "${NS[$i]}" link set eth0 up || return 1
    ip -n "${NS[$i]}" link set lo up || return 1
  done
}
