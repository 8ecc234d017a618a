/*
 * A read that will be followed by a write takes the page with its data
 * (dsm/first_touch.c): a process whose read faults lately made copies it
 * then wrote asks its fetches as writes, and a page of data only its home
 * holds (never shared, no version) comes over as the asker's own.
 *
 * Rank 0 fills an array; every other rank q then walks its part, with no
 * synchronisation between the stretches:
 *   1. READ pages it only reads, forward: nothing is given
 *      (homes_received_reading stays 0), since the reads made copies
 *      nobody wrote;
 *   2. WARM pages it reads and then writes (word 1 = word 0 + q), from the
 *      top down (a forward walk would have its writes opened ahead, and
 *      those count only at a release): once a quarter of the copies reads
 *      made were written, the rule is on;
 *   3. OWN pages, below WARM, the same way: every one is given with its
 *      data (some while the walk was still in WARM: a run fetched
 *      backward reaches below its fault), so none of them takes a twin.
 * GAP pages nobody touches follow READ and WARM (a run fetched forward
 * reaches past its part: from READ it would bring copies of OWN). After a barrier every rank checks every word, and so
 * finds the pages where they went: rank 0 the ones it gave, the others
 * each other's.
 */
#include "check.h"

#define WORDS 512                /* longs in a page */
#define READ  300
#define WARM  600
#define OWN   256
#define GAP   64
#define PART  (READ + GAP + OWN + WARM + GAP)
#define OWN0  (READ + GAP)            /* where each stretch starts in a part */
#define WARM0 (OWN0 + OWN)

static long value(long pg, long w) { return pg * 1000 + w + 7; }

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), np = dsm_nprocs();
  CHECK(np >= 2);
  if (dsm_threads() > 1 || (getenv("DSM_WRITE_AHEAD") && atoi(getenv("DSM_WRITE_AHEAD")) == 0)) {
    if (me == 0)
      printf("skipped: reads open no copies for writing with several threads per process "
             "or DSM_WRITE_AHEAD=0\n");
    dsm_exit(77);
  }
  static long *a;
  if (me == 0) {
    a = dsm_malloc((size_t)(np - 1) * PART * 4096);
    CHECK(a && ((uintptr_t)a & 4095) == 0);
    for (long i = 0; i < (long)(np - 1) * PART * WORDS; i++)
      a[i] = value(i / WORDS, i % WORDS);
    dsm_distribute(&a, sizeof a);
  }
  dsm_barrier(0);
  if (me != 0) {
    long base = (long)(me - 1) * PART;
    long sum = 0, want = 0;
    for (long k = 0; k < READ; k++) {
      sum += a[(base + k) * WORDS] + a[(base + k) * WORDS + 1];
      want += value(base + k, 0) + value(base + k, 1);
    }
    CHECK_EQ(sum, want);
    CHECK_EQ(dsm_stat("homes_received_reading"), 0);
    int64_t got = dsm_stat("homes_received_reading");
    for (long k = WARM0 + WARM - 1; k >= WARM0; k--) {
      long *p = a + (base + k) * WORDS;
      CHECK_EQ(p[0], value(base + k, 0));
      p[1] = p[0] + me;
    }
    /* A copy written takes a twin at its write fault, or is opened at
     * its read (write_on_read) or ahead of a stream of writes. */
    int64_t twins = dsm_stat("twins") + dsm_stat("write_on_read") + dsm_stat("write_ahead");
    for (long k = OWN0 + OWN - 1; k >= OWN0; k--) {
      long *p = a + (base + k) * WORDS;
      CHECK_EQ(p[0], value(base + k, 0));
      p[1] = p[0] + me;
    }
    int64_t own_twins = dsm_stat("twins") + dsm_stat("write_on_read") + dsm_stat("write_ahead") - twins, own_got = dsm_stat("homes_received_reading") - got;
    printf("read_then_own: rank %u: %lld pages given at a read, %lld twins among the last %d\n",
           me, (long long)own_got, (long long)own_twins, OWN);
    if (getenv("RTO_DEBUG"))
      fprintf(stderr, "rank %u: write_on_read %lld read_faults %lld write_faults %lld fetched %lld held %lld\n",
              me, (long long)dsm_stat("write_on_read"), (long long)dsm_stat("read_faults"),
              (long long)dsm_stat("write_faults"), (long long)dsm_stat("pages_fetched"),
              (long long)dsm_stat("fetch_held"));
    fflush(stdout);
    CHECK(own_got >= OWN);
    CHECK_EQ(own_twins, 0);
  }
  dsm_barrier(1);
  for (long pg = 0; pg < (long)(np - 1) * PART; pg++) {
    long q = pg / PART + 1, k = pg % PART;
    for (long w = 0; w < WORDS; w++) {
      long want = value(pg, w);
      if (w == 1 && k >= OWN0 && k < WARM0 + WARM)
        want = value(pg, 0) + q;
      CHECK_EQ(a[pg * WORDS + w], want);
    }
  }
  dsm_barrier(2);
  if (me == 0)
    printf("read_then_own: OK (%u processes, %lld pages given with their data)\n", np,
           (long long)dsm_stat("homes_given_data"));
  dsm_exit(0);
}
