/*
 * Large DIFF messages, applied at the home SLICE pages at a time by a
 * thread of their own (dsm/diff_recv.c), while the readers ask for the
 * pages they cover, the home reads them itself, and a second writer's
 * large diff of the same pages comes in behind the first.
 *
 * Rank 0 allocates PAGES pages (their home). Each round, ranks 1 and 2 (1
 * alone at n=2) write their own word of every page and signal every other
 * process's semaphore: a release, which sends the home one DIFF of every
 * page. Each process waits for the writers' signals (an acquire) and reads
 * every page at once: the home while the diffs are still being applied,
 * the others asking for pages the applier may not have reached (odd ranks
 * from the far end). Then each signals the writers that it has read.
 * No collective in between, so no page moves to its writer.
 */
#include "check.h"

#define PAGES 1024
#define ROUNDS 4
#define WORDS 512          /* longs per page */
#define SEM_WRITTEN 10     /* + reader: a writer's round is written */
#define SEM_READ 100       /* + writer: a reader has checked the round */

static long value(long r, unsigned w, int pg) { return r * 1000000 + (long)w * 100000 + pg; }

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), np = dsm_nprocs();
  CHECK(np >= 2);
  unsigned writers = np > 2 ? 2 : 1;
  int writer = me >= 1 && me <= writers;
  static long *a;
  if (me == 0) {
    a = dsm_malloc(PAGES * 4096);
    for (int i = 0; i < PAGES * WORDS; i++)
      a[i] = -1;
    dsm_distribute(&a, sizeof a);
  }
  dsm_barrier(0);
  for (long r = 1; r <= ROUNDS; r++) {
    if (writer) {
      for (int pg = 0; pg < PAGES; pg++)
        a[pg * WORDS + me] = value(r, me, pg);
      for (unsigned q = 0; q < np; q++)
        if (q != me)
          dsm_sema_signal(SEM_WRITTEN + q);
    }
    for (unsigned w = 1; w <= writers; w++)
      if (w != me)
        dsm_sema_wait(SEM_WRITTEN + me);
    for (int k = 0; k < PAGES; k++) {
      int pg = (me % 2) ? PAGES - 1 - k : k;
      CHECK_EQ(a[pg * WORDS], -1);
      for (unsigned w = 1; w <= writers; w++)
        CHECK_EQ(a[pg * WORDS + w], value(r, w, pg));
      CHECK_EQ(a[pg * WORDS + writers + 1], -1);
    }
    for (unsigned w = 1; w <= writers; w++)
      if (w != me)
        dsm_sema_signal(SEM_READ + w);
    if (writer)
      for (unsigned q = 0; q < np - 1; q++)
        dsm_sema_wait(SEM_READ + me);
  }
  if (me == 0) {
    /* Every round's DIFFs (PAGES pages each) went through the applier. */
    CHECK(dsm_stat("diff_slices") >= (long)ROUNDS * writers * (PAGES / 64 - 1));
    CHECK(dsm_stat("diffs_applied") >= (long)ROUNDS * writers * PAGES);
    printf("diff_slices: OK (%ld slices, %ld requests held)\n", (long)dsm_stat("diff_slices"),
           (long)dsm_stat("requests_held"));
  }
  dsm_barrier(1);
  dsm_exit(0);
}
