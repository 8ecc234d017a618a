/*
 * A long run: BARRIERS (environment, default 10,000) barriers, each after writes to shared pages, so
 * intervals, records, notices, twins and diffs keep coming. Garbage
 * collection must keep the consistency data of every process under a fixed
 * bound (BOUND_KB), checked through the statistics. The data must stay right
 * throughout.
 */
#include "check.h"

#define PAGES 64

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  static long *a;
  if (me == 0) {
    a = dsm_malloc(PAGES * 4096);
    dsm_distribute(&a, sizeof a);
  }
  dsm_barrier(0);
  const size_t per_page = 4096 / sizeof(long);
  long barriers = atol(getenv("BARRIERS") ? getenv("BARRIERS") : "10000");
  CHECK(barriers >= 1000);
  for (long b = 1; b <= barriers; b++) {
    /* Each process writes one word in a rotating set of pages. */
    size_t pg = (size_t)(b * 7 + me) % PAGES;
    a[pg * per_page + me] = b;
    dsm_barrier(1);
    if (b % 1000 == 0) {
      /* Everyone's latest writes are visible. */
      for (unsigned r = 0; r < n; r++) {
        size_t rp = (size_t)(b * 7 + r) % PAGES;
        CHECK_EQ(a[rp * per_page + r], b);
      }
    }
  }
  int64_t peak = dsm_stat("consistency_peak"), gcs = dsm_stat("gc_runs");
  long bound = atol(getenv("BOUND_KB") ? getenv("BOUND_KB") : "8192") << 10;
  printf("rank %u: consistency peak %lld bytes, %lld collections\n", me, (long long)peak, (long long)gcs);
  CHECK(peak < bound);
  CHECK(gcs > 0);
  dsm_barrier(2);
  dsm_exit(0);
}
