#!/bin/bash
# test_peer.sh DSMRUN FAULTS_JOB — a rank dies or falls silent mid-job.
#  * kill -9 one rank at a random moment while the job lives (a) in
#    barriers, (b) holding a lock, (c) serving diffs (the killed rank is the
#    one whose pages the others fetch). dsmrun must exit non-zero within
#    5 s of the kill, name the rank "killed by signal SIGKILL", and leave no
#    process of the job behind.
#  * SIGSTOP one rank of a job run with --timeout 3: the others must give up
#    on it within about 3 + 5 s, naming it ("rank R did not answer for"),
#    dsmrun must exit non-zero, and nothing may be left behind. dsmrun
#    continues the stopped rank with its SIGTERM, so it goes at once (by the
#    SIGTERM, or by its own stop if its liveness check, finding everyone
#    silent after the pause, gets there first) rather than at the SIGKILL
#    2 s later (-v says how each rank ended).
# "Nothing left behind": no process of the job, no UDP socket on the ports
# its ranks had bound (read from /proc while the job ran), and no new file
# in /dev/shm.
# Runs on this machine only (no namespaces needed).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/job_probe.sh"
JOB=${2:?usage: $0 DSMRUN FAULTS_JOB}
N=4
SHM0=$(shm_count)

# start_job MODE EXTRA...: dsmrun in the background; sets DPID, MARK, PIDS.
start_job() {
  local mode=$1; shift
  MARK=$(marked "$JOB")
  PIDS="$T/pids.$mode.$RANDOM"
  mkdir "$PIDS"
  FAULTS_PIDDIR="$PIDS" "$DSMRUN" -n $N --max-time 60 "$@" "$MARK" "$mode" 40 \
    >"$T/out" 2>"$T/err" </dev/null &
  DPID=$!
  CLEANUP+=("kill -9 $DPID 2>/dev/null; pkill -9 -f -- '$MARK' 2>/dev/null")
}

# wait_end LIMIT_MS: wait for dsmrun; RC and ELAPSED (ms since T_FAULT).
# dsmrun's --max-time bounds the wait.
wait_end() {
  wait "$DPID"
  RC=$?
  ELAPSED=$(( $(now_ms) - T_FAULT ))
}

for mv in barriers:2 lock:3 diffs:1; do
  mode=${mv%%:*}; victim=${mv##*:}
  start_job "$mode"
  if ! wait_files "$PIDS" $N 30; then
    fail "$mode: the job did not start ($(head -c 300 "$T/err"))"
    kill -9 "$DPID" 2>/dev/null; wait "$DPID" 2>/dev/null
    continue
  fi
  # no_process below means something only if the marker finds the job.
  check "$mode: the job's processes carry the marker" [ "$(pgrep -c -f -- "$MARK")" -ge $N ]
  ports=()
  for ((r = 0; r < N; r++)); do
    for port in $(udp_ports "$(cat "$PIDS/rank.$r")"); do ports+=("$port"); done
  done
  check "$mode: found the ranks' UDP ports (${ports[*]:-none})" [ ${#ports[@]} -ge $N ]
  # A random moment 0.3 .. 2 s into the job.
  sleep "$(( RANDOM % 2000 / 1000 )).$(printf %03d $(( 300 + RANDOM % 700 )))"
  vpid=$(cat "$PIDS/rank.$victim")
  T_FAULT=$(now_ms)
  kill -9 "$vpid"
  wait_end
  echo "$mode: killed rank $victim (pid $vpid); dsmrun status $RC after $ELAPSED ms"
  check "$mode kill: dsmrun exits non-zero" [ "$RC" -ne 0 ]
  check "$mode kill: down within 5 s of the kill ($ELAPSED ms)" [ "$ELAPSED" -lt 5000 ]
  check "$mode kill: rank $victim named as killed by SIGKILL" \
    grep_q "rank $victim .*killed by signal SIGKILL" "$T/err"
  check "$mode kill: no process left" no_process "$MARK"
  check "$mode kill: no socket left on the job's ports" ports_free "${ports[@]}"
  check "$mode kill: nothing new in /dev/shm" [ "$(shm_count)" -eq "$SHM0" ]
done

# A silent rank: stopped, not dead. The liveness timeout must find it.
victim=2
start_job barriers --timeout 3 -v
if wait_files "$PIDS" $N 30; then
  sleep 0.$(( 3 + RANDOM % 6 ))
  vpid=$(cat "$PIDS/rank.$victim")
  CLEANUP+=("kill -CONT $vpid 2>/dev/null; kill -9 $vpid 2>/dev/null")
  T_FAULT=$(now_ms)
  kill -STOP "$vpid"
  wait_end
  echo "stop: stopped rank $victim (pid $vpid); dsmrun status $RC after $ELAPSED ms"
  kill -CONT "$vpid" 2>/dev/null
  check "stop: dsmrun exits non-zero" [ "$RC" -ne 0 ]
  check "stop: over within 3 + 5 s ($ELAPSED ms)" [ "$ELAPSED" -lt 8000 ]
  check "stop: the silent rank $victim is named" \
    grep_q "rank $victim did not answer for [0-9]+ s" "$T/err"
  check "stop: the stopped rank $victim, continued, went before the SIGKILL" \
    grep_q "rank $victim \(pid [0-9]+\) (killed by signal SIGTERM|exited with status)" "$T/err"
  check "stop: no process left" no_process "$MARK"
  check "stop: nothing new in /dev/shm" [ "$(shm_count)" -eq "$SHM0" ]
else
  fail "stop: the job did not start ($(head -c 300 "$T/err"))"
fi

finish
