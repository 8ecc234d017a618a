/*
 * hot.c — pages written in every interval stay writable: home pages, and
 * copies of pages homed elsewhere.
 *
 * A shared home page (someone else holds a copy) costs its home, in every
 * interval that writes it: a write fault, a twin, and at the release a
 * write-protect. On this VM the fault and the two mprotects are ~100 us per
 * page, because a TLB flush on a paravirtualised guest is a hypercall; a
 * stencil's boundary row pays that every sweep, more than its barrier.
 *
 * A home page written again within HOT_IDLE (8) intervals of its last
 * write (a stencil alternating two grids writes each row every other sweep;
 * the master of an OpenMP program makes an interval at the join of each of
 * its regions, and fft3d's writes a page in one of about six per step)
 * turns *hot*: at the release it keeps its protection (writable) and its
 * twin, which is refreshed to the page as released. The page stays marked
 * as written in the open interval (p->dirty), so everything that must not
 * see unreleased writes already looks at the twin: fetches are answered
 * with it, and diffs from other writers are applied to it as well as to
 * the page. At each release the page is compared with its twin; if it
 * changed, it goes into the interval exactly as if it had faulted (notice,
 * version, pushes). The program itself never faults on it again.
 *
 * Writes of a value equal to the old one are not seen, and need not be:
 * the released page is then the same as the twin, which every copy made
 * since the last release already holds.
 *
 * A hot page that is not written in HOT_IDLE intervals of ours goes back to
 * being write-protected (as does one found unchanged by HOT_IDLE_SCANS
 * releases in a row: a process that only takes locks makes no intervals,
 * and every acquire scans too), so the comparison costs (about 0.2 us a
 * page) stay bounded by what is really written; so does DSM_HOT_PAGES, the
 * most pages that are hot at once (0 turns the mechanism off). Anything
 * that takes the page out of the home's plain shared state first calls
 * dsm__hot_drop: an acquire that finds the master copy behind another
 * writer's diff, the home moving away, the page turning exclusive. Each of
 * those follows a release, so the twin equals the page and nothing is lost.
 * Pages readable one-sided (verbs) never turn hot: a reader that is not
 * asking would find them busy for good.
 *
 * Copies. A copy of a page homed elsewhere turns hot the same way when its
 * process writes it in interval after interval (interval.c's release): a
 * counter in a critical section that one process re-acquires locally took
 * a write fault per section there (~20 us on this VM, where the section
 * itself is a microsecond), data that migrates with a lock one per
 * hand-over. At each release a changed hot copy makes its diff for the home
 * as a faulted one does, and its twin is refreshed to the page as released.
 * What ends the state is what ends a copy: a notice of another process's
 * write at an acquire (which, ending the open interval first, leaves the
 * twin equal to the page, so dsm__hot_drop loses nothing), and a
 * collective: homes move and records are collected there, and neither
 * knows hot copies, so a collective's release cools the unchanged ones and
 * takes the changed ones out of the state after their diff (whose making
 * the collective may hold: dsm__hot_unlist keeps the twin for it).
 *
 * Why compare rather than ask the kernel which pages were written
 * (userfaultfd write-protect in async mode with PAGEMAP_SCAN, Linux 6.7+,
 * which this VM's kernel has): tried and measured (2026-11-24). The kernel's
 * answer is cheap (~2 ns a page walked) but every write to a re-armed page
 * then takes a kernel fault, 0.9-1.2 us here, and a hot page is written
 * every interval or every few: fft3d traded 0.3 s of user time (the
 * comparisons) for 0.25 s more system time, qsort and tsp moved within
 * noise, the stencil did not change. It would pay for large hot sets that
 * stay idle for many releases, which HOT_IDLE_SCANS already cools.
 */
#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"
#include "lrc.h"
#include "onesided.h"

#define HOT_IDLE 8
#define HOT_IDLE_SCANS 16

static uint32_t *hot;          /* the hot pages; p->hot_at is a page's index */
static size_t nhot, hot_cap;

static size_t hot_max(void)
{
  static long max = -1;
  if (max < 0)
    max = dsm__env_long("DSM_HOT_PAGES", 16384, 0, 1 << 20);
  return (size_t)max;
}

static void forget(dsm__page_t *p)
{
  p->hot = 0;
  p->dirty = 0;
  p->twin_lag = 0;
  dsm__twin_free(p->twin);
  p->twin = NULL;
}

static void unlist(uint32_t pg, dsm__page_t *p)
{
  uint32_t at = p->hot_at;
  DSM__ASSERT(at < nhot && hot[at] == pg);
  hot[at] = hot[--nhot];
  dsm__page(hot[at])->hot_at = at;
  p->hot = 0;
}

void dsm__hot_drop(uint32_t pg, dsm__page_t *p)
{
  if (!p->hot)
    return;
  unlist(pg, p);
  forget(p);
}

void dsm__hot_unlist(uint32_t pg, dsm__page_t *p)
{
  if (!p->hot)
    return;
  unlist(pg, p);
  p->twin_lag = 0;
}

int dsm__hot_keep(uint32_t pg, dsm__page_t *p, uint32_t since, int pushed)
{
  if (!p->hot) {
    /* With several threads in the process a page written through a release
     * could lose a write made while the release reads it (interval.c). */
    if (dsm__threads > 1 ||
        since == 0 || since > HOT_IDLE || nhot >= hot_max() || p->prot != DSM__PROT_WRITE ||
        dsm__os_home_registered(pg))
      return 0;
    if (nhot == hot_cap) {
      hot_cap = hot_cap ? 2 * hot_cap : 64;
      hot = realloc(hot, hot_cap * sizeof *hot);
      if (!hot) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    }
    p->hot = 1;
    p->hot_at = (uint32_t)nhot;
    hot[nhot++] = pg;
    DSM__STAT_INC(hot_pages);
  }
  p->hot_idle = 0;
  if (pushed)
    p->twin_lag = 1;
  else
    memcpy(p->twin, dsm__page_current(pg), DSM__PAGE);
  return 1;
}

void dsm__hot_scan(int collective)
{
  /* Copies do not stay hot through a collective: it may move homes and
   * collect garbage, which know nothing of them. A changed one goes into
   * the interval and leaves the hot state there (interval.c). */
  size_t cooled = 0;
  for (size_t i = 0; i < nhot;) {
    uint32_t pg = hot[i];
    dsm__page_t *p = dsm__page(pg);
    if (memcmp(dsm__page_current(pg), p->twin, DSM__PAGE) != 0) {
      dsm__dirty_add(pg);
      DSM__STAT_INC(hot_writes);
      i++;
    } else if ((p->home == dsm__rank || !collective) &&
               dsm__vt[dsm__rank] + 1 - p->own_last <= HOT_IDLE &&
               ++p->hot_idle < HOT_IDLE_SCANS) {
      i++;
    } else {
      /* Unchanged for long: protected again, so the next write is seen by
       * a fault. The cooled page goes to the end of the array, out of the
       * hot part, until its protection is in. */
      uint32_t last = hot[--nhot];
      hot[i] = last;
      dsm__page(last)->hot_at = (uint32_t)i;
      hot[nhot] = pg;
      cooled++;
      forget(p);
      dsm__prot_queue(pg, DSM__PROT_READ);
    }
  }
  if (!cooled)
    return;
  dsm__prot_flush();
  for (size_t k = 0; k < cooled; k++)
    dsm__os_home_end(hot[nhot + k]);
}
