/*
 * Run with DSM_PUSH=0, so that every copy is fetched at a read fault.
 *
 * Reads then writes (dsm/write_ahead.c): when most copies that read faults
 * made valid were then written in the same interval, a read fault opens
 * the copies it makes valid for writing at once, and the release drops
 * the ones that were not written.
 *
 * Rank 0 (the home of every page) rewrites all pages each round (and
 * writes them again while the others work, so that no page has a single
 * writer in an interval and moves its home). Every
 * other rank then walks its own 64 pages: three in four it reads and then
 * writes (word 1 = word 0 + its rank), the fourth it only reads. Most
 * copies made valid are written (runs fetched ahead into the next rank's
 * pages are not), so after a few rounds the reads open them. Checked each round, everywhere it can be seen:
 *   - every word rank 0 wrote is read back by the others, and every word
 *     the others wrote reaches rank 0 (which checks them all);
 *   - exactly 48 diffs per round and rank: the pages only read, opened at
 *     the read but not written, make none;
 *   - in the last rounds, at most 4 write faults per round and rank (48
 *     without the rule), and `write_on_read` grew.
 */
#include "check.h"

#define P      64                /* pages per writer */
#define WORDS  512               /* longs in a page */
#define ROUNDS 16
#define LATE   10                /* rounds from which the reads open pages */

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  if (dsm_threads() > 1) {
    if (dsm_proc_id() == 0)
      printf("skipped: pages opened at a read (dsm/write_ahead.c) are off with %u threads per process\n", dsm_threads());
    dsm_exit(77);
  }
  unsigned me = dsm_proc_id(), np = dsm_nprocs();
  CHECK(np >= 2);
  static long *a;
  if (me == 0) {
    a = dsm_malloc((size_t)(np - 1) * P * 4096);
    CHECK(((uintptr_t)a & 4095) == 0);
    dsm_distribute(&a, sizeof a);
  }
  dsm_barrier(0);
  /* Semaphores, not barriers, between the steps: homes move only at
   * collectives (a page one process wrote in an epoch moves to it), and
   * every page must stay homed at rank 0. Semaphore 0 is rank 0's, q is
   * rank q's. */
  int64_t dc = dsm_stat("diffs_created");
  for (long r = 1; r <= ROUNDS; r++) {
    if (me == 0) {
      for (long pg = 0; pg < (long)(np - 1) * P; pg++)
        a[pg * WORDS] = 1000 * r + pg;
      for (unsigned q = 1; q < np; q++)
        dsm_sema_signal(q);
      for (unsigned q = 1; q < np; q++)
        dsm_sema_wait(0);
      for (unsigned q = 1; q < np; q++)
        for (long k = 0; k < P; k++) {
          long pg = (long)(q - 1) * P + k;
          CHECK_EQ(a[pg * WORDS + 1], k % 4 != 3 ? 1000 * r + pg + q : 0);
        }
    } else {
      dsm_sema_wait(me);
      long *mine = a + (long)(me - 1) * P * WORDS;
      int64_t wf = dsm_stat("write_faults"), wor = dsm_stat("write_on_read");
      for (long k = 0; k < P; k++) {
        long pg = (long)(me - 1) * P + k;
        long v = mine[k * WORDS];
        CHECK_EQ(v, 1000 * r + pg);
        if (k % 4 != 3)
          mine[k * WORDS + 1] = v + me;
      }
      int64_t wf_round = dsm_stat("write_faults") - wf, wor_round = dsm_stat("write_on_read") - wor;
      dsm_sema_signal(0);       /* the release makes the round's diffs */
      if (getenv("WOR_DEBUG"))
        fprintf(stderr, "rank %u round %ld: diffs %ld write faults %ld opened at a read %ld\n", me,
                r, (long)(dsm_stat("diffs_created") - dc), (long)wf_round, (long)wor_round);
      CHECK_EQ(dsm_stat("diffs_created") - dc, 3 * P / 4);
      dc = dsm_stat("diffs_created");
      if (r >= LATE) {
        CHECK(wf_round <= 4);
        CHECK(wor_round > 0);
      }
    }
  }
  dsm_barrier(1);
  if (me == 0)
    printf("write_on_read: OK (%u processes)\n", np);
  dsm_exit(0);
}
