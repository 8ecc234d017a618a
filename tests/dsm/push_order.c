/*
 * Pushes that a barrier names arrive before the acquire (issue 13).
 *
 * Rank 0 is the home of a few pages and rewrites them every epoch; every
 * other process reads them after the barrier. A PUSH goes straight from the
 * home to the reader and the barrier's departure through the manager, so
 * the departure often comes first; if the reader acquired then, it would
 * find its copy out of date and fetch the page the push was bringing. The
 * departure names how many pushes each home has sent to the reader, and
 * the reader waits for them: after the first epoch (cold fetches) a reader
 * fetches nothing, however the messages race, and under loss too
 * (the meson entry sets DSM_LOSS: a lost PUSH is waited for, not
 * replaced by a fetch).
 */
#include "check.h"

#define PAGES 4
#define EPOCHS 200

DSM_SHARED_BSS static long *area;

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id();
  if (me == 0)
    area = dsm_malloc(PAGES * 4096);
  dsm_barrier(0);
  long long cold = 0;
  for (long e = 1; e <= EPOCHS; e++) {
    if (e == 2)
      cold = dsm_stat("pages_fetched");
    if (me == 0)
      for (long i = 0; i < PAGES * 512; i++)
        area[i] = e * 10000 + i;
    dsm_barrier(1);
    for (long i = 0; i < PAGES * 512; i += 61)
      CHECK_EQ(area[i], e * 10000 + i);
    dsm_barrier(2);
  }
  if (me != 0) {
    printf("rank %u: %lld pushed copies used, %lld pages fetched (%lld in the first epoch), "
           "%lld waits for pushes\n", me, (long long)dsm_stat("pushes_installed"),
           (long long)dsm_stat("pages_fetched"), cold, (long long)dsm_stat("push_waits"));
    CHECK(cold >= PAGES);
    CHECK_EQ(dsm_stat("pages_fetched"), cold);
    CHECK(dsm_stat("pushes_installed") >= (EPOCHS - 1) * PAGES);
  }
  dsm_barrier(3);
  if (me == 0)
    printf("push_order: %d epochs, every pushed page there before the acquire: OK\n", EPOCHS);
  dsm_exit(0);
}
