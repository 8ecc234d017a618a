/*
 * Known sharing patterns for the sharing profiler (dsm/profile.c,
 * tools/dsmprof.py); check_profile.py runs this under dsmrun --profile and
 * checks what the report says about each:
 *   fs_slots      one page; every step each process writes its own 8-byte
 *                 slot of it: false sharing, every step;
 *   ts_counter    one page; every step each process adds to the same
 *                 counter under a lock: true sharing (the same bytes move);
 *   private_only  a heap block of 5 pages that rank 0 alone writes and
 *                 reads: no traffic at all (a megabyte nobody touches lies
 *                 between it and the table, so that no prefetch of the
 *                 table's pages reaches it);
 *   table         a heap block rank 0 fills every step and everyone reads:
 *                 read-shared, named by its allocation call in this file.
 * Every step ends with a barrier, so each step is one epoch.
 */
#include <string.h>

#include "../dsm/check.h"

#define STEPS 12

DSM_SHARED_BSS static long fs_slots[512] __attribute__((aligned(4096)));
DSM_SHARED_BSS static long ts_counter[512] __attribute__((aligned(4096)));
static double *private_only;    /* rank 0's own pointer: nobody else knows it */
#define PRIVATE_DOUBLES (5 * 512)
DSM_SHARED_BSS static double *table;

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), np = dsm_nprocs();
  CHECK(np >= 2 && np <= 64);
  if (me == 0) {
    private_only = dsm_malloc(PRIVATE_DOUBLES * sizeof(double));
    CHECK(dsm_malloc(1 << 20) != NULL);
    table = dsm_malloc(8 * 4096);
    dsm_distribute(&table, sizeof table);
  }
  dsm_barrier(0);
  for (long s = 1; s <= STEPS; s++) {
    fs_slots[me * 2] = s * 100 + me;            /* 16 bytes apart: disjoint */
    dsm_lock_acquire(1);
    ts_counter[0]++;
    dsm_lock_release(1);
    if (me == 0) {
      for (int i = 0; i < PRIVATE_DOUBLES; i++)
        private_only[i] = s + i;
      for (int i = 0; i < 4096; i++)
        table[i] = s * i;
    }
    dsm_barrier(1);
    for (unsigned r = 0; r < np; r++)
      CHECK_EQ(fs_slots[r * 2], s * 100 + r);
    CHECK_EQ(ts_counter[0], s * np);
    double sum = 0;
    for (int i = 0; i < 4096; i++)
      sum += table[i];
    CHECK(sum == (double)s * 4095.0 * 4096.0 / 2);
    if (me == 0)
      CHECK(private_only[PRIVATE_DOUBLES - 1] == s + PRIVATE_DOUBLES - 1);
    dsm_barrier(2);
  }
  if (me == 0)
    printf("sharing: OK (%u processes, %d steps)\n", np, STEPS);
  dsm_exit(0);
}
