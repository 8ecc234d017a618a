/*
 * sema_burst.c — signals sent in a burst to one manager arrive in any
 * order, and every wait still sees the writes of the signals it consumed.
 *
 * A signal is one-way (sync/sema.c): the signaller does not wait for its
 * manager, so several of its signals to the same manager can be in flight
 * at once, handled by different threads there (the service thread, or the
 * waiter serving the socket). Each carries the interval records the
 * manager lacked when it was sent, and a later one's records follow on
 * from an earlier one's. Here each process writes one page per round and
 * signals its right neighbour's semaphore (managed by the neighbour) after
 * each, BURST rounds at a time without waiting; the neighbour waits once
 * per round and checks that round's page, and the pages of all rounds
 * before it. A manager that applied a later signal first either failed
 * ("malformed interval records"), or, counting it, let a wait return
 * without the writes of the signal it stood for.
 */
#include "check.h"

#define ROUNDS 240
#define BURST 8
#define PAGE_INTS 1024            /* one 4 KiB page per round */
#define SEM(r, n) (500 * (n) + (r))   /* managed by rank r */
#define TURN(r, n) (700 * (n) + (r))  /* the bursts' flow control, also r's */

static int val(unsigned r, int k) { return (int)r * 100003 + k * 31 + 7; }

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  static int *pg;                 /* n * ROUNDS pages: rank r's round k */
  if (me == 0) {
    pg = dsm_calloc((size_t)n * ROUNDS * PAGE_INTS, sizeof *pg);
    dsm_distribute(&pg, sizeof pg);
  }
  dsm_barrier(0);
  unsigned right = (me + 1) % n, left = (me + n - 1) % n;
  int *mine = pg + (size_t)me * ROUNDS * PAGE_INTS;
  const int *theirs = pg + (size_t)left * ROUNDS * PAGE_INTS;
  for (int k = 0; k < ROUNDS; k++) {
    mine[(size_t)k * PAGE_INTS + (k % PAGE_INTS)] = val(me, k);
    if (n > 1)
      dsm_sema_signal(SEM(right, n));
    if (n == 1 || (k + 1) % BURST)
      continue;
    /* A burst sent: consume the left neighbour's, checking each round. */
    for (int j = k + 1 - BURST; j <= k; j++) {
      dsm_sema_wait(SEM(me, n));
      for (int i = 0; i <= j; i++)
        CHECK_EQ(theirs[(size_t)i * PAGE_INTS + (i % PAGE_INTS)], val(left, i));
    }
    /* And let the right neighbour catch up before the next burst, so that
     * bursts stay bursts instead of one long stream. */
    dsm_sema_signal(TURN(right, n));
    dsm_sema_wait(TURN(me, n));
  }
  dsm_barrier(1);
  for (unsigned r = 0; r < n; r++)
    for (int k = 0; k < ROUNDS; k++)
      CHECK_EQ(pg[((size_t)r * ROUNDS + k) * PAGE_INTS + (k % PAGE_INTS)], val(r, k));
  dsm_barrier(2);
  if (me == 0)
    printf("sema_burst: %u processes x %d rounds in bursts of %d: OK\n", n, ROUNDS, BURST);
  dsm_exit(0);
}
