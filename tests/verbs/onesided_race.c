/*
 * onesided_race.c — one-sided page reads race with the home's own writes.
 *
 * Rank 0 is the home of ROUNDS x PAGES pages. Before a round, rank 1 reads
 * each of its pages once, so that they are shared (a page nobody else holds
 * is exclusive at its home and written without any tracking; the first
 * fetch of it can only take it as it is). In the round rank 0 rewrites the
 * pages over and over: every interval writes one page twice, first with a
 * value no release ever shows (interim) and then with the value the release
 * publishes (final), then closes with a lock release. Meanwhile every other
 * rank reads the round's pages (rank 1 its own copy; the others for the
 * first time: read one-sided from rank 0's memory once its chunk is
 * registered, or fetched, which the home answers with the page as of its
 * last release) and checks each page as a whole: every word equal, and
 * equal to 0 or to a final value of that page. A page taken while the home
 * was writing it — torn, or showing an interim value — fails the test. The
 * stand-in's STANDIN_SLOW_READ=1 stretches every READ over many scheduler
 * quanta, so such reads happen unless the sequence words keep them out.
 *
 * Rank 0 clears the pages itself before anyone reads them. Left as holes,
 * they would be given to whoever touched one first (first_touch.c), and a
 * reader that became a page's home would see it change in the middle of
 * its own scan: given back to rank 0 at rank 0's write fault and fetched
 * again, or updated in place by rank 0's diffs, as a home is. Both are
 * legal views of this racy program, but not the property tested here
 * (a scan slowed with usleep failed that way in 2 runs of 2). Every rank
 * checks that no page moved.
 *
 * After each round every rank also checks the last values through the
 * ordinary diff path, and at the end that pages really were read one-sided.
 */
#include <stdint.h>
#include <string.h>
#include "../dsm/check.h"

enum { ROUNDS = 3, PAGES = 96, WORDS = 4096 / 4, LOCK = 7 };

static uint32_t final_of(uint32_t r, uint32_t pass, uint32_t k)
{
  return 0x80000000u | r << 24 | (pass & 0xfff) << 12 | k;
}
static uint32_t interim_of(uint32_t r, uint32_t pass, uint32_t k)
{
  return 0x40000000u | r << 24 | (pass & 0xfff) << 12 | k;
}

struct shared {
  uint32_t done[ROUNDS];        /* readers finished with the round (under LOCK) */
  uint32_t passes[ROUNDS];      /* passes rank 0 made in the round */
  int64_t os_pages, busy;       /* summed over the readers (under LOCK) */
};

static struct shared *sh;
static uint32_t *pages;

static void fill(uint32_t *p, uint32_t v)
{
  for (unsigned i = 0; i < WORDS; i++)
    p[i] = v;
}

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  CHECK(n >= 2);
  if (me == 0) {
    sh = dsm_malloc(sizeof *sh);
    pages = dsm_malloc((size_t)ROUNDS * PAGES * 4096);
    CHECK((uintptr_t)pages % 4096 == 0);
    memset(pages, 0, (size_t)ROUNDS * PAGES * 4096);   /* data at rank 0, see above */
    memset(sh, 0, sizeof *sh);
    dsm_distribute(&sh, sizeof sh);
    dsm_distribute(&pages, sizeof pages);
  }
  dsm_barrier(0);
  long bad = 0;
  for (uint32_t r = 0; r < ROUNDS; r++) {
    uint32_t *round = pages + (size_t)r * PAGES * WORDS;
    if (me == 1)
      for (uint32_t k = 0; k < PAGES; k++)
        CHECK_EQ(round[(size_t)k * WORDS], 0);
    dsm_barrier(1);
    if (me == 0) {
      uint32_t pass = 0;
      for (;;) {
        for (uint32_t k = 0; k < PAGES; k++) {
          fill(round + (size_t)k * WORDS, interim_of(r, pass, k));
          fill(round + (size_t)k * WORDS, final_of(r, pass, k));
          dsm_lock_acquire(LOCK);
          uint32_t done = sh->done[r];
          dsm_lock_release(LOCK);
          if (done == n - 1 && k == PAGES - 1)
            goto written;
        }
        pass++;
      }
    written:
      sh->passes[r] = pass;
    } else {
      /* Each reader walks the pages from its own starting point. */
      for (uint32_t i = 0; i < PAGES; i++) {
        uint32_t k = (i + me * 37) % PAGES;
        const uint32_t *p = round + (size_t)k * WORDS;
        uint32_t v = p[0];
        int uniform = 1;
        for (unsigned w = 1; w < WORDS; w++)
          uniform &= p[w] == v;
        int known = v == 0 || ((v & 0xc0000000u) == 0x80000000u && (v >> 24 & 0x3f) == r &&
                               (v & 0xfff) == k);
        if (!uniform || !known) {
          if (bad < 5)
            fprintf(stderr, "rank %u: round %u page %u: %s (word 0 = %#x)\n", me, r, k,
                    uniform ? "a value no release published" : "torn", v);
          bad++;
        }
      }
      dsm_lock_acquire(LOCK);
      sh->done[r]++;
      dsm_lock_release(LOCK);
    }
    dsm_barrier(2);
    /* Now through the diffs: the last pass everywhere. */
    for (uint32_t k = 0; k < PAGES; k++)
      for (unsigned w = 0; w < WORDS; w += 511)
        if (round[(size_t)k * WORDS + w] != final_of(r, sh->passes[r], k)) {
          if (bad < 5)
            fprintf(stderr, "rank %u: round %u page %u after the barrier: %#x, want %#x\n", me, r,
                    k, round[(size_t)k * WORDS + w], final_of(r, sh->passes[r], k));
          bad++;
          break;
        }
  }
  if (me != 0) {
    dsm_lock_acquire(LOCK);
    sh->os_pages += dsm_stat("os_pages");
    sh->busy += dsm_stat("os_page_busy");
    dsm_lock_release(LOCK);
  }
  dsm_barrier(3);
  CHECK_EQ(bad, 0);
  CHECK_EQ(dsm_stat("homes_given"), 0);
  CHECK_EQ(dsm_stat("homes_received"), 0);
  if (me == 0) {
    printf("onesided_race: %u rounds of %u pages, %u readers: %lld pages read one-sided, "
           "%lld one-sided reads refused (busy), rank 0 made %u/%u/%u passes: OK\n",
           ROUNDS, PAGES, n - 1, (long long)sh->os_pages, (long long)sh->busy, sh->passes[0],
           sh->passes[1], sh->passes[2]);
    CHECK(sh->os_pages > 0);
  }
  dsm_exit(0);
}
