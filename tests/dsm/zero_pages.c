/*
 * Pages of zeros travel as their kind alone (dsm/home.c, dsm/fetch.c): a
 * PAGE reply carries, per page, the version vector, the kind and the bytes
 * only when the page is not all zeros. Checked, with pushes off so that
 * every refresh is a fetch, by readers that read every word:
 *   1. pages the master allocated and never wrote arrive as zeros, and the
 *      home counts each one it served that way, without reading them: its
 *      memory for them is still not there afterwards (mincore), where a
 *      look at their bytes would have made the kernel allocate them;
 *   2. a reader whose copy holds data sees the zeros the home wrote over
 *      it (its own bytes of the older value must go), while the pages
 *      between them, rewritten with data, arrive whole in the same
 *      prefetched runs (a reply that mixes both kinds).
 */
#include <string.h>
#include <sys/mman.h>
#include "check.h"

#define NPG   32
#define WORDS 512

static long value(int round, long pg, long w) { return round * 100000L + pg * 1000 + w + 1; }

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), np = dsm_nprocs();
  CHECK(np >= 2);
  static long *a;
  if (me == 0) {
    a = dsm_malloc(NPG * 4096);
    CHECK(a && ((uintptr_t)a & 4095) == 0);
    dsm_distribute(&a, sizeof a);
  }
  /* Counts are read before the barrier that lets the readers go. */
  int64_t z0 = me == 0 ? dsm_stat("zero_pages_served") : 0;
  dsm_barrier(0);

  /* 1. Never written: zeros, served as such. */
  if (me != 0)
    for (long i = 0; i < NPG * WORDS; i++)
      CHECK_EQ(a[i], 0);
  dsm_barrier(1);
  int64_t z1 = me == 0 ? dsm_stat("zero_pages_served") : 0;
  if (me == 0) {
    printf("zero_pages: %lld pages of zeros served to %u readers\n", (long long)(z1 - z0), np - 1);
    CHECK(z1 - z0 >= (int64_t)NPG * (np - 1));
    unsigned char in[NPG];
    CHECK_EQ(mincore(a, NPG * 4096, in), 0);
    int resident = 0;
    for (int pg = 0; pg < NPG; pg++)
      resident += in[pg] & 1;
    printf("zero_pages: %d of them in the home's memory\n", resident);
    CHECK_EQ(resident, 0);
  }

  /* 2. Data everywhere, then zeros over the even pages and new data on the
   * odd ones. */
  if (me == 0)
    for (long pg = 0; pg < NPG; pg++)
      for (long w = 0; w < WORDS; w++)
        a[pg * WORDS + w] = value(1, pg, w);
  dsm_barrier(2);
  if (me != 0)
    for (long pg = 0; pg < NPG; pg++)
      for (long w = 0; w < WORDS; w++)
        CHECK_EQ(a[pg * WORDS + w], value(1, pg, w));
  dsm_barrier(3);
  if (me == 0)
    for (long pg = 0; pg < NPG; pg++) {
      if (pg % 2 == 0)
        memset(&a[pg * WORDS], 0, 4096);
      else
        for (long w = 0; w < WORDS; w++)
          a[pg * WORDS + w] = value(2, pg, w);
    }
  int64_t z2 = me == 0 ? dsm_stat("zero_pages_served") : 0;
  dsm_barrier(4);
  if (me != 0)
    for (long pg = 0; pg < NPG; pg++)
      for (long w = 0; w < WORDS; w++)
        CHECK_EQ(a[pg * WORDS + w], pg % 2 == 0 ? 0 : value(2, pg, w));
  dsm_barrier(5);
  if (me == 0) {
    int64_t z3 = dsm_stat("zero_pages_served");
    printf("zero_pages: %lld pages of zeros served over older copies\n", (long long)(z3 - z2));
    CHECK(z3 - z2 >= (int64_t)(NPG / 2) * (np - 1));
  }
  dsm_barrier(6);
  dsm_exit(0);
}
