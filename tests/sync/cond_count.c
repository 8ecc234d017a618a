/*
 * The count of condition waiters that travels with a lock (sync/cond.c):
 * a holder that signals while nobody waits sends nothing, and one that
 * signals while someone waits, however many holders the lock went through
 * since the wait, reaches the waiter.
 *
 * 1. No waiter: every rank takes lock L and signals C ten times and
 *    broadcasts once; all eleven are local (`cond_signals_local` +11).
 * 2. Rank n-1 waits on C. The lock then goes through ranks 0..n-2 in turn
 *    (each takes it when `turn` names it), and only the last of them
 *    signals: its signal must go to the manager (no local count) and wake
 *    the waiter. If the count were lost on the way (a grant that does not
 *    carry it), that signal would be dropped and the job would hang until
 *    dsmrun's --max-time ends it with a failure.
 * 3. The waiter has been woken, so the count is back at zero: every rank
 *    signals once more under the lock, locally.
 * 4. A signal from a rank that does not hold the lock goes to the manager
 *    (it cannot know the count) and finds nobody: no local count, no harm.
 */
#include <unistd.h>
#include "check.h"

#define L 5
#define C 1

struct shared {
  int waiting, woken, turn;
};

static struct shared *s;

static void take_turn(int r)
{
  /* Polls with a sleep: the lock's holder moves on meanwhile. */
  for (;;) {
    dsm_lock_acquire(L);
    if (s->waiting && s->turn == r)
      return;
    dsm_lock_release(L);
    usleep(2000);
  }
}

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  if (me == 0) {
    s = dsm_calloc(1, sizeof *s);
    dsm_distribute(&s, sizeof s);
  }
  dsm_barrier(0);

  /* 1 */
  long local0 = dsm_stat("cond_signals_local");
  dsm_lock_acquire(L);
  for (int i = 0; i < 10; i++)
    dsm_cond_signal(C, L);
  dsm_cond_broadcast(C, L);
  dsm_lock_release(L);
  if (n > 1)
    CHECK_EQ(dsm_stat("cond_signals_local") - local0, 11);
  dsm_barrier(1);

  /* 2 */
  if (n > 1) {
    if (me == n - 1) {
      dsm_lock_acquire(L);
      s->waiting = 1;
      while (!s->woken)
        dsm_cond_wait(C, L);
      dsm_lock_release(L);
    } else {
      take_turn((int)me);
      s->turn++;
      if (me == n - 2) {
        long before = dsm_stat("cond_signals_local");
        s->woken = 1;
        dsm_cond_signal(C, L);
        CHECK_EQ(dsm_stat("cond_signals_local"), before);   /* it had to go */
      }
      dsm_lock_release(L);
    }
  }
  dsm_barrier(2);
  CHECK(n == 1 || s->woken == 1);

  /* 3 */
  local0 = dsm_stat("cond_signals_local");
  dsm_lock_acquire(L);
  dsm_cond_signal(C, L);
  dsm_lock_release(L);
  if (n > 1)
    CHECK_EQ(dsm_stat("cond_signals_local") - local0, 1);
  dsm_barrier(3);

  /* 4 */
  local0 = dsm_stat("cond_signals_local");
  dsm_cond_signal(C, L);
  CHECK_EQ(dsm_stat("cond_signals_local"), local0);
  dsm_barrier(4);

  if (me == 0)
    printf("cond_count: OK (%u processes)\n", n);
  dsm_exit(0);
}
