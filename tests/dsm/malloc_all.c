/*
 * dsm_malloc from every process at once, without any message: each process
 * allocates blocks of several sizes, fills them, and publishes the pointers
 * in a shared table; after a barrier every process checks every other
 * process's blocks. Then every process frees blocks allocated by others.
 */
#include <stdint.h>
#include "check.h"

#define NB 40
DSM_SHARED_BSS unsigned char *table[64][NB];

static size_t size_of(int k) { return (size_t)(k % 8 == 7 ? 70000 : 1 + k * 37); }

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  unsigned char *mine[NB];
  int64_t msgs_before = dsm_stat("msgs_sent");
  for (int k = 0; k < NB; k++)
    mine[k] = dsm_malloc(size_of(k));
  CHECK_EQ(dsm_stat("msgs_sent"), msgs_before);   /* allocation sent nothing */
  for (int k = 0; k < NB; k++) {
    CHECK(mine[k] != NULL);
    for (size_t i = 0; i < size_of(k); i++)
      mine[k][i] = (unsigned char)(me * 31 + k + i);
    table[me][k] = mine[k];
  }
  dsm_barrier(0);
  for (unsigned r = 0; r < n; r++)
    for (int k = 0; k < NB; k++) {
      unsigned char *p = table[r][k];
      for (size_t i = 0; i < size_of(k); i++)
        if (p[i] != (unsigned char)(r * 31 + k + i)) {
          fprintf(stderr, "rank %u: block %d of rank %u wrong at %zu\n", me, k, r, i);
          exit(1);
        }
    }
  dsm_barrier(1);
  /* Free the next process's blocks; then allocate again. */
  unsigned victim = (me + 1) % n;
  for (int k = 0; k < NB; k++)
    dsm_free(table[victim][k]);
  dsm_barrier(2);
  for (int k = 0; k < NB; k++) {
    unsigned char *p = dsm_malloc(size_of(k));
    p[0] = 1;
  }
  dsm_barrier(3);
  if (me == 0)
    printf("malloc_all: %u processes x %d blocks: OK\n", n, NB);
  dsm_exit(0);
}
