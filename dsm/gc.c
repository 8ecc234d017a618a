/*
 * gc.c — garbage collection of consistency data.
 *
 * Twins, diffs, interval records and write notices pile up as a program runs.
 * When a process holds more than DSM_GC_MB of them (default 32 MiB), its next
 * arrival at a barrier of the whole job asks for a collection, and the
 * departure tells everyone to run one:
 *   1. each home brings its own pages up to date (fetching the diffs it
 *      lacks), so it holds every write made so far;
 *   2. a barrier, so no diff is dropped while a home may still ask for it;
 *   3. everyone drops every twin, diff, notice and interval record; a
 *      non-home copy that was missing writes becomes cold and will be fetched
 *      whole from its home;
 *   4. a barrier again, so that no process runs ahead, creates intervals and
 *      sends their records (a lock grant, a semaphore signal) to a process
 *      still in step 3, which would drop them with the old ones and later
 *      forward records with a gap.
 * Afterwards the data held is bounded by what one GC period produces, so the
 * memory of a run of any length stays bounded.
 */
#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"
#include "lrc.h"
#include "onesided.h"
#include "runtime.h"

static uint32_t *listed;      /* pages holding consistency data */
static size_t nlisted, listed_cap;

void dsm__gc_track(uint32_t pg, dsm__page_t *p)
{
  if (p->gc_listed)
    return;
  if (nlisted == listed_cap) {
    listed_cap = listed_cap ? listed_cap * 2 : 1024;
    listed = realloc(listed, listed_cap * sizeof *listed);
    if (!listed) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  }
  listed[nlisted++] = pg;
  p->gc_listed = 1;
  dsm__stats_consistency(sizeof *listed);
}

int dsm__gc_wanted(void)
{
  static long limit = -1;
  if (limit < 0)
    limit = dsm__env_long("DSM_GC_MB", 32, 1, 1 << 20) << 20;
  return __atomic_load_n(&dsm__stats.stat_consistency_bytes, __ATOMIC_RELAXED) > (uint64_t)limit;
}

void dsm__gc_run(void)
{
  DSM__DEBUG("garbage collection: %zu pages hold consistency data", nlisted);
  /* 1. Homes validate. The list does not change under us: only this thread
   * adds to it, and validation adds nothing. */
  for (size_t i = 0; i < nlisted; i++) {
    uint32_t pg = listed[i];
    pthread_mutex_lock(&dsm__mu);
    dsm__page_t *p = dsm__page(pg);
    int need = dsm__page_home(pg) == (int)dsm__rank && p->notices;
    pthread_mutex_unlock(&dsm__mu);
    if (need)
      dsm__page_validate(pg);
  }
  /* 2. */
  dsm__barrier_nogc();
  /* 3. */
  pthread_mutex_lock(&dsm__mu);
  for (size_t i = 0; i < nlisted; i++) {
    uint32_t pg = listed[i];
    dsm__page_t *p = dsm__page(pg);
    if (p->twin) {
      free(p->twin);
      p->twin = NULL;
      dsm__stats_consistency(-(int64_t)DSM__PAGE);
    }
    for (dsm__diffrec_t *d = p->diffs, *next; d; d = next) {
      next = d->next;
      dsm__stats_consistency(-(int64_t)(sizeof *d + d->len));
      free(d);
    }
    p->diffs = NULL;
    if (p->notices) {
      DSM__ASSERT(dsm__page_home(pg) != (int)dsm__rank);
      for (dsm__notice_t *n = p->notices, *next; n; n = next) {
        next = n->next;
        free(n);
        dsm__stats_consistency(-(int64_t)sizeof *n);
      }
      p->notices = NULL;
      p->cold = 1;
      dsm__set_prot(pg, DSM__PROT_NONE);
    }
    if (p->pv) {
      dsm__os_home_begin(pg);
      memset(p->pv, 0, dsm__nprocs * sizeof(uint32_t));
      dsm__os_home_end(pg);
    }
    p->gc_listed = 0;
  }
  dsm__stats_consistency(-(int64_t)(nlisted * sizeof *listed));
  nlisted = 0;
  dsm__intervals_discard();
  dsm__os_gc();
  pthread_mutex_unlock(&dsm__mu);
  /* 4. */
  dsm__barrier_nogc();
  DSM__STAT_INC(gc_runs);
}
