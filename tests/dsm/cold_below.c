/*
 * Blocks walked downward (dsm/fetch.c): a cold run cut short where the
 * newest run of another stream began reaches below its fault instead, so
 * a walk over NB blocks of B pages, from the top block down (sibling tasks
 * over an array, run newest first), costs about one PAGE request per 64
 * pages, not one per block.
 *
 * Rank 0 fills the array; the last rank reads each block's first word, then
 * the whole block, from the top block down, and checks every word. Before
 * the rule it took a request per block (NB); it must take at most NB / 2.
 * Then it writes a word of each block, and after a barrier everyone checks
 * them: the pages taken below their faults are ordinary copies.
 *
 * A halo is not a walk: the last rank then takes the upper part of a second
 * array (its first writes: the pages are given to it) and reads the page
 * just below that part, as a stencil reads its neighbour's row. That run
 * is cut short by our own pages too, but no walk came down to it: one
 * page, nothing below.
 */
#include "check.h"

#define PW 512                   /* longs in a page */
#define B  24                    /* pages in a block */
#define NB 32
#define HALO 64                  /* pages below the part a process takes */

static long value(long i) { return i * 5 + 11; }
static int64_t requests(void) { return dsm_stat("msgs_sent.PAGE"); }

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), np = dsm_nprocs(), w = np - 1;
  CHECK(np >= 2);
  static long *a;
  if (me == 0) {
    a = dsm_malloc((size_t)NB * B * 4096);
    CHECK(a && ((uintptr_t)a & 4095) == 0);
    for (long i = 0; i < (long)NB * B * PW; i++)
      a[i] = value(i);
    dsm_distribute(&a, sizeof a);
  }
  dsm_barrier(0);
  if (me == w) {
    int64_t r0 = requests(), below0 = dsm_stat("fetch_below");
    for (long b = NB - 1; b >= 0; b--) {
      long *blk = a + b * B * PW;
      CHECK_EQ(blk[0], value(b * B * PW));
      for (long i = 0; i < B * PW; i++)
        CHECK_EQ(blk[i], value(b * B * PW + i));
    }
    int64_t reqs = requests() - r0, below = dsm_stat("fetch_below") - below0;
    printf("cold_below: %d blocks of %d pages walked downward in %lld requests, %lld pages taken "
           "below a fault\n", NB, B, (long long)reqs, (long long)below);
    fflush(stdout);
    CHECK(reqs <= NB / 2);
    CHECK(below > 0);
    for (long b = 0; b < NB; b++)
      a[b * B * PW + 3] = -b;
  }
  dsm_barrier(1);
  for (long i = 0; i < (long)NB * B * PW; i++)
    CHECK_EQ(a[i], i % (B * PW) == 3 ? -(i / (B * PW)) : value(i));

  static long *h;
  if (me == 0) {
    h = dsm_malloc((size_t)HALO * 4 * 4096);
    CHECK(h && ((uintptr_t)h & 4095) == 0);
    for (long i = 0; i < (long)HALO * 4 * PW; i++)
      h[i] = value(i);
    dsm_distribute(&h, sizeof h);
  }
  dsm_barrier(2);
  if (me == w) {
    for (long pg = HALO; pg < 4 * HALO; pg++)
      h[pg * PW + 1] = -pg;                 /* ours from here up */
    int64_t r0 = requests(), below0 = dsm_stat("fetch_below");
    CHECK_EQ(h[(HALO - 1) * PW + 5], value((HALO - 1) * PW + 5));
    CHECK_EQ(requests() - r0, 1);
    CHECK_EQ(dsm_stat("fetch_below") - below0, 0);
  }
  dsm_barrier(3);
  for (long i = 0; i < (long)HALO * 4 * PW; i++)
    CHECK_EQ(h[i], i / PW >= HALO && i % PW == 1 ? -(i / PW) : value(i));
  dsm_barrier(4);
  if (me == 0)
    printf("cold_below: OK (%u processes)\n", np);
  dsm_exit(0);
}
