/*
 * Lingering (sync/lock.c): a holder that releases a lock shortly after
 * taking it keeps it idle for DSM_LOCK_LINGER_US even though a successor
 * waits, re-takes it without a message if it wants it again in that time,
 * and the lock alarm passes it on when the time is up, even while the holder
 * computes without calling libdsm at all.
 *
 * Run with DSM_LOCK_LINGER_US=200000 and DSM_LOCK_HOLD_US=5000000, two
 * processes. Lock 2 is managed by rank 0 and starts idle there. Rank 0 takes
 * it before barrier 1; rank 1 asks for it after the barrier and waits. Rank
 * 0 holds it 500 ms (the request is queued behind it by then, even under a
 * sanitizer), releases, at once takes it again (must cost no message:
 * lock_remote stays), releases, and computes for 3 s. Rank 1 must get the
 * lock about 200 ms after that release (the alarm), not after rank 0's
 * computation: between 650 ms and 2.5 s after it asked.
 */
#include <time.h>
#include "check.h"

static double now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  CHECK(dsm_nprocs() == 2);
  static long *counter;
  if (dsm_proc_id() == 0) {
    counter = dsm_calloc(1, sizeof *counter);
    dsm_distribute(&counter, sizeof counter);
  }
  dsm_barrier(0);
  if (dsm_proc_id() == 0) {
    dsm_lock_acquire(2);
    dsm_barrier(1);
    double t0 = now_ms();
    while (now_ms() - t0 < 500) {}
    (*counter)++;
    dsm_lock_release(2);
    long remote = dsm_stat("lock_remote");
    dsm_lock_acquire(2);              /* within the linger: no message */
    CHECK_EQ(dsm_stat("lock_remote"), remote);
    (*counter)++;
    dsm_lock_release(2);
    t0 = now_ms();
    volatile double x = 0;
    while (now_ms() - t0 < 3000)      /* no libdsm call: only the alarm can pass it */
      x += 1;
    printf("lock_linger: rank 0 re-took the lock with no message, computed 3 s\n");
  } else {
    dsm_barrier(1);
    double t0 = now_ms();
    dsm_lock_acquire(2);
    double waited = now_ms() - t0;
    CHECK_EQ(*counter, 2);
    (*counter)++;
    dsm_lock_release(2);
    printf("lock_linger: rank 1 waited %.0f ms for the lock\n", waited);
    CHECK(waited >= 650 && waited < 2500);
  }
  dsm_barrier(2);
  if (dsm_proc_id() == 0)
    CHECK_EQ(*counter, 3);
  dsm_exit(0);
}
