/*
 * Byte-level false sharing: every process writes the bytes i with
 * i % nprocs == rank of one char array spanning several pages, over several
 * rounds; after each barrier every process checks every byte. A diff that
 * carried an unchanged byte would overwrite a neighbour's byte with a stale
 * value and fail the check.
 */
#include <string.h>
#include "check.h"

#define N (5 * 4096 + 123)
#define ROUNDS 6

static unsigned char expect(size_t i, int round) { return (unsigned char)(i * 7 + round * 13 + 1); }

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  static unsigned char *a;
  if (me == 0) {
    a = dsm_malloc(N);
    memset(a, 0, N);
    dsm_distribute(&a, sizeof a);
  }
  dsm_barrier(0);
  for (int round = 1; round <= ROUNDS; round++) {
    for (size_t i = me; i < N; i += n)
      a[i] = expect(i, round);
    dsm_barrier(1);
    for (size_t i = 0; i < N; i++)
      CHECK_EQ(a[i], expect(i, round));
    dsm_barrier(2);
  }
  if (me == 0)
    printf("false_sharing: %u processes, %d rounds, %d bytes: OK\n", n, ROUNDS, N);
  dsm_exit(0);
}
