/*
 * A page's life between exclusive and shared at its home, while a third
 * process holds a stale notice of it (issue 13: "a private page becoming
 * shared while a third process holds a stale notice").
 *
 * Rank 1 allocates page P, so P starts exclusive at rank 1 (writable, no
 * tracking). Rank 2 reads it (P becomes shared), rank 1 writes it again
 * (rank 2 gets a notice at the barrier and its copy is stale), and at the
 * next barrier P is exclusive again at rank 1: only rank 1 wrote it, and
 * nobody took a copy since. Rank 1 then writes it many times without any
 * fault or notice. Rank 3, which never had P, reads it (P is shared again
 * and write-protected before its copy is taken); rank 1 writes it once more.
 * Now rank 2, still holding only its stale notice, and rank 3, holding a
 * copy older than the last write, must both read the newest values. The
 * home's statistics must show that P really went exclusive again.
 *
 * Run with DSM_PUSH=0: with pushes, rank 1's write at step 2 would push a
 * fresh copy to rank 2 (which fetched P, so it is subscribed), rank 2's copy
 * would not be stale, and P would rightly stay shared.
 */
#include <stdint.h>
#include <string.h>
#include "check.h"

DSM_SHARED_BSS static volatile long *page;   /* one page, allocated by rank 1 */

static void fill(long v)
{
  for (int i = 0; i < 512; i++)
    page[i] = v * 1000 + i;
}

static void expect(long v)
{
  for (int i = 0; i < 512; i++)
    CHECK_EQ(page[i], v * 1000 + i);
}

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id();
  CHECK(dsm_nprocs() >= 4);
  CHECK(getenv("DSM_PUSH") && !strcmp(getenv("DSM_PUSH"), "0"));
  if (me == 1) {
    page = dsm_malloc(4096);
    fill(1);
  }
  dsm_barrier(0);
  if (me == 2)
    expect(1);                        /* P becomes shared: rank 2 holds a copy */
  dsm_barrier(1);
  if (me == 1)
    fill(2);                          /* tracked: rank 2 gets a notice */
  dsm_barrier(2);                     /* rank 2's copy is stale from here on */
  dsm_barrier(3);                     /* only rank 1 wrote P, nobody copied it since */
  int64_t excl = dsm_stat("exclusive");
  if (me == 1) {
    CHECK(excl >= 1);
    int64_t wf = dsm_stat("write_faults");
    for (long v = 3; v < 50; v++)
      fill(v);                        /* exclusive: no fault, no notice */
    CHECK_EQ(dsm_stat("write_faults"), wf);
  }
  dsm_barrier(4);
  if (me == 3)
    expect(49);                       /* P is shared again */
  dsm_barrier(5);
  if (me == 1) {
    int64_t wf = dsm_stat("write_faults");
    fill(50);                         /* tracked again: it was write-protected for rank 3 */
    CHECK_EQ(dsm_stat("write_faults"), wf + 1);
  }
  dsm_barrier(6);
  expect(50);                         /* everyone, rank 2 with its old notice included */
  dsm_barrier(7);
  if (me == 0)
    printf("exclusive_cycle: exclusive -> shared -> exclusive -> shared with a stale "
           "notice elsewhere: OK\n");
  dsm_exit(0);
}
