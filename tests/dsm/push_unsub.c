/*
 * When a reader stops taking pushes (dsm/fetch.c, PUSH_IDLE_UNSUB).
 *
 * Rank 0 is the home of a few pages and rewrites them every epoch. Phase 1: every other rank reads them every third epoch
 * only, as an OpenMP program reads an array that three regions of each time
 * step write. The readers must stay subscribed: after the first epochs they
 * fetch nothing and unsubscribe from nothing. Phase 2: nobody reads them;
 * each reader must unsubscribe, and then rank 0 pushes nothing more.
 */
#include "push_epochs.h"

#define PAGES 4
#define WORDS (PAGES * 512)
#define EPOCHS 45

DSM_SHARED_BSS static long *area;

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), np = dsm_nprocs();
  CHECK(np >= 2);
  if (me == 0)
    area = dsm_malloc(WORDS * sizeof *area);
  dsm_barrier(0);
  long long fetched = 0;
  long e = 1;
  for (; e <= EPOCHS; e++) {
    if (e == 7)
      fetched = dsm_stat("pages_fetched");
    push_epoch(area, WORDS, e, e % 3 == 1, 97);
  }
  if (me != 0) {
    printf("push_unsub: rank %u read every third epoch: %lld pages fetched after epoch 6, "
           "%lld unsubscribed\n", me, (long long)dsm_stat("pages_fetched") - fetched,
           (long long)dsm_stat("push_unsubs"));
    CHECK_EQ(dsm_stat("pages_fetched"), fetched);
    CHECK_EQ(dsm_stat("push_unsubs"), 0);
  }
  /* Unsubscribed within 44 epochs of the last read; nothing pushed in the
   * 46 after that. */
  push_stop_reading("push_unsub", area, WORDS, PAGES, &e, EPOCHS - 1, EPOCHS + 1);
  if (me == 0)
    printf("push_unsub: OK\n");
  dsm_exit(0);
}
