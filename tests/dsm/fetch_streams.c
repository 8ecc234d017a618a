/*
 * Page fetches follow streams of faults (dsm/fetch.c): the master fills
 * 4 MiB; another process reads it forward, then (a second array) backward,
 * then (a third) from both ends toward the middle at once, as a partition
 * does. Each walk must take a few dozen PAGE requests (runs that double up
 * to DSM_PREFETCH pages), not one per page, and every word must be right.
 */
#include <stdint.h>
#include "check.h"

#define WORDS (4u << 20) / sizeof(uint64_t)
#define PAGES ((4u << 20) / 4096)

static uint64_t value(int k, size_t i) { return (i + 1) * 0x9e3779b97f4a7c15ull + (uint64_t)k; }

static int64_t requests(void) { return dsm_stat("msgs_sent.PAGE"); }

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  static uint64_t *a[3];
  if (dsm_proc_id() == 0) {
    for (int k = 0; k < 3; k++) {
      a[k] = dsm_malloc(WORDS * sizeof(uint64_t));
      for (size_t i = 0; i < WORDS; i++)
        a[k][i] = value(k, i);
    }
    dsm_distribute(a, sizeof a);
  }
  dsm_barrier(0);
  if (dsm_proc_id() == 1) {
    int64_t r0 = requests();
    for (size_t i = 0; i < WORDS; i++)
      CHECK(a[0][i] == value(0, i));
    int64_t fwd = requests() - r0;
    r0 = requests();
    for (size_t i = WORDS; i-- > 0;)
      CHECK(a[1][i] == value(1, i));
    int64_t back = requests() - r0;
    r0 = requests();
    for (size_t lo = 0, hi = WORDS - 1; lo < hi; lo++, hi--) {
      CHECK(a[2][lo] == value(2, lo));
      CHECK(a[2][hi] == value(2, hi));
    }
    int64_t both = requests() - r0;
    printf("fetch_streams: %u pages each: forward %lld, backward %lld, from both ends %lld requests\n",
           PAGES, (long long)fwd, (long long)back, (long long)both);
    CHECK(fwd <= PAGES / 16);
    CHECK(back <= PAGES / 16);
    CHECK(both <= PAGES / 8);
  }
  dsm_barrier(1);
  dsm_exit(0);
}
