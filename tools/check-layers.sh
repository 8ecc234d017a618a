#!/bin/bash
# check-layers.sh BUILDDIR — libdsm's layers call only downwards (issue 55).
#
#   omp       sync/omp/: the OpenMP runtime that ompdsmcc's code calls
#             (include/ompdsm_rt.h); and sync/init.c, which registers every
#             layer's handlers at start-up
#   sync      the synchronisation primitives (the rest of sync/)
#   protocol  the consistency protocol (dsm/), itself in four layers:
#     start     runtime.c, bind.c: start-up and shutdown, which call every
#               file's init
#     engine    the events: a fault (fault.c, fetch.c), a request at a home
#               (home.c, diff_recv.c), a release and an acquire
#               (interval.c, diff_send.c), a collective (collective.c,
#               gc.c)
#     policy    the advisers the events consult at fixed points, which
#               read and change page state but never start an event:
#               write_ahead.c, hot.c, pushed.c, first_touch.c, carry.c,
#               onesided.c, and the allocator (alloc.c)
#     state     what a page and the process are: region.c, prot.c,
#               page_state.c, lrc_state.c, diff.c, profile.c, crash.c,
#               threads.c, private_stack.c
#   net       dsm/net/: transports and bootstrapping
#   msg       dsm/msg/: the protocol's messages, encoded and decoded (pure:
#             they call only the base)
#   base      what every layer uses: dsm/base/ (util.c: errors, the
#             environment, time, allocation; stats.c: the counters) and
#             dsm/net/msg_types.c (the message types' names)
#
# From the members of BUILDDIR/sync/libdsm.a, by `nm`: every symbol an
# object uses and another object of the library defines must be defined in
# the same layer or one below. A call upwards (a primitive into the OpenMP
# runtime, the protocol into a primitive, a transport into the protocol)
# is printed with the object that makes it and the symbol, and the check
# fails; so does a file of dsm/ or sync/ that includes a header of dsm/net
# other than transport.h, its door. The exceptions below are the calls that go up by design; each says
# why. Run by tools/test.sh after the normal build.
set -u
build=${1:?usage: check-layers.sh BUILDDIR}
lib="$build/sync/libdsm.a"
dir="$build/sync/libdsm.a.p"
[ -f "$lib" ] && [ -d "$dir" ] || { echo "check-layers.sh: no $lib (build first)" >&2; exit 2; }

layer() {   # layer OBJECT -> 0..8, from meson's name for the object
  # CHECK_LAYERS_DEMOTE=OBJECT[:N] moves one object down to layer N (0,
  # base, by default): its tests (tests/layers) check that the check then
  # fails.
  local demote=${CHECK_LAYERS_DEMOTE:-}
  [ -n "$demote" ] && [ "$1" = "${demote%%:*}" ] && {
    [ "$demote" = "${demote#*:}" ] && echo 0 || echo "${demote#*:}"; return; }
  case "$1" in
    .._dsm_base_*|.._dsm_net_msg_types.c.o) echo 0 ;;
    .._dsm_msg_*) echo 1 ;;
    .._dsm_net_*) echo 2 ;;
    .._dsm_runtime.c.o|.._dsm_bind.c.o) echo 6 ;;
    .._dsm_fault.c.o|.._dsm_fetch.c.o|.._dsm_home.c.o|.._dsm_diff_recv.c.o|\
    .._dsm_interval.c.o|.._dsm_diff_send.c.o|.._dsm_collective.c.o|.._dsm_gc.c.o) echo 5 ;;
    .._dsm_write_ahead.c.o|.._dsm_hot.c.o|.._dsm_pushed.c.o|.._dsm_first_touch.c.o|\
    .._dsm_carry.c.o|.._dsm_onesided.c.o|.._dsm_alloc.c.o) echo 4 ;;
    # The state layer, and any new file of dsm/ until it is placed above.
    .._dsm_*) echo 3 ;;
    omp_*|init.c.o) echo 8 ;;
    *) echo 7 ;;
  esac
}
names=(base msg net "protocol state" "protocol policy" "protocol engine" "protocol start" sync omp)

# Upward calls made on purpose: "caller-object symbol".
allowed() {
  case "$1 $2" in
    # The fatal path (util.c) tells the peers and the launcher before the
    # process ends, whatever layer failed: the transport's ABORT, PMIx's.
    ".._dsm_base_util.c.o dsm__tp_broadcast_abort"|".._dsm_base_util.c.o dsm__pmix_abort") return 0 ;;
    # The statistics' end-of-job gather rides the transport (DSM_STATS).
    ".._dsm_base_stats.c.o dsm__tp_"*) return 0 ;;
    # Start-up: dsm_init (job.c) calls init.c, which registers the handlers
    # of every layer, the OpenMP runtime's included.
    "job.c.o dsm__sync_init"*) return 0 ;;
  esac
  return 1
}

members=$(ar t "$lib") || exit 2
declare -A def
n=0
for m in $members; do
  o="$dir/$m"
  [ -f "$o" ] || { echo "check-layers.sh: $m of libdsm.a not in $dir" >&2; exit 2; }
  n=$((n + 1))
  while read -r _ _ sym; do
    def[$sym]=$m
  done < <(nm --defined-only -g "$o" | awk 'NF == 3')
done

bad=0 ok=0
for m in $members; do
  lm=$(layer "$m")
  while read -r _ sym; do
    d=${def[$sym]:-}
    [ -n "$d" ] || continue
    ld=$(layer "$d")
    [ "$ld" -gt "$lm" ] || continue
    if allowed "$m" "$sym"; then
      ok=$((ok + 1))
      [ -n "${CHECK_LAYERS_VERBOSE:-}" ] && echo "check-layers.sh: by design: ${m%.o} calls $sym (${names[$ld]})"
      continue
    fi
    echo "check-layers.sh: ${m%.o} (${names[$lm]}) calls $sym, defined in ${d%.o} (${names[$ld]})"
    bad=1
  done < <(nm -u "$dir/$m" | awk 'NF == 2')
done
# The doors: from dsm/net, the protocol and sync/ include transport.h only.
src=$(cd "$(dirname "$0")/.." && pwd)
while IFS= read -r hit; do
  echo "check-layers.sh: $hit: dsm/net's door is net/transport.h"
  bad=1
done < <(cd "$src" && grep -nE '#include "net/' dsm/*.[ch] dsm/base/*.[ch] dsm/msg/*.[ch] sync/*.[ch] sync/omp/*.[ch] |
         grep -v '#include "net/transport.h"')

[ $bad = 0 ] && echo "check-layers.sh: $n objects; every call goes down or stays in its layer ($ok upward calls by design, listed in the script)"
exit $bad
