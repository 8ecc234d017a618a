/*
 * write_ahead.c — a program that writes through memory page after page
 * takes one write fault per run of pages, not one per page.
 *
 * Away from its home, a readable copy faults at its first write of an
 * interval so that the write is recorded and a twin taken. A loop that
 * writes a block of rows held read-only (the stencil's other grid, a
 * transpose's destination) takes that fault on every page, and on this VM a
 * fault is ~20 us of signal delivery before any protocol work: the first
 * sweeps of the stencil spent 30 ms in 1,024 of them.
 *
 * When write faults walk forward through memory (each lands on the page
 * after the last one, or just past the run opened ahead), the pages after
 * the faulting one are opened ahead of the writes: twinned, marked written
 * in the open interval, and made writable with one mprotect. The run
 * doubles while the stream continues, up to DSM_WRITE_AHEAD pages (16), like a
 * prefetch (fetch.c). A page opened ahead carries p->ahead until the next
 * release, which first compares it with its twin: a changed page goes into
 * the interval exactly as if it had faulted, an unchanged one leaves the
 * written set (no notice, no diff) and is write-protected again. A guess
 * that missed costs a twin copy and a comparison, ~1 us a page.
 *
 * Valid copies of pages homed elsewhere are opened ahead, and at the home
 * its shared pages (read-only so that a write is seen; an exclusive or hot
 * page is writable anyway): the home of a task's output, which others
 * hold copies of, took a fault per page of every merge it wrote (sort_task:
 * 23,000 on rank 0 at 2 processes). A home page opened ahead gets its twin
 * as a faulted one does, which is what a fetch of it is answered with until
 * the release, and is busy for one-sided readers until then.
 * Everything here runs under dsm__mu, on the application thread.
 */
#include <string.h>

#include "dsm_internal.h"
#include "lrc.h"
#include "onesided.h"

/* DSM_WRITE_AHEAD: the longest run opened at one fault (0: off). */
static uint32_t write_ahead_max(void)
{
  static long max = -1;
  if (max < 0)
    max = dsm__env_long("DSM_WRITE_AHEAD", 16, 0, 64);
  return (uint32_t)max;
}

/* The page a continuing stream faults on next, and the run opened ahead at
 * the last fault (0: no stream). */
static uint32_t stream_next, stream_run;
static size_t nahead;   /* pages opened ahead since the last release */

static int opens_ahead(uint32_t pg, uint32_t k)
{
  if (pg + k >= dsm__npages ||
      dsm__page_of((void *)(dsm__page_addr(pg) + (uintptr_t)k * DSM__PAGE)) != (long)(pg + k))
    return 0;
  dsm__page_t *q = dsm__page(pg + k);
  if (q->dirty || q->prot != DSM__PROT_READ)
    return 0;
  if (q->home == dsm__rank)
    return !q->excl && !q->need;
  return q->valid && !q->pushed;
}

void dsm__write_ahead(uint32_t pg)
{
  /* With several threads in the process the comparison at the release
   * could miss a write another thread makes before the page is protected
   * again (dsm/threads.c): no pages are opened ahead then. */
  uint32_t max = dsm__threads > 1 ? 0 : write_ahead_max();
  if (pg != stream_next || !max) {
    stream_next = pg + 1;
    stream_run = 0;
    return;
  }
  uint32_t want = stream_run ? stream_run * 2 : 2;
  if (want > max)
    want = max;
  uint32_t k = 1;
  for (; k <= want && opens_ahead(pg, k); k++) {
    dsm__page_t *q = dsm__page(pg + k);
    q->twin = dsm__twin_alloc();
    memcpy(q->twin, dsm__page_sys(pg + k), DSM__PAGE);
    if (q->home == dsm__rank)
      dsm__os_home_begin(pg + k);
    q->dirty = 1;
    q->ahead = 1;
    dsm__dirty_add(pg + k);
    dsm__prot_queue(pg + k, DSM__PROT_WRITE);
    DSM__STAT_INC(write_ahead);
    nahead++;
  }
  dsm__prot_flush();
  stream_run = k - 1;
  stream_next = pg + k;
}

void dsm__write_ahead_settle(void)
{
  stream_next = stream_run = 0;
  if (!nahead)
    return;
  nahead = 0;
  size_t keep = 0, dropped = 0;
  for (size_t i = 0; i < dsm__ndirty; i++) {
    uint32_t pg = dsm__dirty[i];
    dsm__page_t *p = dsm__page(pg);
    if (p->ahead) {
      p->ahead = 0;
      if (!memcmp(p->twin, dsm__page_sys(pg), DSM__PAGE)) {
        dsm__twin_free(p->twin);
        p->twin = NULL;
        p->dirty = 0;
        dsm__prot_queue(pg, DSM__PROT_READ);
        DSM__STAT_INC(write_ahead_unused);
        dropped++;
        /* No longer busy for one-sided readers (the application thread
         * is in the release, so nothing writes it before the flush). */
        if (p->home == dsm__rank)
          dsm__os_home_end(pg);
        continue;
      }
    }
    dsm__dirty[keep++] = pg;
  }
  dsm__ndirty = keep;
  if (dropped)
    dsm__prot_flush();
}
