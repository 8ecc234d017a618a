/*
 * prot.c — the application view's protections: one page at once
 * (dsm__set_prot), or many gathered and applied together (dsm__prot_queue,
 * dsm__prot_flush). Under dsm__mu.
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
  /* Consecutive page numbers of one segment are consecutive addresses. */
  for (size_t i = 0; i < npq;) {
    uint32_t first = pq[i];
    uint32_t seg_end = dsm__page_seg_end(first);
    int prot = dsm__page(first)->prot;
    size_t j = i + 1;
    uint32_t last = first;
    while (j < npq && pq[j] == last + 1 && pq[j] < seg_end && dsm__page(pq[j])->prot == prot) {
      last = pq[j];
      j++;
    }
    if (mprotect((void *)dsm__page_addr(first), (size_t)(last - first + 1) * DSM__PAGE,
                 os_prot[prot]) < 0)
      dsm__fatal(DSM__EXIT_FATAL, "mprotect of shared pages %u-%u failed: %s", first, last,
                 strerror(errno));
    DSM__STAT_INC(mprotects);
    i = j;
  }
  npq = 0;
}
