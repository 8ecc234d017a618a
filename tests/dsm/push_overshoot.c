/*
 * The pages a cold run overshoots (dsm/fetch.c) and the pushes they
 * subscribe to (dsm/interval.c): a reader that touched a page of a 64-page
 * run and never the rest takes one pushed copy of each of the others, not
 * three, before it unsubscribes.
 *
 * Rank 0, the home, fills 64 pages; every other rank reads a word of the
 * first, which fetches the whole run with the other 63 held inaccessible.
 * Then for EPOCHS epochs rank 0 rewrites all 64 pages and the readers read
 * the first one only. An untouched held copy counts as two pushed copies
 * that went unread, so each of the 63 is pushed once more, found unread,
 * and unsubscribed at its second push: every reader unsubscribes from 63
 * pages, and rank 0 pushes at most EPOCHS copies of the first page and two
 * of each other one per reader. (Counted as three unread pushes each, as
 * before this rule, the same run pushes each of the 63 four times: 252 +
 * EPOCHS per reader.)
 */
#include "check.h"

#define PAGES 64
#define PW 512          /* longs in a page */
#define EPOCHS 12

DSM_SHARED_BSS static long *area;

static long value(long e, long i) { return e * 1000003 + i; }

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), np = dsm_nprocs();
  CHECK(np >= 2);
  if (me == 0) {
    area = dsm_malloc(PAGES * PW * sizeof *area);
    CHECK(area && ((uintptr_t)area & 4095) == 0);
    for (long i = 0; i < PAGES * PW; i++)
      area[i] = value(0, i);
  }
  dsm_barrier(0);
  long *a = area;       /* its own page fetched first */
  if (me != 0) {
    int64_t held = dsm_stat("fetch_held");
    CHECK_EQ(a[5], value(0, 5));
    CHECK_EQ(dsm_stat("fetch_held") - held, PAGES - 1);
  }
  dsm_barrier(1);
  int64_t pushed0 = dsm_stat("pushes_sent");
  for (long e = 1; e <= EPOCHS; e++) {
    if (me == 0)
      for (long i = 0; i < PAGES * PW; i++)
        a[i] = value(e, i);
    dsm_barrier(2);
    if (me != 0)
      CHECK_EQ(a[e], value(e, e));
    dsm_barrier(3);
  }
  if (me != 0) {
    printf("push_overshoot: rank %u unsubscribed from %lld pages\n", me,
           (long long)dsm_stat("push_unsubs"));
    CHECK_EQ(dsm_stat("push_unsubs"), PAGES - 1);
  } else {
    long long pushed = dsm_stat("pushes_sent") - pushed0;
    printf("push_overshoot: rank 0 pushed %lld copies in %d epochs to %u readers\n", pushed,
           EPOCHS, np - 1);
    CHECK(pushed <= (long long)(np - 1) * (EPOCHS + 2 * (PAGES - 1)));
  }
  dsm_barrier(4);
  dsm_exit(0);
}
