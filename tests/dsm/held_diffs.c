/*
 * Diffs that a barrier's release holds back until its departure (dsm/home.c,
 * dsm__diff_send_hold): the departure moves some of the pages to their one
 * writer, whose diffs of them are then dropped, and the rest are sent late,
 * while readers may already be asking the home for those pages.
 *
 * Rank 0 allocates 64 pages (their home). Each round, rank 1 writes word 0
 * of every page, and rank c (the last rank; rank 0 itself when there are
 * two) writes word 1 of pages 32..63. Pages 0..31 have one writer and move
 * to rank 1 at the first barrier, so rank 1's diffs of them are dropped;
 * pages 32..63 have two writers and stay at rank 0, so rank 1's diff of
 * them (32 pages: held) goes after the departure, and every process reads
 * them at once, the home included. Each round writes new values.
 */
#include "check.h"

#define PAGES 64
#define ROUNDS 6

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), np = dsm_nprocs(), c = np - 1 > 1 ? np - 1 : 0;
  CHECK(np >= 2);
  static long *a;
  if (me == 0) {
    a = dsm_malloc(PAGES * 4096);
    for (int i = 0; i < PAGES * 512; i++)
      a[i] = -1;
    dsm_distribute(&a, sizeof a);
  }
  dsm_barrier(0);
  for (long r = 1; r <= ROUNDS; r++) {
    if (me == 1)
      for (int pg = 0; pg < PAGES; pg++)
        a[pg * 512] = 1000 * r + pg;
    if (me == c)
      for (int pg = PAGES / 2; pg < PAGES; pg++)
        a[pg * 512 + 1] = 2000 * r + pg;
    dsm_barrier(1);
    for (int pg = 0; pg < PAGES; pg++) {
      CHECK_EQ(a[pg * 512], 1000 * r + pg);
      CHECK_EQ(a[pg * 512 + 1], pg < PAGES / 2 ? -1 : 2000 * r + pg);
    }
    dsm_barrier(2);
  }
  if (me == 1) {
    CHECK(dsm_stat("diffs_dropped") >= PAGES / 2);
    CHECK(dsm_stat("migrations") >= PAGES / 2);
  }
  dsm_barrier(3);
  if (me == 0)
    printf("held_diffs: OK\n");
  dsm_exit(0);
}
