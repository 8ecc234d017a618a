/*
 * How often a reader checks that the pushes it gets are used (dsm/fetch.c:
 * the probe fault, and the trust that doubles while probes find their
 * copies used).
 *
 * Rank 0 is the home of a few pages and rewrites them every epoch; every
 * other rank reads every word of them every epoch. Phase 1: once the trust
 * has grown, a reader takes at most one local fault per page in 128 epochs
 * (one in 8 if the trust did not grow), fetches nothing (every copy comes by
 * push) and reads every value right. Phase 2: nobody reads; every reader
 * must still unsubscribe within the bound (PUSH_TRUST_MAX + PUSH_IDLE_UNSUB
 * + 1 = 131 epochs), and then rank 0 pushes nothing more.
 */
#include "push_epochs.h"

#define PAGES 8
#define WORDS (PAGES * 512)
#define PROVE 48          /* epochs for the trust to reach its top (probes at 2, 10, 42) */
#define STEADY 256        /* epochs counted after that (probes at 170 and 298) */
#define QUIET 140         /* epochs without reads before the unsubscriptions are checked */
#define AFTER 20          /* epochs in which rank 0 must push nothing */

DSM_SHARED_BSS static long *area;

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), np = dsm_nprocs();
  CHECK(np >= 2);
  if (me == 0)
    area = dsm_malloc(WORDS * sizeof *area);
  dsm_barrier(0);
  long e = 1;
  for (; e <= PROVE; e++)
    push_epoch(area, WORDS, e, 1, 1);
  long long faults = dsm_stat("local_faults"), fetched = dsm_stat("pages_fetched");
  for (; e <= PROVE + STEADY; e++)
    push_epoch(area, WORDS, e, 1, 1);
  if (me != 0) {
    faults = dsm_stat("local_faults") - faults;
    fetched = dsm_stat("pages_fetched") - fetched;
    printf("push_trust: rank %u read %d pages in each of %d epochs: %lld local faults, "
           "%lld pages fetched\n", me, PAGES, STEADY, faults, fetched);
    /* Two probes per page (32 with a trust that stays at 7). */
    CHECK(faults <= 3 * PAGES);
    CHECK_EQ(fetched, 0);
    CHECK_EQ(dsm_stat("push_unsubs"), 0);
  }
  push_stop_reading("push_trust", area, WORDS, PAGES, &e, QUIET, AFTER);
  if (me == 0)
    printf("push_trust: OK\n");
  dsm_exit(0);
}
