#!/bin/bash
# test_mpirun.sh DSMRUN HAVE_PMIX MPIRUN CASE PROGRAM [N] — libdsm jobs
# started by Open MPI's mpirun instead of dsmrun: the library finds the
# launcher's PMIx server and takes rank, size, the master's address and the
# key from it (dsm/net/boot_pmix.c). Cases:
#   spmd N    pmix_spmd on N processes checks its rank, size and answer
#   addr N    pmix_spmd with DSM_PMIX_ADDR set to this host's first IPv4
#             address other than loopback: the ranks reach rank 0 as they
#             would from another host
#   omp N     an ompdsmcc-built OpenMP program: a team of N, right answer
#   single    DSM_PMIX=0: every process is a job of one, as before PMIx
#   killed    one rank is killed (SIGKILL) while the others wait at a
#             barrier: mpirun ends the job, non-zero, within seconds, and
#             names the rank
#   fatal     a rank goes to the wrong barrier: the job ends with the
#             status of the rank that found the error, as under dsmrun
#   abort     a rank fails before the others can hear from it (after the
#             PMIx fence, DSM_PMIX_ADDR=bad is rejected): only PMIx_Abort
#             can stop the others, who wait for its HELLO or for the
#             address table, because mpirun is told not to abort on a
#             non-zero exit
#   fence     a rank never reaches the start-up fence (it is sleep, not a
#             libdsm program): the others give up after DSM_TIMEOUT
#   nolib     libpmix cannot be loaded: a clear error, never singletons
# Skipped (77) without mpirun or without PMIx support in this libdsm.
. "$(dirname "$0")/../lib.sh"
HAVE_PMIX=${2:?usage: $0 DSMRUN HAVE_PMIX MPIRUN CASE PROGRAM [N]}
MPIRUN=$3 CASE=$4 PROG=$5 N=${6:-4}
[ "$HAVE_PMIX" = 1 ] || skip "libdsm was built without PMIx support (-Dpmix)"
[ -x "$MPIRUN" ] || skip "no mpirun"
# As root in a container on 2 cores (apps/meson.build says why).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
MPI=("$MPIRUN" --oversubscribe)

case $CASE in
spmd)
  run_timed "$T/out" "$T/err" timeout 100 "${MPI[@]}" -n "$N" "$PROG" "$N"
  check "spmd n=$N exits 0 ($(head -c 600 "$T/err"))" [ "$RC" -eq 0 ]
  check "spmd n=$N: rank 0 verified the shared array" grep_q "^pmix_spmd: $N processes: OK\$" "$T/out"
  ;;
addr)
  ip=$(ip -4 -o addr show 2>/dev/null | awk '$2 != "lo" { sub("/.*", "", $4); print $4; exit }')
  [ -n "$ip" ] || skip "no IPv4 address other than loopback"
  run_timed "$T/out" "$T/err" timeout 100 env DSM_PMIX_ADDR="$ip" "${MPI[@]}" -n "$N" "$PROG" "$N"
  check "addr $ip n=$N exits 0 ($(head -c 600 "$T/err"))" [ "$RC" -eq 0 ]
  check "addr $ip n=$N: rank 0 verified the shared array" \
    grep_q "^pmix_spmd: $N processes: OK\$" "$T/out"
  ;;
omp)
  run_timed "$T/out" "$T/err" timeout 100 "${MPI[@]}" -n "$N" "$PROG" "$N"
  check "omp n=$N exits 0 ($(head -c 600 "$T/err"))" [ "$RC" -eq 0 ]
  check "omp n=$N: a team of $N, VERIFIED" grep_q "^VERIFIED\$" "$T/out"
  check "omp n=$N: one process prints" [ "$(grep -c VERIFIED "$T/out")" -eq 1 ]
  ;;
single)
  run_timed "$T/out" "$T/err" timeout 100 env DSM_PMIX=0 "${MPI[@]}" -n 2 "$PROG" 2 single
  check "DSM_PMIX=0 exits 0 ($(head -c 600 "$T/err"))" [ "$RC" -eq 0 ]
  check "DSM_PMIX=0: two jobs of one" [ "$(grep -c '^single OK$' "$T/out")" -eq 2 ]
  ;;
