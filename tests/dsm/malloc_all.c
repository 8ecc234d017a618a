/*
 * dsm_malloc from every process at once, without any message: each process
 * allocates blocks of several sizes, fills them, and publishes the pointers
 * in a shared table; after a barrier every process checks every other
 * process's blocks. Then every process frees blocks allocated by others.
 *
 * "Without any message" is checked on protocol_requests_sent, which leaves out
 * the transport's own traffic on timers: a keepalive PING from a slow peer
 * and our answer to it may fall into the window (it did under TSan with 8
 * processes on 2 cores) and say nothing about dsm_malloc. That the counter
 * sees what it should is checked too: freeing another process's blocks must
 * send FREE messages.
 *
 * Rows allocated one by one lie close, not a power of two apart: 64 rows
 * of 528 bytes (NAS MG's, 66 doubles) take at most 640 bytes each, 16-byte
 * aligned (alloc.c's size classes; 1 KiB each before 2026-12-07, which put
 * MG's rows on a few cache sets and made it 2.5 times slower).
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
  int64_t msgs_before = dsm_stat("protocol_requests_sent");
  CHECK(msgs_before >= 0);
  unsigned char *rows[64];
  for (int k = 0; k < 64; k++) {
    rows[k] = dsm_malloc(528);
    CHECK(rows[k] != NULL);
    CHECK_EQ((uintptr_t)rows[k] % 16, 0);
  }
  uintptr_t lo = (uintptr_t)rows[0], hi = lo;
  for (int k = 1; k < 64; k++) {
    if ((uintptr_t)rows[k] < lo) lo = (uintptr_t)rows[k];
    if ((uintptr_t)rows[k] > hi) hi = (uintptr_t)rows[k];
  }
  /* on a fresh heap: 6 rows of 640 in a page: 11 pages, against 16 for rows of 1 KiB */
  CHECK(hi - lo < 11 * 4096);
  for (int k = 0; k < 64; k++)
    dsm_free(rows[k]);
  for (int k = 0; k < NB; k++)
    mine[k] = dsm_malloc(size_of(k));
  CHECK_EQ(dsm_stat("protocol_requests_sent"), msgs_before);   /* allocation sent nothing */
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
  int64_t frees_before = dsm_stat("msgs_sent.FREE");
  int64_t proto_before = dsm_stat("protocol_requests_sent");
  for (int k = 0; k < NB; k++)
    dsm_free(table[victim][k]);
  if (victim != me) {   /* a remote free is a FREE message, and a protocol one */
    CHECK(dsm_stat("msgs_sent.FREE") > frees_before);
    CHECK(dsm_stat("protocol_requests_sent") - proto_before >= dsm_stat("msgs_sent.FREE") - frees_before);
  }
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
