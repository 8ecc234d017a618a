/*
 * A page this process held and then gave away is not cold (dsm/fetch.c,
 * never_held): when it reads the page again, it asks for that page, not
 * for a cold run of 64 that takes the new home's part of the array and
 * subscribes it to their pushes.
 *
 * Two ways a home gives a page away, one array each. Rank 0 fills both.
 * Given with its data: the last rank's first writes take the upper half of
 * the first array (first_touch.c). Moved to its writer: the last rank
 * reads the upper half of the second array in one epoch and rewrites it
 * in the next, and the barrier moves those pages' home to it (home.c).
 * Then rank 0 reads one page of each half, as a stencil reads its
 * neighbour's row: one page fetched each time, where a cold run took 64.
 * Everyone then checks both arrays.
 */
#include "check.h"

#define PW 512                   /* longs in a page */
#define NP 256                   /* pages of each array */

static long value(long i) { return i * 7 + 3; }
static int64_t fetched(void) { return dsm_stat("pages_fetched"); }

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), np = dsm_nprocs(), w = np - 1;
  CHECK(np >= 2);
  static long *g, *m;
  if (me == 0) {
    g = dsm_malloc((size_t)NP * 4096);
    m = dsm_malloc((size_t)NP * 4096);
    CHECK(g && m);
    for (long i = 0; i < (long)NP * PW; i++)
      g[i] = m[i] = value(i);
    dsm_distribute(&g, sizeof g);
    dsm_distribute(&m, sizeof m);
  }
  dsm_barrier(0);
  long sum = 0;
  if (me == w) {
    int64_t got0 = dsm_stat("homes_received");
    for (long i = NP / 2 * PW; i < (long)NP * PW; i++)
      g[i] = -value(i);                     /* given to us with their data */
    CHECK(dsm_stat("homes_received") - got0 >= NP / 2);
    for (long i = NP / 2 * PW; i < (long)NP * PW; i++)
      sum += m[i];                          /* copies, home 0 */
  }
  dsm_barrier(1);
  if (me == w)
    for (long i = NP / 2 * PW; i < (long)NP * PW; i++)
      m[i] = -value(i);                     /* written alone: the home moves here */
  dsm_barrier(2);
  if (me == 0) {
    int64_t f0 = fetched();
    CHECK_EQ(g[NP / 2 * PW + 9], -value(NP / 2 * PW + 9));
    int64_t given = fetched() - f0;
    f0 = fetched();
    CHECK_EQ(m[NP / 2 * PW + 9], -value(NP / 2 * PW + 9));
    int64_t moved = fetched() - f0;
    printf("halo_after_gift: a page read back after its gift: %lld fetched; after its move: "
           "%lld\n", (long long)given, (long long)moved);
    fflush(stdout);
    CHECK(given <= 2);
    CHECK(moved <= 2);
  }
  dsm_barrier(3);
  for (long i = 0; i < (long)NP * PW; i++) {
    long want = i >= NP / 2 * PW ? -value(i) : value(i);
    CHECK_EQ(g[i], want);
    CHECK_EQ(m[i], want);
  }
  (void)sum;
  dsm_barrier(4);
  if (me == 0)
    printf("halo_after_gift: OK (%u processes)\n", np);
  dsm_exit(0);
}
