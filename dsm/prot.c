/*
 * prot.c — the application view's protections: one page at once
 * (dsm__set_prot), or many gathered and applied together (dsm__prot_queue,
 * dsm__prot_flush). Under dsm__mu.
 *
 * What a protection change costs is mostly the TLB flush behind it, and how
 * the kernel flushes decides that. mprotect invalidates the changed range
 * page by page when it spans at most 33 pages (x86's
 * tlb_single_page_flush_ceiling) and flushes the whole TLB for a wider
 * range. On a paravirtualised guest like this project's VMs, each page
 * invalidated costs ~4 us when the machine is otherwise idle and ~25 us
 * when both vCPUs flush at once (each rank of a job does), while a whole
 * flush costs ~25 us (a pair of calls on 34 pages: 47-66 us), and refilling
 * the TLB afterwards costs nothing measurable (touching 8,192 pages after
 * it took 59 us, as before it). So a release that write-protects 32-page
 * runs separated by 32 pages it must not touch, as fft3d's transposes
 * make, paid ~0.8 ms per run: 50 ms for 2,112 pages, where one whole flush
 * does the same work.
 *
 * A span. When the queued runs lie close together (gaps of at most
 * SPAN_GAP pages), dsm__prot_flush may set the whole stretch PROT_NONE in
 * one call, which changes pages present in the TLB over more than 33 pages
 * and so flushes it whole, and then open the stretch's runs that must be
 * readable or writable again. Raising a protection from PROT_NONE needs no
 * flush (x86 caches no entry for a page that is not present), so those
 * calls cost only the system call. The span is taken when the cost model
 * below says it is cheaper than one call per run.
 *
 * The stretch is briefly inaccessible, so only the one application thread
 * of a process may use a span: it is the caller, so it cannot touch a page
 * meanwhile, and every other thread that reads the application view does
 * so under dsm__mu (dsm__page_current), which the caller holds. The service
 * thread's own flushes (a home applying diffs, a request write-protecting
 * an exclusive page) run while the application computes, and with several
 * application threads (dsmrun --threads) another may be inside the
 * stretch: those always change run by run. DSM_PROT_SPAN=0 turns spans off
 * (for measuring what they bring).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "dsm_internal.h"
#include "region.h"

static const int os_prot[] = { PROT_NONE, PROT_READ, PROT_READ | PROT_WRITE };

void dsm__set_prot(uint32_t pg, int prot)
{
  dsm__page_t *p = dsm__page(pg);
  if (p->queued)
    p->osprot = 0xff;     /* changed behind the queue: the flush must apply it */
  if (p->prot == prot)
    return;
  if (mprotect((void *)dsm__page_addr(pg), DSM__PAGE, os_prot[prot]) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "mprotect of shared page %u failed: %s", pg, strerror(errno));
  p->prot = (uint8_t)prot;
}

/* ---- batched protection changes ------------------------------------------------- */

static uint32_t *pq;           /* pages whose protection changed, not yet applied */
static size_t npq, pq_cap;

void dsm__prot_queue(uint32_t pg, int prot)
{
  dsm__page_t *p = dsm__page(pg);
  if (p->prot == prot)
    return;
  if (p->queued) {
    p->prot = (uint8_t)prot;
    return;
  }
  p->queued = 1;
  p->osprot = p->prot;
  if (npq == pq_cap)
    pq = dsm__grow_mapped(pq, &pq_cap, npq + 1, sizeof *pq);
  pq[npq++] = pg;
  p->prot = (uint8_t)prot;
}

