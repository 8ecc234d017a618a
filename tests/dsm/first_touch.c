/*
 * Pages nobody has touched go to the first process that touches them
 * (dsm/first_touch.c), the way an OpenMP team fills the arrays its master
 * allocated. Rank 0 allocates two arrays of np parts of BLK pages each and
 * touches neither.
 *   1. Each rank fills its part of a. Every part's pages become the
 *      writer's own, so nobody takes a twin. BLK is below a cold run (64
 *      pages), so a writer's first fetch brings pages of the next parts
 *      too: their writers are answered MOVED by rank 0 and given the pages
 *      by the rank that holds them untouched.
 *   2. After a barrier (which names the new homes to everyone) every rank
 *      reads every part.
 *   3. Without a collective: rank 1 fills its part of c and signals; the
 *      others, rank 0 (the old home, which knows) and third parties (whose
 *      tables still name rank 0) included, read it.
 *   4. All ranks but 0 write their own words of the same untouched pages
 *      at once: one is given each page, the others are sent to it, and
 *      after the barrier everyone sees every word.
 *   5. An array rank 0 dsm_calloc()s is left untouched (dsm/alloc.c): each
 *      rank reads its part (zeros) and then writes it with no twin; a
 *      calloc that reuses freed memory of data still reads as zeros.
 *   6. Rank 0 fills the second of four parts of a fresh array; rank 1 then
 *      writes the first. Rank 1's cold run covers rank 0's part too, which
 *      rank 0 keeps out of the answer (SKIPPED: it stays exclusive, rank 0
 *      serves nothing), and rank 1 reads it afterwards, asked alone.
 *   7. Rank 0 fills a fresh array of two parts; rank 1 then writes one word
 *      of each page of the second, which it never read: the pages go to it
 *      with their data (no twin), and it sees rank 0's words around its
 *      own. The others, rank 0 (which knows where they went) and third
 *      parties (which ask rank 0 and are sent on), read them after a
 *      semaphore, with no collective; then everyone again after a barrier,
 *      and each rank writes a word of every page of both parts (the pages
 *      moved once this epoch: no second move, the writers share them).
 * Run with a manager that lags behind each departure too (meson.build), so
 * requests from the next epoch reach an old home that has not yet heard of
 * the moves.
 */
#include "check.h"

#define BLK   24
#define WORDS 512

