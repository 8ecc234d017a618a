/*
 * Pushed copies racing faults (issue 13: "a pushed diff racing a fault").
 *
 * Rank 0 is the home of a few pages and rewrites them every epoch; every
 * other process reads them every epoch, so it is subscribed and rank 0
 * pushes the new copies with each release. Run with DSM_LOSS and
 * DSM_PUSH_WAIT=0 (the test's meson entry sets them): a lost PUSH is resent
 * later, and the reader does not wait for the pushes the barrier names
 * (push_order does), so it sometimes faults before the push is there and
 * fetches the page itself, and the
 * late push then arrives holding an older copy than the reader has, or one
 * that is older than what the next epoch needs. Neither may be installed.
 * Every epoch every reader checks every word, and, to show that pushes
 * really were used, at the end the readers' pushes_installed is positive.
 */
#include "check.h"

#define PAGES 4
#define EPOCHS 300

DSM_SHARED_BSS static long *area;

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id();
  if (me == 0)
    area = dsm_malloc(PAGES * 4096);
  dsm_barrier(0);
  for (long e = 1; e <= EPOCHS; e++) {
    if (me == 0)
      for (long i = 0; i < PAGES * 512; i++)
        area[i] = e * 10000 + i;
    dsm_barrier(1);
    for (long i = 0; i < PAGES * 512; i += 97)
      CHECK_EQ(area[i], e * 10000 + i);
    CHECK_EQ(area[PAGES * 512 - 1], e * 10000 + PAGES * 512 - 1);
    dsm_barrier(2);
  }
  if (me != 0) {
    printf("rank %u: %lld pushed copies used, %lld pages fetched\n", me,
           (long long)dsm_stat("pushes_installed"), (long long)dsm_stat("pages_fetched"));
    CHECK(dsm_stat("pushes_installed") > 0);
  }
  dsm_barrier(3);
  if (me == 0)
    printf("push_race: %d epochs of pushed pages under loss: OK\n", EPOCHS);
  dsm_exit(0);
}
