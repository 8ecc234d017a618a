/*
 * gc.c — garbage collection of consistency data.
 *
 * Under home-based LRC little piles up: a twin lives for one interval, a
 * diff only until it is sent home, and a page keeps at most one need per
 * writer. What grows is the store of interval records, which a process
 * keeps so that it can hand them on to peers that lack them. After a
 * barrier of the whole job every process holds every record up to the
 * vector time the barrier's manager had when it sent the departures, so
 * none of those will ever be asked for again. But a process that has left
 * the barrier cannot tell whether a peer has taken its departure yet, and a
 * sender omits the records it discarded (it assumes the receiver has them),
 * so records go one barrier later: at barrier k, those up to barrier k-1's
 * vector, which every peer holds since it arrived at barrier k. A process
 * discards when it holds more than DSM_GC_MB (default 4) of consistency
 * data. Each process decides alone: nothing about it is collective, and no
 * extra barrier is needed. (The rewrite first discarded at barrier k itself,
 * and tests/sync/gc_race caught a semaphore signal whose records had a gap
 * at a manager still in the barrier.)
 *
 * A program that never passes a barrier of the whole job (only locks, or
 * teams smaller than the job) keeps its records: they cost 12 bytes plus 4
 * per page written per interval, plus 4 per process.
 */
#include "dsm_internal.h"
#include "lrc.h"
#include "profile.h"

int dsm__gc_wanted(void)
{
  static long limit = -1;
  if (limit < 0)
    limit = dsm__env_long("DSM_GC_MB", 4, 0, 1 << 20) << 20;
  return __atomic_load_n(&dsm__stats.stat_consistency_bytes, __ATOMIC_RELAXED) > (uint64_t)limit;
}

void dsm__gc_run(const uint32_t *upto)
{
  DSM__DEBUG("garbage collection: discarding interval records");
  uint64_t t0 = dsm__prof_on ? dsm__now_ns() : 0;
  dsm__intervals_discard(upto);
  if (t0)
    dsm__prof_span("gc", t0, dsm__now_ns(), 0);
  DSM__STAT_INC(gc_runs);
}