static long value(int phase, long pg, long w) { return phase * 10000000L + pg * 1000 + w + 1; }

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), np = dsm_nprocs();
  CHECK(np >= 2);
  static long *a, *c;
  long npg = (long)np * BLK;
  if (me == 0) {
    a = dsm_malloc(npg * 4096);
    c = dsm_malloc(npg * 4096);
    CHECK(a && c && ((uintptr_t)a & 4095) == 0 && ((uintptr_t)c & 4095) == 0);
    dsm_distribute(&a, sizeof a);
    dsm_distribute(&c, sizeof c);
  }
  dsm_barrier(0);

  /* 1. Each rank fills its own part. */
  int64_t twins0 = dsm_stat("twins"), got0 = dsm_stat("homes_received");
  for (long pg = me * BLK; pg < (me + 1) * BLK; pg++)
    for (long w = 0; w < WORDS; w++)
      a[pg * WORDS + w] = value(1, pg, w);
  int64_t twins1 = dsm_stat("twins"), got1 = dsm_stat("homes_received");
  printf("first_touch: rank %u: %lld pages given to it, %lld twins for its part\n", me,
         (long long)(got1 - got0), (long long)(twins1 - twins0));
  /* The whole point: a part written by one process costs it no twin. */
  CHECK_EQ(twins1 - twins0, 0);
  if (me != 0)
    CHECK(got1 - got0 >= BLK);
  dsm_barrier(1);

  /* 2. Everyone reads everything. */
  for (long pg = 0; pg < npg; pg++)
    for (long w = 0; w < WORDS; w++)
      CHECK_EQ(a[pg * WORDS + w], value(1, pg, w));
  dsm_barrier(2);

  /* 3. A part of c written by rank 1, read by the others with no collective
   * in between. */
  if (me == 1) {
    for (long pg = BLK; pg < 2 * BLK; pg++)
      for (long w = 0; w < WORDS; w++)
        c[pg * WORDS + w] = value(3, pg, w);
    for (unsigned r = 1; r < np; r++)
      dsm_sema_signal(1);
  } else {
    dsm_sema_wait(1);
    for (long pg = BLK; pg < 2 * BLK; pg++)
      for (long w = 0; w < WORDS; w++)
        CHECK_EQ(c[pg * WORDS + w], value(3, pg, w));
  }

  /* 4. The same untouched pages (c's part 0), a word each, at once. */
  if (me != 0)
    for (long pg = 0; pg < BLK; pg++)
      c[pg * WORDS + me] = value(4, pg, me);
  dsm_barrier(3);
  for (long pg = 0; pg < BLK; pg++)
    for (long w = 0; w < WORDS; w++)
      CHECK_EQ(c[pg * WORDS + w], w >= 1 && w < (long)np ? value(4, pg, w) : 0);
  dsm_barrier(4);

  /* After the collectives every table agrees: the old home and everyone
   * else write a word of every part of a, and everyone checks. */
  for (long pg = 0; pg < npg; pg++)
    if (pg % np == me)
      a[pg * WORDS] = value(5, pg, 0);
  dsm_barrier(5);
  for (long pg = 0; pg < npg; pg++)
    CHECK_EQ(a[pg * WORDS], value(5, pg, 0));
  dsm_barrier(6);

  /* 5. calloc: read first, then written, by each part's rank. */
  static long *z, *y;
  if (me == 0) {
    z = dsm_calloc((size_t)npg * WORDS, sizeof *z);
    CHECK(z && ((uintptr_t)z & 4095) == 0);
    dsm_distribute(&z, sizeof z);
  }
  dsm_barrier(7);
  twins0 = dsm_stat("twins");
  for (long pg = me * BLK; pg < (me + 1) * BLK; pg++)
    for (long w = 0; w < WORDS; w++) {
      CHECK_EQ(z[pg * WORDS + w], 0);
      z[pg * WORDS + w] = value(6, pg, w);
    }
  CHECK_EQ(dsm_stat("twins") - twins0, 0);
  dsm_barrier(8);
  for (long pg = 0; pg < npg; pg++)
    CHECK_EQ(z[pg * WORDS + WORDS - 1], value(6, pg, WORDS - 1));
  if (me == 0) {
    /* Memory that held data, freed and taken again by calloc. */
    long *d = dsm_malloc(BLK * 4096);
    for (long i = 0; i < BLK * WORDS; i++)
      d[i] = 7;
    dsm_free(d);
    y = dsm_calloc(BLK * WORDS, sizeof *y);
    printf("first_touch: calloc %s the freed block\n", y == d ? "reused" : "did not reuse");
    dsm_distribute(&y, sizeof y);
  }
  dsm_barrier(9);
  for (long i = 0; i < BLK * WORDS; i++)
    CHECK_EQ(y[i], 0);
  dsm_barrier(10);

  /* 6. A run that gives pages keeps the home's own data out. */
  static long *v;
  if (me == 0) {
    /* Past the reach of the earlier phases' cold runs (64 pages), which
     * may have given away untouched pages after the arrays they read. */
    CHECK(dsm_malloc(128 * 4096));
    v = dsm_malloc(4 * BLK * 4096);
    CHECK(v && ((uintptr_t)v & 4095) == 0);
    for (long pg = BLK; pg < 2 * BLK; pg++)
      for (long w = 0; w < WORDS; w++)
        v[pg * WORDS + w] = value(7, pg, w);
    dsm_distribute(&v, sizeof v);
  }
  dsm_barrier(11);
  int64_t served0 = dsm_stat("pages_served");
  if (me == 1) {
    for (long pg = 0; pg < BLK; pg++)
      for (long w = 0; w < WORDS; w++)
        v[pg * WORDS + w] = value(8, pg, w);
    dsm_sema_signal(2);
  }
  if (me == 0) {
    dsm_sema_wait(2);
    printf("first_touch: rank 0 served %lld pages while rank 1 filled its part\n",
           (long long)(dsm_stat("pages_served") - served0));
    CHECK_EQ(dsm_stat("pages_served") - served0, 0);
    dsm_sema_signal(3);
  }
  if (me == 1) {
    dsm_sema_wait(3);
    for (long pg = BLK; pg < 2 * BLK; pg++)
      CHECK_EQ(v[pg * WORDS + 5], value(7, pg, 5));
  }
  dsm_barrier(12);
  for (long pg = 0; pg < 4 * BLK; pg++)
    CHECK_EQ(v[pg * WORDS + 3], pg < BLK ? value(8, pg, 3) : pg < 2 * BLK ? value(7, pg, 3) : 0);
  dsm_barrier(13);

  /* 7. Pages of data written first by a rank that never read them. */
  static long *u;
  if (me == 0) {
    CHECK(dsm_malloc(128 * 4096));   /* past the earlier cold runs again */
    u = dsm_malloc(2 * BLK * 4096);
    CHECK(u && ((uintptr_t)u & 4095) == 0);
    for (long i = 0; i < 2 * BLK * WORDS; i++)
      u[i] = value(9, i / WORDS, i % WORDS);
    dsm_distribute(&u, sizeof u);
  }
  /* Before the barrier: rank 1 may ask for the pages before we are out of it. */
  int64_t data0 = dsm_stat("homes_given_data");
  dsm_barrier(14);
  if (me == 1) {
    twins0 = dsm_stat("twins");
    got0 = dsm_stat("homes_received");
    for (long pg = BLK; pg < 2 * BLK; pg++)
      u[pg * WORDS + 7] = value(10, pg, 7);
    printf("first_touch: rank 1 was given %lld pages of data and took %lld twins\n",
           (long long)(dsm_stat("homes_received") - got0), (long long)(dsm_stat("twins") - twins0));
    fflush(stdout);
    CHECK_EQ(dsm_stat("twins") - twins0, 0);
    CHECK(dsm_stat("homes_received") - got0 >= BLK);
    for (long pg = BLK; pg < 2 * BLK; pg++)
      for (long w = 0; w < WORDS; w++)
        CHECK_EQ(u[pg * WORDS + w], w == 7 ? value(10, pg, 7) : value(9, pg, w));
    for (unsigned r = 1; r < np; r++)
      dsm_sema_signal(4);
  } else {
    dsm_sema_wait(4);
    if (me == 0) {
      printf("first_touch: rank 0 gave %lld pages with their data\n",
             (long long)(dsm_stat("homes_given_data") - data0));
      CHECK(dsm_stat("homes_given_data") - data0 >= BLK);
    }
    for (long pg = BLK; pg < 2 * BLK; pg++)
      for (long w = 0; w < WORDS; w++)
        CHECK_EQ(u[pg * WORDS + w], w == 7 ? value(10, pg, 7) : value(9, pg, w));
  }
  dsm_barrier(15);
  for (long pg = 0; pg < 2 * BLK; pg++) {
    CHECK_EQ(u[pg * WORDS + 7], pg >= BLK ? value(10, pg, 7) : value(9, pg, 7));
    u[pg * WORDS + 100 + me] = value(11, pg, me);
  }
  dsm_barrier(16);
  for (long pg = 0; pg < 2 * BLK; pg++)
    for (long w = 0; w < WORDS; w++)
      CHECK_EQ(u[pg * WORDS + w], w >= 100 && w < 100 + (long)np ? value(11, pg, w - 100)
                                   : w == 7 && pg >= BLK ? value(10, pg, 7) : value(9, pg, w));
  dsm_barrier(17);
  if (me == 0) {
    printf("first_touch: %lld pages given away by rank 0; OK\n", (long long)dsm_stat("homes_given"));
    CHECK(dsm_stat("homes_given") >= (np - 1) * BLK);
  }
  dsm_exit(0);
}
