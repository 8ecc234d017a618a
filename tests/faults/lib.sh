# lib.sh — helpers sourced by the fault-injection tests (bash).
#   DSMRUN   path of the dsmrun under test ($1 of every test)
#   T        a private temporary directory, removed on exit
#   CLEANUP  commands run (last first) on every exit path
set -u
DSMRUN=$(realpath -- "${1:?usage: $0 DSMRUN [...]}")
T=$(mktemp -d "${TMPDIR:-/tmp}/dsm-faults.XXXXXX")
CLEANUP=()
cleanup() {
  local i
  for ((i = ${#CLEANUP[@]} - 1; i >= 0; i--)); do eval "${CLEANUP[$i]}" || true; done
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

need_root_netns_tc() {
  if [ "$(id -u)" -ne 0 ]; then echo "skip: needs root"; exit 77; fi
  if ! command -v ip >/dev/null || ! ip netns list >/dev/null 2>&1; then
    echo "skip: ip netns is not available"; exit 77
  fi
  if ! command -v tc >/dev/null; then echo "skip: tc is not available"; exit 77; fi
}

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# run_dsmrun OUT ERR ARGS...: run dsmrun; status in $RC, wall time in $MS.
run_dsmrun() {
  local out=$1 err=$2; shift 2
  local t0
  t0=$(now_ms)
  "$DSMRUN" "$@" >"$out" 2>"$err" </dev/null
  RC=$?
  MS=$(( $(now_ms) - t0 ))
}

# marked EXE: a symlink to EXE whose path carries this test's pid and a
# random number, so that pgrep -f finds exactly this test's processes.
marked() {
  local l="$T/m$$-$RANDOM-$(basename "$1")"
  ln -s "$(realpath -- "$1")" "$l"
  echo "$l"
}

# no_process MARK: no process has MARK in its command line (look again for
# at most 2 s: a process just killed may linger in the process table).
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

# wait_files DIR COUNT SECONDS: wait until DIR holds COUNT files rank.*.
wait_files() {
  local i
  for ((i = 0; i < $3 * 10; i++)); do
    [ "$(ls "$1" 2>/dev/null | grep -c '^rank\.[0-9]*$')" -ge "$2" ] && return 0
    sleep 0.1
  done
  return 1
}

# udp_ports PID: the local UDP ports of PID's sockets, one a line (from
# the socket inodes in /proc/PID/fd and the table in /proc/PID/net/udp).
udp_ports() {
  local pid=$1 inodes
  inodes=$(ls -l "/proc/$pid/fd" 2>/dev/null | sed -n 's/.*socket:\[\([0-9]*\)\].*/\1/p' | sort -u)
  [ -n "$inodes" ] || return 0
  awk -v list="$(echo $inodes)" 'BEGIN { n = split(list, a, " "); for (i = 1; i <= n; i++) want[a[i]] = 1 }
    NR > 1 && ($10 in want) { split($2, la, ":"); print la[2] }' "/proc/$pid/net/udp" |
    while read -r hex; do echo $((16#$hex)); done
}

# ports_free PORT...: no UDP socket of this network namespace is bound to
# any PORT any more.
ports_free() {
  local p
  for p in "$@"; do
    if awk -v h="$(printf ':%04X' "$p")" 'NR > 1 && substr($2, length($2) - 4) == h { f = 1 }
                                         END { exit !f }' /proc/net/udp /proc/net/udp6; then
      echo "UDP port $p is still bound" >&2
      return 1
    fi
  done
}

# shm_count: files in /dev/shm that ompdsm could have left there (it uses
# memfds, which vanish with their process, so this stays 0).
shm_count() { ls /dev/shm 2>/dev/null | grep -ci 'ompdsm\|dsm' ; true; }

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
