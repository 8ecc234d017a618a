/*
 * A fetch run stops at the end of the faulting page's array when the next
 * one is large too (dsm/home.c, dsm__alloc_splits_run): the pages past it
 * are another array, most likely another process's part of it.
 *
 * Rank 0 allocates two large arrays, one right after the other, and fills
 * them. The last rank reads the last CUT pages of the first from the front:
 * its cold run of 64 would take 64 - CUT pages of the second array; it
 * must get only the CUT it reads, and rank 0 must count the rest as cut.
 * Then it reads the second array whole (the skipped pages are asked for
 * when touched) and checks every word.
 *
 * Backward too: two more large arrays; the last rank reads page UP of the
 * second, then walks down from the page below it to its first page: the
 * walk's run going down stops at the array's start, not in the first
 * array's end.
 *
 * Rows allocated one by one are one stream: rank 0 allocates ROWS small
 * blocks of two pages each, back to back, and the last rank walks them all
 * in a few requests, not one per row.
 */
#include "check.h"

#define PW 512                   /* longs in a page */
#define NP 128                   /* pages of each large array */
#define CUT 16                   /* pages read at the end of the first */
#define ROWS 64
#define UP 20                    /* pages walked down to the second array's start */

static long value(long i) { return i * 3 + 1; }

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), np = dsm_nprocs(), w = np - 1;
  CHECK(np >= 2);
  static long *a, *b, *c, *d, *rows[ROWS];
  if (me == 0) {
    a = dsm_malloc((size_t)NP * 4096);
    b = dsm_malloc((size_t)NP * 4096);
    CHECK(a && b);
    CHECK(b == a + (long)NP * PW);          /* adjacent, or the test proves nothing */
    for (long i = 0; i < (long)NP * PW; i++)
      a[i] = value(i), b[i] = -value(i);
    c = dsm_malloc((size_t)NP * 4096);
    d = dsm_malloc((size_t)NP * 4096);
    CHECK(c && d);
    CHECK(d == c + (long)NP * PW);
    for (long i = 0; i < (long)NP * PW; i++)
      c[i] = value(i) + 1, d[i] = value(i) + 2;
    for (int r = 0; r < ROWS; r++) {
      rows[r] = dsm_malloc(2 * 4096);
      CHECK(rows[r]);
      if (r)
        CHECK(rows[r] == rows[r - 1] + 2 * PW);
      for (long i = 0; i < 2 * PW; i++)
        rows[r][i] = value(r * 2 * PW + i);
    }
    dsm_distribute(&a, sizeof a);
    dsm_distribute(&b, sizeof b);
    dsm_distribute(&c, sizeof c);
    dsm_distribute(&d, sizeof d);
    dsm_distribute(rows, sizeof rows);
  }
  /* Before the barrier: after it, the last rank's first run may be cut
   * before rank 0 reads the count. */
  int64_t cut0 = dsm_stat("run_cut");
  dsm_barrier(0);
  if (me == w) {
    int64_t f0 = dsm_stat("pages_fetched");
    for (long i = (long)(NP - CUT) * PW; i < (long)NP * PW; i++)
      CHECK_EQ(a[i], value(i));
    int64_t got = dsm_stat("pages_fetched") - f0;
    printf("run_array_end: %d pages read at the end of an array: %lld fetched\n", CUT,
           (long long)got);
    fflush(stdout);
    CHECK_EQ(got, CUT);
    for (long i = 0; i < (long)NP * PW; i++)
      CHECK_EQ(b[i], -value(i));
    f0 = dsm_stat("pages_fetched");
    CHECK_EQ(d[UP * PW], value(UP * PW) + 2);     /* a cold run up from there */
    int64_t up = dsm_stat("pages_fetched") - f0;
    for (long pg = UP - 1; pg >= 0; pg--)
      CHECK_EQ(d[pg * PW + 3], value(pg * PW + 3) + 2);
    got = dsm_stat("pages_fetched") - f0 - up;
    printf("run_array_end: %d pages walked down to an array's start: %lld fetched\n", UP,
           (long long)got);
    fflush(stdout);
    CHECK_EQ(got, UP);
    for (long i = 0; i < (long)NP * PW; i++)
      CHECK_EQ(c[i], value(i) + 1);
    int64_t r0 = dsm_stat("msgs_sent.PAGE");
    for (int r = 0; r < ROWS; r++)
      for (long i = 0; i < 2 * PW; i++)
        CHECK_EQ(rows[r][i], value(r * 2 * PW + i));
    int64_t reqs = dsm_stat("msgs_sent.PAGE") - r0;
    printf("run_array_end: %d rows of 2 pages walked in %lld requests\n", ROWS, (long long)reqs);
    fflush(stdout);
    CHECK(reqs <= 4);
  }
  dsm_barrier(1);
  if (me == 0)
    CHECK(dsm_stat("run_cut") - cut0 >= 64 - CUT);
  dsm_barrier(2);
  if (me == 0)
    printf("run_array_end: OK (%u processes)\n", np);
  dsm_exit(0);
}
