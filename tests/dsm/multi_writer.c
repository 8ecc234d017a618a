/*
 * Several writers to one page, merged at a barrier: process r writes the
 * ints of one page whose index is r mod n, and the odd bytes of a shared
 * 3-byte-stride record array, in many rounds; everyone checks the merge.
 * Also a shared global (DSM_SHARED) written by all.
 */
#include <string.h>
#include "check.h"

DSM_SHARED int page_ints[1024] __attribute__((aligned(4096))) = { 1 };
DSM_SHARED_BSS long counters[64];

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  if (me == 0)
    CHECK_EQ(page_ints[0], 1);   /* the executable's initial image is shared */
  dsm_barrier(0);
  CHECK_EQ(page_ints[0], 1);
  dsm_barrier(3);   /* round 0 below overwrites page_ints[0] */
  for (int round = 0; round < 20; round++) {
    for (unsigned i = me; i < 1024; i += n)
      page_ints[i] = (int)(i * 1000 + round);
    counters[me] += round;
    dsm_barrier(1);
    for (unsigned i = 0; i < 1024; i++)
      CHECK_EQ(page_ints[i], i * 1000 + round);
    for (unsigned r = 0; r < n; r++)
      CHECK_EQ(counters[r], round * (round + 1) / 2);
    dsm_barrier(2);
  }
  if (me == 0)
    printf("multi_writer: %u writers merged on one page over 20 rounds: OK\n", n);
  dsm_exit(0);
}
