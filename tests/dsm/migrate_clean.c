/*
 * A home that moves to the one writer of an epoch turns exclusive at once
 * when no other process took a copy of the page in that epoch, and stays
 * shared when one did (dsm/collective.c, "copies taken").
 *
 * Rank 0 allocates three pages (their home), each two pages from the next
 * so that no fault continues a stream of another and a fetch takes no
 * neighbor along (dsm/fetch.c: the page read first and the one read after
 * it would otherwise be a stream walking backward). In one epoch rank 1 alone
 * writes all three, under a lock, and signals a semaphore; rank 2 waits for
 * it, reads page 1 (a fetch from the old home, which brings rank 1's write)
 * and then takes the lock and reads page 2, of which it held a copy from
 * the epoch before (a diff carried with the lock, or a fetch). At the
 * barrier all three homes move to rank 1. Page 0 nobody else touched: rank 1
 * writes it in the next epoch without a fault. Pages 1 and 2 rank 2 holds
 * up to date: rank 1 must fault on them, so that its next writes make
 * notices, and rank 2 must read those writes after the next barrier (were
 * they exclusive, rank 2 would read its old copies).
 */
#include "check.h"

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id();
  CHECK(dsm_nprocs() >= 3);
  static long *a;
  if (me == 0) {
    a = dsm_malloc(5 * 4096);
    for (int k = 0; k < 3; k++)
      a[k * 1024] = 0;
    dsm_distribute(&a, sizeof a);
  }
  dsm_sema_init(1, 0);
  dsm_barrier(0);
  if (me == 2)
    CHECK_EQ(a[2 * 1024], 0);            /* a copy, from before the writes */
  dsm_barrier(1);

  if (me == 1) {
    dsm_lock_acquire(1);
    for (int k = 0; k < 3; k++)
      a[k * 1024] = 1;
    dsm_lock_release(1);
    dsm_sema_signal(1);
  } else if (me == 2) {
    dsm_sema_wait(1);
    CHECK_EQ(a[1024], 1);
    dsm_lock_acquire(1);
    CHECK_EQ(a[2 * 1024], 1);
    dsm_lock_release(1);
    printf("rank 2: diffs carried %lld\n", (long long)dsm_stat("diffs_carried"));
  }
  dsm_barrier(2);                        /* the three homes move to rank 1 */

  if (me == 1) {
    int64_t before = dsm_stat("write_faults");
    for (int k = 0; k < 3; k++)
      a[k * 1024] = 2;
    CHECK_EQ(dsm_stat("write_faults") - before, 2);
  }
  dsm_barrier(3);
  for (int k = 0; k < 3; k++)
    CHECK_EQ(a[k * 1024], 2);
  dsm_barrier(4);
  if (me == 1) {
    /* Page 0 became shared again when the others fetched it: a write
     * faults, and everyone sees it. */
    int64_t before = dsm_stat("write_faults");
    a[0] = 3;
    CHECK_EQ(dsm_stat("write_faults") - before, 1);
  }
  dsm_barrier(5);
  CHECK_EQ(a[0], 3);
  dsm_barrier(6);
  if (me == 0)
    printf("migrate_clean: OK\n");
  dsm_exit(0);
}
