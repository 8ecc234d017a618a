/*
 * When a reader stops taking pushes (dsm/fetch.c, PUSH_IDLE_UNSUB).
 *
 * Rank 0 is the home of a few pages and rewrites them every epoch. Phase 1: every other rank reads them every third epoch
 * only, as an OpenMP program reads an array that three regions of each time
 * step write. The readers must stay subscribed: after the first epochs they
 * fetch nothing and unsubscribe from nothing. Phase 2: nobody reads them;
 * each reader must unsubscribe, and then rank 0 pushes nothing more.
 */
#include "check.h"

#define PAGES 4
#define WORDS (PAGES * 512)
#define EPOCHS 45

DSM_SHARED_BSS static long *area;

static void epoch(long e, int read)
{
  if (dsm_proc_id() == 0)
    for (long i = 0; i < WORDS; i++)
      area[i] = e * 10000 + i;
  dsm_barrier(1);
  if (read && dsm_proc_id() != 0)
    for (long i = 0; i < WORDS; i += 97)
      CHECK_EQ(area[i], e * 10000 + i);
  dsm_barrier(2);     /* the next epoch's writes come after the reads */
}

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), np = dsm_nprocs();
  CHECK(np >= 2);
  if (me == 0)
    area = dsm_malloc(WORDS * sizeof *area);
  dsm_barrier(0);
  long long fetched = 0;
  for (long e = 1; e <= EPOCHS; e++) {
    if (e == 7)
      fetched = dsm_stat("pages_fetched");
    epoch(e, e % 3 == 1);
  }
  if (me != 0) {
    printf("push_unsub: rank %u read every third epoch: %lld pages fetched after epoch 6, "
           "%lld unsubscribed\n", me, (long long)dsm_stat("pages_fetched") - fetched,
           (long long)dsm_stat("push_unsubs"));
    CHECK_EQ(dsm_stat("pages_fetched"), fetched);
    CHECK_EQ(dsm_stat("push_unsubs"), 0);
  }
  long long before = 0;
  for (long e = EPOCHS + 1; e <= 3 * EPOCHS; e++) {
    if (e == 2 * EPOCHS && me == 0)
      before = dsm_stat("pushes_sent");
    epoch(e, 0);
  }
  if (me != 0) {
    printf("push_unsub: rank %u stopped reading: %lld pages unsubscribed\n", me,
           (long long)dsm_stat("push_unsubs"));
    CHECK_EQ(dsm_stat("push_unsubs"), PAGES);
  }
  dsm_barrier(3);
  if (me == 0) {
    long long late = dsm_stat("pushes_sent") - before;
    printf("push_unsub: pages pushed in the last %d epochs: %lld\n", EPOCHS, late);
    CHECK_EQ(late, 0);
    printf("push_unsub: OK\n");
  }
  dsm_exit(0);
}
