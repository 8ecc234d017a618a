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
 *
 * Reads then writes. Code that reads a page before it writes it (a
 * partition's pivot and its scan, a merge reading its output's
 * neighbours, sort_task's quick_seq on a task's input) takes a read
 * fault that fetches the copy and then a write fault on the same page:
 * two signal deliveries, ~20 us each on this VM, where the second buys
 * only a twin (~1 us). So the copies a read fault makes valid are
 * watched: a write fault on one in the same release epoch counts it as
 * written. When at least a quarter of the last ~256 such copies were
 * written, a read fault opens the copies it makes valid (the fetched run,
 * or a held page of a cold run at its first touch) for writing at once,
 * exactly as a page opened ahead (same twin, same check at the release,
 * which also keeps counting: a changed one was written). The quarter is
 * where a wrong guess, a twin and a comparison, costs as much as the
 * faults the right ones save.
 *
 * Migratory pages. A page written under a lock by each holder in turn (a
 * counter in a critical section, a task queue's head) comes to the next
 * holder without a fault: as a diff carried with the lock (carry.c) or, at
 * a process that is not its home, as a copy the home pushed at its release
 * (fetch.c). Either makes the copy valid at the acquire, readable, and the
 * holder's first write then faults, at every acquire: in a critical
 * section that two processes take in turn, one fault per section on the
 * process that is not the page's home (10,000 in 20,000 sections). A copy
 * made valid that way which this process itself wrote in one of its last
 * UPDATE_RECENT intervals is opened for writing at once, as a page opened
 * ahead: a miss costs a twin and a comparison at the release.
 *
 * Everything here runs under dsm__mu, on the application thread.
 */
#include <string.h>

#include "dsm_internal.h"
#include "lrc.h"
#include "page_state.h"
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

/* Reads then writes: copies made valid by read faults, and how many of them
 * were written in the same epoch (decayed by halves every RW_WINDOW). */
#define RW_WINDOW 256
static uint32_t epoch = 1, rw_read, rw_written;
static int rw_on;

static void rw_read_one(void)
{
  if (++rw_read >= RW_WINDOW) {
    rw_on = rw_written * 4 >= rw_read;
    rw_read /= 2;
    rw_written /= 2;
  }
}

/* Open copy (or shared home page) pg for writing before any write:
 * twinned, in the written set marked ahead, protection change queued. */
static void open_ahead(uint32_t pg)
{
  dsm__page_t *q = dsm__page(pg);
  q->twin = dsm__twin_alloc();
  memcpy(q->twin, dsm__page_current(pg), DSM__PAGE);
  if (q->home == dsm__rank)
    dsm__os_home_begin(pg);
  q->dirty = 1;
  q->ahead = 1;
  dsm__dirty_add(pg);
  dsm__prot_queue(pg, DSM__PROT_WRITE);
  nahead++;
  dsm__page_check(pg, "a write ahead");
}

/* May a read of copy p open it for writing (or ask for it as a write)? */
static int read_may_open(const dsm__page_t *p)
{
  return dsm__threads == 1 && write_ahead_max() && p->home != dsm__rank && !p->dirty;
}

int dsm__write_ahead_on_read(uint32_t pg)
{
  dsm__page_t *p = dsm__page(pg);
  if (!read_may_open(p))
    return 0;
  rw_read_one();
  if (!rw_on) {
    p->rd_epoch = epoch;     /* a write in this epoch counts it written */
    return 0;
  }
  p->rd_epoch = epoch;       /* the release counts it written if it changed */
  open_ahead(pg);
  DSM__STAT_INC(write_on_read);
  return 1;
}

int dsm__write_ahead_read_will_write(uint32_t pg)
{
  return rw_on && read_may_open(dsm__page(pg));
}

/* Our intervals within which a write of ours makes an update's copy open
 * for writing (the hot pages' window, hot.c). */
#define UPDATE_RECENT 8

int dsm__write_ahead_on_update(uint32_t pg)
{
  dsm__page_t *p = dsm__page(pg);
  if (dsm__threads > 1 || !write_ahead_max() || p->home == dsm__rank || p->dirty || p->twin ||
      !p->own_last || dsm__vt[dsm__rank] - p->own_last >= UPDATE_RECENT)
    return 0;
  open_ahead(pg);
  DSM__STAT_INC(write_on_update);
  return 1;
}

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
  dsm__page_t *p = dsm__page(pg);
  if (p->rd_epoch == epoch) {
    p->rd_epoch = 0;
    rw_written++;            /* a read made it valid, and now it is written */
  }
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
    open_ahead(pg + k);
    DSM__STAT_INC(write_ahead);
  }
  dsm__prot_flush();
  stream_run = k - 1;
  stream_next = pg + k;
}

void dsm__write_ahead_settle(void)
{
  stream_next = stream_run = 0;
  if (!nahead) {
    epoch++;   /* a write after this release is not the read's */
    return;
  }
  nahead = 0;
  size_t keep = 0, dropped = 0;
  for (size_t i = 0; i < dsm__ndirty; i++) {
    uint32_t pg = dsm__dirty[i];
    dsm__page_t *p = dsm__page(pg);
    if (p->ahead) {
      p->ahead = 0;
      int same = !memcmp(p->twin, dsm__page_current(pg), DSM__PAGE);
      if (p->rd_epoch == epoch) {
        /* Read-faulted in this epoch, and opened at the read or ahead of
         * a stream of writes before it was written: did it change? */
        p->rd_epoch = 0;
        rw_written += !same;
      }
      if (same) {
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
  epoch++;
}
