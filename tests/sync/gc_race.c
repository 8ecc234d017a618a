/*
 * Garbage collection racing with synchronization. A collection (DSM_GC_MB=0:
 * at every barrier of the job) discards interval records; right after the
 * barrier a token goes round a semaphore ring, so a process that leaves the
 * barrier first signals managers (and creates records) while others are
 * still collecting. Each holder of the token checks the previous holder's
 * write. A collection that drops records created after the barrier, or
 * delivers records with a gap, fails here ("malformed interval records", or
 * a wrong token value). The rewrite of the protocol had exactly that bug
 * once: the barrier manager discarded records a fast peer had already
 * brought for the next barrier (found by dsm/barrier_gc at 8 processes).
 */
#include "check.h"

#define ROUNDS 60
#define PAGES 300  /* per process per round */

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  static long *area, *token;
  if (me == 0) {
    area = dsm_malloc((size_t)n * PAGES * 4096);
    token = dsm_malloc(4096);
    *token = 0;
    dsm_distribute(&area, sizeof area);
    dsm_distribute(&token, sizeof token);
  }
  dsm_barrier(0);
  const size_t per_page = 4096 / sizeof(long);
  for (long round = 1; round <= ROUNDS; round++) {
    for (size_t p = 0; p < PAGES; p++)
      area[(me * PAGES + p) * per_page + (size_t)round % per_page] = round;
    dsm_barrier(1);
    /* The ring: rank 0 starts, each passes the token to the next. */
    if (me != 0) {
      dsm_sema_wait(100 + me);
      CHECK_EQ(*token, round * n + me - 1);
    }
    *token = round * n + me;
    if (n > 1) dsm_sema_signal(100 + (me + 1) % n);
    if (me == 0 && n > 1) {
      dsm_sema_wait(100);
      CHECK_EQ(*token, round * n + n - 1);
    }
  }
  dsm_barrier(2);
  CHECK(dsm_stat("gc_runs") > 0);
  if (me == 0)
    printf("gc_race: %d rounds, %lld collections on %u processes: OK\n", ROUNDS,
           (long long)dsm_stat("gc_runs"), n);
  dsm_exit(0);
}
