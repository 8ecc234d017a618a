/*
 * Protection spans (dsm/prot.c): close runs of pages whose protections
 * change together are set PROT_NONE as one stretch and the runs that must
 * stay open are opened again. A mistake there shows as a page left readable
 * over an old copy (a stale value read), a page left writable where a write
 * must be seen (a write lost), or a writable page left closed (a fault the
 * handler does not own: the process dies).
 *
 * The array is blocks of 32 pages, each block cut into one stripe per
 * process. In each step every process writes its stripe of every block
 * (its runs are 8-16 pages with the other processes' stripes between them,
 * so its release write-protects close runs), then everyone reads every
 * page (each acquire closes the others' stripes between its own readable
 * ones). Odd steps write every page of a stripe, even steps every other
 * page, so that pages go between writable, readable and closed in every
 * combination inside one stretch. Every value read is checked; at the end
 * every process must have used spans (unless they are off: several
 * threads per process, or DSM_PROT_SPAN=0).
 */
#include <stdlib.h>

#include "check.h"

#define BLOCKS 24
#define BLOCK 32                 /* pages */
#define WORDS (4096 / sizeof(long))
#define STEPS 8

static long *a;                  /* BLOCKS * BLOCK pages */

static long value(long step, size_t pg, unsigned writer)
{
  return step * 1000003L + (long)pg * 17 + writer;
}

/* Which process writes page pg, and whether it does in this step. */
static unsigned writer_of(size_t pg, unsigned np)
{
  return (unsigned)((pg % BLOCK) * np / BLOCK);
}

static int written(size_t pg, long step)
{
  return step % 2 == 1 || pg % 2 == 0;
}

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), np = dsm_nprocs();
  CHECK(np >= 2 && np <= BLOCK / 4);
  size_t npg = (size_t)BLOCKS * BLOCK;
  if (me == 0) {
    a = dsm_malloc(npg * 4096);
    CHECK(a != NULL);
    for (size_t pg = 0; pg < npg; pg++)
      a[pg * WORDS] = -1;
    dsm_distribute(&a, sizeof a);
  }
  dsm_barrier(0);
  unsigned bid = 1;
  /* last[pg]: the step whose value page pg holds. */
  long *last = calloc(npg, sizeof *last);
  CHECK(last != NULL);
  for (long step = 1; step <= STEPS; step++) {
    for (size_t pg = 0; pg < npg; pg++)
      if (writer_of(pg, np) == me && written(pg, step))
        a[pg * WORDS + (size_t)step % WORDS] = value(step, pg, me);
    dsm_barrier(bid++);
    for (size_t pg = 0; pg < npg; pg++) {
      if (written(pg, step))
        last[pg] = step;
      unsigned w = writer_of(pg, np);
      if (last[pg])
        CHECK_EQ(a[pg * WORDS + (size_t)last[pg] % WORDS], value(last[pg], pg, w));
      else
        CHECK_EQ(a[pg * WORDS], -1);
    }
    dsm_barrier(bid++);
  }
  const char *off = getenv("DSM_PROT_SPAN");
  if (dsm_threads() == 1 && !(off && atoi(off) == 0))
    CHECK(dsm_stat("prot_spans") > 0);
  free(last);
  dsm_barrier(bid);
  dsm_exit(0);
}
