# job_probe.sh — what the ranks of a running job hold, for the fault tests
# that must find a victim or prove that nothing was left behind: their pids
# (faults_job writes rank.R into $FAULTS_PIDDIR), their UDP ports, and files
# in /dev/shm. Sourced after ../lib.sh.

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
