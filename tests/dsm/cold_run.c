/*
 * A cold run (dsm/fetch.c): the first fault on a page this process never
 * held fetches 64 pages and holds all but the faulting one inaccessible,
 * valid, until touched. The last process faults on page 0 of a fresh
 * block; then the master rewrites page 8 and the next-to-last process (or
 * the master, at n=2) page 9. A held page that stayed valid (7, 16) is
 * read without a request; held pages that went out of date (8, 9) are
 * fetched again with the new values; a write to a held page (20) goes
 * home like any other; and in the end everyone reads every value.
 */
#include "check.h"

#define PW (4096 / 8)
#define NPG 64

static long value(long i) { return i * 7 + 3; }
static int64_t requests(void) { return dsm_stat("msgs_sent.PAGE"); }

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), np = dsm_nprocs(), w = np - 1, other = np > 2 ? np - 2 : 0;
  CHECK(np >= 2);
  static long *b;
  if (me == 0) {
    b = dsm_malloc(NPG * 4096);
    for (long i = 0; i < NPG * PW; i++)
      b[i] = value(i);
    dsm_distribute(&b, sizeof b);
  }
  dsm_barrier(0);
  if (me == w) {
    int64_t r0 = requests(), h0 = dsm_stat("fetch_held");
    CHECK_EQ(b[1], value(1));
    CHECK_EQ(requests() - r0, 1);
    CHECK_EQ(dsm_stat("fetch_held") - h0, NPG - 1);   /* the first cold run: all held */
  }
  dsm_barrier(1);
  if (me == 0)
    b[8 * PW + 1] = -8;
  if (me == other)
    b[9 * PW + 2] = -9;
  dsm_barrier(2);
  if (me == w) {
    int64_t r0 = requests(), u0 = dsm_stat("fetch_held_used");
    CHECK_EQ(b[7 * PW], value(7 * PW));
    CHECK_EQ(b[16 * PW + 5], value(16 * PW + 5));
    CHECK_EQ(requests() - r0, 0);
    CHECK_EQ(dsm_stat("fetch_held_used") - u0, 2);
    CHECK_EQ(b[8 * PW + 1], -8);
    CHECK_EQ(b[9 * PW + 2], -9);
    CHECK_EQ(b[9 * PW + 3], value(9 * PW + 3));   /* (fetched, or pushed by the home) */
    b[20 * PW + 4] = -20;          /* a held page, written first */
  }
  dsm_barrier(3);
  for (long i = 0; i < NPG * PW; i++) {
    long want = i == 8 * PW + 1 ? -8 : i == 9 * PW + 2 ? -9 : i == 20 * PW + 4 ? -20 : value(i);
    CHECK_EQ(b[i], want);
  }
  dsm_barrier(4);
  if (me == 0)
    printf("cold_run: OK\n");
  dsm_exit(0);
}
