/*
 * A lock passed round the processes in a fixed order (each takes it in its
 * turn between two barriers, and appends to a log under it), K times round.
 * The log must end up exact on every process. And from the second round
 * on, each grant brings the lock back to a process that kept the lock's
 * window of carried diffs when it passed the lock on (dsm/carry.c), so
 * the grant must leave those diffs out: some process must count diffs left
 * out (diffs_carried_kept), or every grant resent the whole window.
 */
#include <string.h>
#include "check.h"

#define K 12
#define MAXP 64

struct shared {
  long count;
  int log[MAXP * K];
  long kept[MAXP];
};

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  CHECK(n <= MAXP);
  static struct shared *s;
  if (me == 0) {
    s = dsm_calloc(1, sizeof *s);
    dsm_distribute(&s, sizeof s);
  }
  dsm_barrier(0);
  for (int k = 0; k < K; k++)
    for (unsigned turn = 0; turn < n; turn++) {
      if (turn == me) {
        dsm_lock_acquire(3);
        CHECK_EQ(s->count, (long)k * n + turn);
        s->log[s->count++] = (int)me + 1;
        dsm_lock_release(3);
      }
      dsm_barrier(1);
    }
  /* Read under the lock too: its grant brings the newest window. */
  dsm_lock_acquire(3);
  CHECK_EQ(s->count, (long)n * K);
  for (long i = 0; i < (long)n * K; i++)
    CHECK_EQ(s->log[i], (int)(i % n) + 1);
  s->kept[me] = dsm_stat("diffs_carried_kept");
  dsm_lock_release(3);
  dsm_barrier(2);
  if (me == 0) {
    long kept = 0;
    for (unsigned r = 0; r < n; r++)
      kept += s->kept[r];
    if (n > 1)
      CHECK(kept > 0);
    printf("carry_window: %u processes, %d rounds: log exact, %ld carried diffs left out of grants\n",
           n, K, kept);
  }
  dsm_exit(0);
}
