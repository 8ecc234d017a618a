/*
 * Write-ahead (dsm/write_ahead.c): write faults that walk forward through
 * pages homed elsewhere open the following pages for writing together, and
 * the release drops the ones that were not written. Checked, with every
 * value read back everywhere:
 *   1. W writes one word of each of 16 read-only pages, in order: it takes far fewer than 16 write faults, makes exactly 16
 *      diffs, and the pages it opened ahead but did not write (16 and 17)
 *      produce no notice: a process holding copies of them keeps them
 *      valid (no fault when it reads them after the barrier);
 *   2. the same, but another process writes pages 16 and 17 in the same
 *      interval, while W has them open: its writes survive, and W sees them
 *      after the barrier;
 *   3. W writes the pages backwards: no stream, so one fault per page;
 *   4. the home (rank 0) writes forward through 16 of its own pages that
 *      every process holds copies of: it too takes far fewer than 16 write
 *      faults, and the pages it opened ahead but did not write produce no
 *      notice (the others' copies of them stay valid).
 */
#include "check.h"

static unsigned bid;
static void sync_all(void) { dsm_barrier(bid++); }

/* Each round uses fresh pages (ROUND apart): pages one process alone wrote
 * may move their home to it at the barrier, and a home writes without
 * faults or diffs. */
#define ROUND 40
#define NPG   (9 * ROUND)
#define WORDS 512     /* longs in a page */

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  if (dsm_threads() > 1) {
    /* Off by design with several threads per process (docs/design.md). */
    if (dsm_proc_id() == 0)
      printf("skipped: pages opened ahead (dsm/write_ahead.c) are off with %u threads per process\n", dsm_threads());
    dsm_exit(77);
  }
  unsigned me = dsm_proc_id(), np = dsm_nprocs(), w = np - 1;
  CHECK(np >= 2);
  static long *a;
  if (me == 0) {
    a = dsm_malloc(NPG * 4096);
    CHECK(((uintptr_t)a & 4095) == 0);
    for (long i = 0; i < NPG * WORDS; i++)
      a[i] = 0;
    dsm_distribute(&a, sizeof a);
  }
  sync_all();
  long sum = 0;
  for (long i = 0; i < NPG * WORDS; i++)
    sum += a[i];
  CHECK_EQ(sum, 0);
  sync_all();

  /* 1. A forward stream of writes over 16 pages. */
  for (long e = 1; e <= 3; e++) {
    long *b = a + (e - 1) * ROUND * WORDS;
    int64_t wf = dsm_stat("write_faults"), dc = dsm_stat("diffs_created"),
            unused = dsm_stat("write_ahead_unused"), ahead = dsm_stat("write_ahead");
    if (me == w)
      for (int pg = 0; pg < 16; pg++)
        b[pg * WORDS] = 10 * e + pg;
    sync_all();
    if (me == w) {
      CHECK(dsm_stat("write_faults") - wf <= 6);
      CHECK(dsm_stat("write_ahead") - ahead >= 10);
      CHECK(dsm_stat("write_ahead_unused") - unused >= 1);
      CHECK_EQ(dsm_stat("diffs_created") - dc, 16);
    }
    int64_t rf = dsm_stat("read_faults");
    CHECK_EQ(b[16 * WORDS], 0);
    CHECK_EQ(b[17 * WORDS + 1], 0);
    if (me != 0 && me != w)
      CHECK_EQ(dsm_stat("read_faults") - rf, 0);   /* still valid: no notice */
    for (int pg = 0; pg < ROUND; pg++)
      CHECK_EQ(b[pg * WORDS], pg < 16 ? 10 * e + pg : 0);
    sync_all();
  }

  /* 2. Another process writes the pages W opens ahead, in the same interval. */
  unsigned other = np >= 3 ? 1 : 0;
  for (long e = 1; e <= 3; e++) {
    long *b = a + (2 + e) * ROUND * WORDS;
    int64_t ahead = dsm_stat("write_ahead");
    if (me == w)
      for (int pg = 0; pg < 16; pg++)
        b[pg * WORDS + 2] = 100 * e + pg;
    if (me == w)
      CHECK(dsm_stat("write_ahead") - ahead >= 10);   /* 16 and 17 are open now */
    if (me == other) {
      b[16 * WORDS + 100] = 1000 + e;
      b[17 * WORDS + 100] = 2000 + e;
    }
    sync_all();
    for (int pg = 0; pg < 16; pg++)
      CHECK_EQ(b[pg * WORDS + 2], 100 * e + pg);
    CHECK_EQ(b[16 * WORDS + 100], 1000 + e);
    CHECK_EQ(b[17 * WORDS + 100], 2000 + e);
    CHECK_EQ(b[16 * WORDS + 2], 0);
    sync_all();
  }

  /* 3. Backwards: each write faults. */
  {
    int64_t wf = dsm_stat("write_faults"), ahead = dsm_stat("write_ahead");
    if (me == w)
      for (int pg = NPG - 1; pg >= NPG - 16; pg--)
        a[pg * WORDS + 3] = 7 * pg;
    if (me == w) {
      CHECK_EQ(dsm_stat("write_faults") - wf, 16);
      CHECK_EQ(dsm_stat("write_ahead") - ahead, 0);
    }
    sync_all();
    for (int pg = NPG - 16; pg < NPG; pg++)
      CHECK_EQ(a[pg * WORDS + 3], 7 * pg);
    sync_all();
  }
  /* 4. The home writes forward through shared pages of its own. */
  for (long e = 1; e <= 2; e++) {
    long *b = a + (5 + e) * ROUND * WORDS;
    int64_t wf = dsm_stat("write_faults"), unused = dsm_stat("write_ahead_unused"),
            ahead = dsm_stat("write_ahead");
    if (me == 0)
      for (int pg = 0; pg < 16; pg++)
        b[pg * WORDS + 5] = 1000 * e + pg;
    sync_all();
    if (me == 0) {
      CHECK(dsm_stat("write_faults") - wf <= 6);
      CHECK(dsm_stat("write_ahead") - ahead >= 10);
      CHECK(dsm_stat("write_ahead_unused") - unused >= 1);
    }
    int64_t rf = dsm_stat("read_faults");
    CHECK_EQ(b[16 * WORDS + 5], 0);
    CHECK_EQ(b[17 * WORDS + 6], 0);
    if (me != 0)
      CHECK_EQ(dsm_stat("read_faults") - rf, 0);   /* still valid: no notice */
    for (int pg = 0; pg < ROUND; pg++)
      CHECK_EQ(b[pg * WORDS + 5], pg < 16 ? 1000 * e + pg : 0);
    sync_all();
  }
  if (me == 0)
    printf("write_ahead: OK\n");
  dsm_exit(0);
}