killed)
  # The job writes one line per rank to a FIFO; the victim's has its pid.
  mkfifo "$T/fifo"
  t0=$(now_ms)
  ( timeout 60 "${MPI[@]}" -n "$N" "$PROG" "$N" hang 2 >"$T/fifo" 2>"$T/err" </dev/null
    echo $? >"$T/rc"; now_ms >"$T/end" ) &
  job=$!
  CLEANUP+=("kill $job 2>/dev/null")
  exec 7<"$T/fifo"
  victim=
  if read_lines 7 "$N" 60; then
    for l in "${LINES[@]}"; do
      case $l in victim\ *) victim=${l#victim };; esac
    done
  fi
  check "killed: all $N ranks up, rank 2 is pid ${victim:-?} (after $(( $(now_ms) - t0 )) ms)" \
    [ -n "$victim" ]
  [ -n "$victim" ] && kill -KILL "$victim"
  t1=$(now_ms)
  cat <&7 >/dev/null
  wait "$job"
  RC=$(cat "$T/rc") MS=$(( $(cat "$T/end") - t1 ))
  check "killed: mpirun exits non-zero (status $RC)" [ "$RC" -ne 0 -a "$RC" -ne 124 ]
  check "killed: the job is down in under 10 s ($MS ms)" [ "$MS" -lt 10000 ]
  check "killed: the report names rank 2 and the signal" grep_q "rank 2 .*signal 9" "$T/err"
  ;;
fatal)
  # Rank 0, the barrier manager, finds the mismatch and stops with 70; the
  # others stop because of it (75) and leave the launcher to rank 0's abort.
  run_timed "$T/out" "$T/err" timeout 100 "${MPI[@]}" -n "$N" "$PROG" "$N" fatal 2
  check "fatal: mpirun exits with the failed rank's status 70 (got $RC)" [ "$RC" -eq 70 ]
  check "fatal: down in under 15 s ($MS ms)" [ "$MS" -lt 15000 ]
  # Which rank it names depends on who arrived first: rank 2 at barrier 2
  # while the others are at 1, or (rank 2 first) one of the others at 1.
  check "fatal: rank 0 says why" grep_q \
    "^dsm\[0\]: error: barrier mismatch: rank (2 is at barrier 2|[013] is at barrier 1) " "$T/err"
  ;;
abort)
  # The failure comes after the fence on purpose: Open MPI 4.1.4's mpirun,
  # asked to abort while the others wait in a PMIx fence, crashes (about 1
  # run in 20) or hangs now and then; that is the fence case's business.
  run_timed "$T/out" "$T/err" timeout 100 "${MPI[@]}" --mca orte_abort_on_non_zero_status 0 \
    -n $((N - 1)) "$PROG" "$N" : -n 1 env DSM_PMIX_ADDR=bad "$PROG" "$N"
  check "abort: status 70, from the failed rank's PMIx_Abort (got $RC)" [ "$RC" -eq 70 ]
  check "abort: down in under 15 s ($MS ms)" [ "$MS" -lt 15000 ]
  check "abort: the failed rank says why" \
    grep_q "^dsm\[$((N - 1))\]: error: DSM_PMIX_ADDR='bad'" "$T/err"
  ;;
fence)
  run_timed "$T/out" "$T/err" timeout 100 env DSM_TIMEOUT=3 "${MPI[@]}" \
    -n $((N - 1)) "$PROG" "$N" : -n 1 sleep 90
  check "fence: status 75, the others stopped (got $RC)" [ "$RC" -eq 75 ]
  check "fence: down in 3 to 15 s ($MS ms)" [ "$MS" -ge 3000 -a "$MS" -lt 15000 ]
  check "fence: they say why" grep_q "not every rank reached the start-up fence in 3 s" "$T/err"
  ;;
nolib)
  run_timed "$T/out" "$T/err" timeout 100 env DSM_PMIX_LIB=/nonexistent/libpmix.so.2 \
    "${MPI[@]}" -n 2 "$PROG" 2
  check "nolib: mpirun exits non-zero (status $RC)" [ "$RC" -ne 0 -a "$RC" -ne 124 ]
  check "nolib: no rank ran as a job of one" [ ! -s "$T/out" ]
  check "nolib: the error names the library" grep_q "cannot load /nonexistent/libpmix.so.2" "$T/err"
  ;;
*)
  fail "unknown case $CASE"
  ;;
esac
finish
