/*
 * A home moves while a reader faults on the page (issue 13: "a home
 * migrating while a reader faults").
 *
 * Fork/join: in each region, slave rank 1 alone writes a block of pages
 * that rank 0 allocated. At the join the block's home moves to rank 1: the
 * master applies that at once, rank 1 when the answer to its JOIN arrives.
 * DSM_TEST_LAG=1:200 makes rank 1 take 200 ms before it applies a
 * collective, so the master's reads right after the join reach rank 1 while
 * rank 1 does not yet know it is the home: those requests must wait there,
 * not fail, and then be answered with rank 1's writes. The next region
 * writes the block again, from rank 2, so the home moves once more. At the
 * end every process reports how many requests it had to hold, and rank 1
 * must have held some (else the lag did not do what it is for).
 */
#include <unistd.h>
#include "check.h"

#define PAGES 8

struct arg { long *block; long round; unsigned writer; long *held; };

static void body(void *p)
{
  struct arg *a = p;
  if (a->held) {
    a->held[dsm_proc_id() * 512] = dsm_stat("requests_held");
    return;
  }
  if (dsm_proc_id() == a->writer)
    for (long i = 0; i < PAGES * 512; i++)
      a->block[i] = a->round * 100000 + i;
}

static int real_main(int argc, char **argv)
{
  CHECK(dsm_nprocs() >= 3);
  long *block = dsm_malloc(PAGES * 4096);
  for (long i = 0; i < PAGES * 512; i++)
    block[i] = -1;
  for (long round = 1; round <= 4; round++) {
    struct arg a = { block, round, round % 2 ? 1u : 2u, NULL };
    dsm_fork(body, &a, sizeof a);
    dsm_join();
    /* The block's home is now the writer, which may not know it yet. */
    for (long i = 0; i < PAGES * 512; i++)
      CHECK_EQ(block[i], round * 100000 + i);
  }
  long *held = dsm_malloc(dsm_nprocs() * 4096);
  struct arg a = { block, 0, 0, held };
  dsm_fork(body, &a, sizeof a);
  dsm_join();
  printf("migrate_lag: requests held by rank 1: %ld\n", held[512]);
  CHECK(held[512] > 0);
  printf("migrate_lag: homes moved 4 times under lagging new homes: OK\n");
  return 0;
}

int main(int argc, char **argv)
{
  dsm_main(real_main, argc, argv);
}
