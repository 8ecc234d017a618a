#!/bin/bash
# test_lifeline.sh DSMRUN LIFELINE_PROG — kill -9 dsmrun itself: every rank
# must see its lifeline close and stop, although nobody signals it.
. "$(dirname "$0")/../lib.sh"
PROG=${2:?usage: $0 DSMRUN LIFELINE_PROG}
N=4

mkfifo "$T/report"
# Read-write open: neither side blocks in open(), and the FIFO never reports
# EOF while the ranks come and go.
exec 7<>"$T/report"

"$DSMRUN" -n $N "$PROG" "$T/report" 20 >"$T/out" 2>"$T/err" </dev/null &
dsmrun_pid=$!
CLEANUP+=("kill -9 $dsmrun_pid 2>/dev/null")

read_lines 7 $N 10
check "all $N ranks poll their lifeline" [ "${#LINES[@]}" -eq $N ]
rank_pids=$(pgrep -P $dsmrun_pid | tr '\n' ' ')
check "dsmrun has $N children" [ "$(wc -w <<<"$rank_pids")" -eq $N ]

t0=$(date +%s%N)
kill -9 $dsmrun_pid
wait $dsmrun_pid 2>/dev/null
read_lines 7 $N 5
t1=$(date +%s%N)
check "all $N ranks saw the lifeline close" [ "${#LINES[@]}" -eq $N ]
check "... within 5 s ($(( (t1 - t0) / 1000000 )) ms)" [ $(( (t1 - t0) / 1000000 )) -lt 5000 ]
check "... each rank once" [ "$(printf '%s\n' "${LINES[@]}" | sort -u | grep -c '^gone [0-9]')" -eq $N ]
left=0
for p in $rank_pids; do
  # The ranks are orphans now (init reaps them); they must be gone soon.
  for ((i = 0; i < 40 && left == 0; i++)); do
    [ -e /proc/$p ] && [ "$(awk '{print $3}' /proc/$p/stat 2>/dev/null)" != Z ] || break
    sleep 0.05
    [ $i -eq 39 ] && left=1
  done
done
check "no rank left running" [ $left -eq 0 ]

# While dsmrun lives, the lifelines stay open: lifeline ranks end only when
# dsmrun stops them (here at --max-time); a spurious hangup would have ended
# the job early with status 0.
run_dsmrun "$T/out" "$T/err" -n 2 --max-time 1 "$PROG" "$T/report" 20
check "lifeline stays open while dsmrun runs (--max-time hit: $RC, ${MS} ms)" \
  [ "$RC" -eq 124 -a "$MS" -ge 950 ]


finish
