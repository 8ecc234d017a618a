#!/bin/bash
# test_hostile.sh DSMRUN FAULTS_JOB FAULTS_SPRAY — hostile datagrams.
# While a 4-process job runs (faults_job barriers: barrier after barrier,
# each round checked), faults_spray sends random, truncated and wrong-key
# datagrams to every rank's UDP port. The job must still finish with its
# correct answer and status 0, and the statistics (DSM_STATS=json:FILE)
# must show bad_datagrams > 0 on every rank that was hit.
# The ports are found from the ranks' pids: /proc/PID/fd names the socket
# inodes, /proc/PID/net/udp maps an inode to its local port.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/job_probe.sh"
JOB=${2:?usage: $0 DSMRUN FAULTS_JOB FAULTS_SPRAY}
SPRAY=${3:?usage: $0 DSMRUN FAULTS_JOB FAULTS_SPRAY}
N=4

MARK=$(marked "$JOB")
PIDS="$T/pids"
mkdir "$PIDS"
# The job runs 12 s from its first barrier; the spray takes 5 s after the
# ports are found. The rest is margin for finding them on a loaded machine
# (with 8 s, the job sometimes ended before the spray on 2 busy cores).
t0=$(now_ms)
FAULTS_PIDDIR="$PIDS" DSM_STATS="json:$T/stats.json" \
  "$DSMRUN" -n $N --timeout 20 --max-time 90 "$MARK" barriers 12 >"$T/out" 2>"$T/err" </dev/null &
DPID=$!
CLEANUP+=("kill -9 $DPID 2>/dev/null; pkill -9 -f -- '$MARK' 2>/dev/null")

targets=()
if wait_files "$PIDS" $N 30; then
  for ((r = 0; r < N; r++)); do
    pid=$(cat "$PIDS/rank.$r")
    for port in $(udp_ports "$pid"); do targets+=("127.0.0.1:$port:$r"); done
  done
fi
echo "targets: ${targets[*]:-none}"
check "the job's processes carry the marker" [ "$(pgrep -c -f -- "$MARK")" -ge $N ]
check "found a UDP port of every rank" [ "$(printf '%s\n' "${targets[@]}" | cut -d: -f3 | sort -u | wc -l)" -eq $N ]
if [ ${#targets[@]} -gt 0 ]; then
  "$SPRAY" 5 400 "${targets[@]}" >"$T/spray" 2>&1
  check "the spray ran ($(cat "$T/spray"))" [ $? -eq 0 ]
  cat "$T/spray"
fi
check "the job was still running when the spray ended" kill -0 "$DPID"
wait "$DPID"
RC=$?
echo "job: status $RC after $(( $(now_ms) - t0 )) ms: $(cat "$T/out")"
check "job exits 0 under hostile datagrams ($(head -c 300 "$T/err"))" [ "$RC" -eq 0 ]
check "job prints its checked answer" grep_q "^faults_job barriers: OK, [0-9]+ rounds on $N processes\$" "$T/out"
check "no process left" no_process "$MARK"
if [ -s "$T/stats.json" ]; then
  for ((r = 0; r < N; r++)); do
    bad=$(grep -E "^ *\{\"rank\": $r," "$T/stats.json" | grep -oE '"bad_datagrams": [0-9]+' | grep -oE '[0-9]+$')
    check "rank $r counted bad datagrams (${bad:-none})" [ "${bad:-0}" -gt 0 ]
  done
else
  fail "no statistics written to $T/stats.json"
fi

finish
