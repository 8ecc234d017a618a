/*
 * The seed's pipeline (Figure 3) over semaphores: process r takes each
 * round's block from process r-1, checks it, transforms it and hands it to
 * r+1. full(r) says "stage r-1's block for r is ready", free(r) says "r has
 * read it, r-1 may overwrite it" (initialized to 1 at its manager before the
 * first barrier). The payload is checked at every stage of every round, so
 * a wait that returned without its signaller's writes would fail. A counting
 * check rides along: every other process signals `done` once per round and
 * rank 0 waits for all of them at the end (a semaphore counts signals that
 * come before the wait).
 */
#include "check.h"

#define ROUNDS 60
#define M 3000                   /* ints per block: spans pages */
#define FULL(r) (100 + (r))
#define FREE(r) (300 + (r))
#define DONE 77

static int val(int round, int stage, int i) { return round * 1000003 + stage * 7919 + i; }

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  static int *blk;               /* n blocks: blk[r*M..] is written by r */
  if (me == 0) {
    blk = dsm_calloc((size_t)n * M, sizeof *blk);
    dsm_distribute(&blk, sizeof blk);
  }
  if (me == 0)
    for (unsigned r = 1; r < n; r++) {
      dsm_sema_init(FREE(r), 1);
      dsm_sema_init(FULL(r), 0);
    }
  if (me == 0)
    dsm_sema_init(DONE, 0);
  dsm_barrier(0);
  for (int t = 0; t < ROUNDS; t++) {
    int *out = blk + (size_t)me * M;
    if (me > 0) {
      dsm_sema_wait(FULL(me));
      const int *in = blk + (size_t)(me - 1) * M;
      for (int i = 0; i < M; i++)
        CHECK_EQ(in[i], val(t, (int)me - 1, i));
    }
    if (me + 1 < n)
      dsm_sema_wait(FREE(me + 1));       /* r+1 has read our last block */
    for (int i = 0; i < M; i++)
      out[i] = val(t, (int)me, i);
    if (me > 0)
      dsm_sema_signal(FREE(me));         /* we are done with r-1's block */
    if (me + 1 < n)
      dsm_sema_signal(FULL(me + 1));
    if (me > 0)
      dsm_sema_signal(DONE);
  }
  if (me == 0) {
    for (int k = 0; k < ROUNDS * (int)(n - 1); k++)
      dsm_sema_wait(DONE);
    /* With one process, exercise the count locally. */
    dsm_sema_signal(DONE);
    dsm_sema_signal(DONE);
    dsm_sema_wait(DONE);
    dsm_sema_wait(DONE);
  }
  dsm_barrier(1);
  for (int i = 0; i < M; i++)
    CHECK_EQ(blk[(size_t)(n - 1) * M + i], val(ROUNDS - 1, (int)n - 1, i));
  dsm_barrier(2);
  if (me == 0)
    printf("pipeline: %u stages x %d rounds of %d ints: OK (%lld sema waits on rank 0)\n",
           n, ROUNDS, M, (long long)dsm_stat("sema_waits"));
  dsm_exit(0);
}
