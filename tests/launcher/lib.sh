# lib.sh — helpers sourced by the launcher tests (bash).
#   DSMRUN   path of the dsmrun under test ($1 of every test)
#   T        a private temporary directory, removed on exit
set -u
DSMRUN=$(realpath -- "${1:?usage: $0 DSMRUN [...]}")
T=$(mktemp -d "${TMPDIR:-/tmp}/dsmrun-test.XXXXXX")
CLEANUP=()
cleanup() {
  local c
  for c in "${CLEANUP[@]}"; do eval "$c" || true; done
  rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

FAILS=0
PASSES=0
fail() { echo "FAIL: $*" >&2; FAILS=$((FAILS + 1)); }
pass() { echo "ok: $*"; PASSES=$((PASSES + 1)); }
# check DESCRIPTION COMMAND...: pass when COMMAND succeeds.
check() { local d=$1; shift; if "$@"; then pass "$d"; else fail "$d"; fi; }

# run_dsmrun OUT ERR ARGS...: run dsmrun, record status in $RC, the
# elapsed wall time in milliseconds in $MS, and when it ended (date +%s%N)
# in $END_NS.
run_dsmrun() {
  local out=$1 err=$2; shift 2
  local t0 t1
  t0=$(date +%s%N)
  "$DSMRUN" "$@" >"$out" 2>"$err" </dev/null
  RC=$?
  t1=$(date +%s%N)
  MS=$(( (t1 - t0) / 1000000 ))
  END_NS=$t1
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

finish() {
  echo "$PASSES passed, $FAILS failed"
  [ "$FAILS" -eq 0 ]
  exit $?
}