static int by_page(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* The end of the run that starts at pq[k], within pq[..j): consecutive
 * pages with the same target. */
static size_t run_end(size_t k, size_t j)
{
  int prot = dsm__page(pq[k])->prot;
  size_t e = k + 1;
  while (e < j && pq[e] == pq[e - 1] + 1 && dsm__page(pq[e])->prot == prot)
    e++;
  return e;
}

/* ---- spans ------------------------------------------------------------------------- */

#define FLUSH_CEILING 33   /* the kernel's: wider ranges flush the whole TLB */
#define SPAN_GAP 32        /* the widest gap a span covers between two runs */
/* The cost model, in microseconds (measured as above): a call, a page
 * invalidated alone (the idle figure: a span must pay even then), a whole
 * flush. */
#define COST_CALL 3
#define COST_PAGE 4
#define COST_FULL 25

static __thread int app_thread;

void dsm__prot_app_thread(void)
{
  app_thread = 1;
}

static int spans_allowed(void)
{
  static int on = -1;
  if (on < 0)
    on = (int)dsm__env_long("DSM_PROT_SPAN", 1, 0, 1);
  return on && app_thread && dsm__threads == 1;
}

static void protect(uint32_t first, uint32_t last, int prot)
{
  if (mprotect((void *)dsm__page_addr(first), (size_t)(last - first + 1) * DSM__PAGE,
               os_prot[prot]) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "mprotect of shared pages %u-%u failed: %s", first, last,
               strerror(errno));
  DSM__STAT_INC(mprotects);
}

/* The runs of pages first..last that are not PROT_NONE once the queue is
 * applied (p->prot: the target of a queued page, the kernel's of any other). */
static unsigned open_runs(uint32_t first, uint32_t last)
{
  unsigned n = 0;
  int prev = DSM__PROT_NONE;
  for (uint32_t pg = first; pg <= last; pg++) {
    int prot = dsm__page(pg)->prot;
    n += prot != DSM__PROT_NONE && prot != prev;
    prev = prot;
  }
  return n;
}

static void apply_span(uint32_t first, uint32_t last)
{
  protect(first, last, DSM__PROT_NONE);
  for (uint32_t pg = first; pg <= last;) {
    int prot = dsm__page(pg)->prot;
    uint32_t end = pg;
    while (end < last && dsm__page(end + 1)->prot == prot)
      end++;
    if (prot != DSM__PROT_NONE)
      protect(pg, end, prot);
    pg = end + 1;
  }
}

/* Queued pages pq[i..j) form runs close enough for one span: apply them as
 * one if the model says it is cheaper. Returns 1 if it did. */
static int try_span(size_t i, size_t j)
{
  unsigned runs = 0, plain = 0;
  for (size_t k = i; k < j;) {
    size_t e = run_end(k, j), len = e - k;
    plain += COST_CALL + (len <= FLUSH_CEILING ? COST_PAGE * (unsigned)len : COST_FULL);
    runs++;
    k = e;
  }
  if (runs < 2)
    return 0;
  uint32_t first = pq[i], last = pq[j - 1];
  unsigned span = COST_CALL + COST_FULL + COST_CALL * open_runs(first, last);
  if (span >= plain)
    return 0;
  apply_span(first, last);
  DSM__STAT_INC(prot_spans);
  return 1;
}

/* ---- the flush -------------------------------------------------------------------- */

/* One call per run of consecutive pages with the same target, in pq[i..j)
 * (all in one segment). */
static void apply_runs(size_t i, size_t j)
{
  while (i < j) {
    size_t e = run_end(i, j);
    protect(pq[i], pq[e - 1], dsm__page(pq[i])->prot);
    i = e;
  }
}

void dsm__prot_flush(void)
{
  if (!npq)
    return;
  /* A page whose protection came back to what the kernel has (invalidated,
   * then a pushed copy installed in the same acquire) needs no call. */
  size_t m = 0;
  for (size_t i = 0; i < npq; i++) {
    dsm__page_t *p = dsm__page(pq[i]);
    p->queued = 0;
    if (p->prot != p->osprot)
      pq[m++] = pq[i];
  }
  npq = m;
  if (npq > 1)
    qsort(pq, npq, sizeof *pq, by_page);
  int spans = spans_allowed();
  /* Consecutive page numbers of one segment are consecutive addresses.
   * Without spans, a group is a run; with them, runs close together. */
  for (size_t i = 0; i < npq;) {
    uint32_t seg_end = dsm__page_seg_end(pq[i]);
    size_t j = i + 1;
    if (spans) {
      while (j < npq && pq[j] < seg_end && pq[j] - pq[j - 1] <= SPAN_GAP + 1)
        j++;
    } else {
      while (j < npq && pq[j] == pq[j - 1] + 1 && pq[j] < seg_end)
        j++;
    }
    if (!spans || !try_span(i, j))
      apply_runs(i, j);
    i = j;
  }
  npq = 0;
}
