/*
 * The barrier's manager (rank 0) applies only the records of the barrier
 * it is in (sync/barrier.c). With DSM_TEST_LAG=0:ms the manager sleeps
 * before it applies each departure; meanwhile the others, already
 * departed, write one word in each of 32 pages homed at rank 0 (more than
 * a barrier's release sends at once: their diffs wait for the next
 * departure, dsm/diff_send.c) and arrive at the next barrier. The manager
 * then reads other words of those pages. Had it applied their new
 * intervals with the old barrier, its home pages would wait for the held
 * diffs, and the held diffs for its arrival: the job hung (water under 5%
 * loss, once in 30 runs). alarm() ends a hang at once. In the end everyone
 * sees every write.
 */
#include <unistd.h>
#include "check.h"

#define NPG 32
#define PW (4096 / 8)

static long value(long i) { return i * 3 + 1; }

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  alarm(60);
  unsigned me = dsm_proc_id(), np = dsm_nprocs();
  CHECK(np >= 2 && np <= 9);
  static long *a;
  if (me == 0) {
    a = dsm_malloc(NPG * 4096);
    for (long i = 0; i < NPG * PW; i++)
      a[i] = value(i);
    dsm_distribute(&a, sizeof a);
  }
  dsm_barrier(0);
  for (int round = 1; round <= 3; round++) {
    dsm_barrier(1);
    if (me != 0) {
      for (long pg = 0; pg < NPG; pg++)
        a[pg * PW + me] = -(round * 100 + (long)me);
    } else {
      long sum = 0;
      for (long pg = 0; pg < NPG; pg++)
        sum += a[pg * PW + PW / 2];        /* nobody writes these */
      long want = 0;
      for (long pg = 0; pg < NPG; pg++)
        want += value(pg * PW + PW / 2);
      CHECK_EQ(sum, want);
    }
    dsm_barrier(2);
    for (long pg = 0; pg < NPG; pg++)
      for (unsigned r = 1; r < np; r++)
        CHECK_EQ(a[pg * PW + r], -(round * 100 + (long)r));
  }
  dsm_barrier(3);
  if (me == 0)
    printf("barrier_early: OK\n");
  dsm_exit(0);
}
