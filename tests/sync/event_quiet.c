/* event_quiet.c — a thread waiting for an event takes the service socket
 * over without waking the service thread (dsm/net/transport_udp.c).
 *
 * The barrier's manager (rank 0) waits for the last arrival on an event,
 * and so does every lock requester for its TOKEN. The service thread used
 * to be woken twice for each such wait (to park, then to take the socket
 * back): 2 wake-ups per barrier on rank 0. Now neither. Each round here is
 * a barrier and, on every rank, a remote lock acquire whose TOKEN comes
 * from the previous holder; rank 0's wake-ups over 300 rounds must stay
 * far below one per round, and the counter the lock protects must be
 * exact. */
#include <stdint.h>

#include "check.h"

#define ROUNDS 300
#if !defined(__SANITIZE_THREAD__)
#define MAX_WAKEUPS (ROUNDS / 10)
#else
/* Under ThreadSanitizer on a loaded machine the service thread is more
 * often awake, holding the socket, when the manager begins its wait; it
 * then reads the last arrival itself and hands the event over with a
 * wake-up (barrier.c's complete -> event_fire). That gave 31 in a CI run,
 * and 0-17 here with six jobs on two CPUs in the normal build. The
 * behaviour this test guards against costs 2 per round (600), so the
 * bound here is one per two rounds. */
#define MAX_WAKEUPS (ROUNDS / 2)
#endif
#define LOCK 7

DSM_SHARED_BSS static long counter;

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  dsm_barrier(0);
  int64_t w0 = dsm_stat("wakeups");
  CHECK(w0 >= 0);
  for (int i = 0; i < ROUNDS; i++) {
    dsm_lock_acquire(LOCK);
    counter++;
    dsm_lock_release(LOCK);
    dsm_barrier(1);
  }
  int64_t w = dsm_stat("wakeups") - w0;
  printf("rank %u: %lld wake-ups in %d rounds\n", me, (long long)w, ROUNDS);
  if (me == 0) {
    CHECK_EQ(counter, (long)ROUNDS * n);
    if (n > 1)
      CHECK(w < MAX_WAKEUPS);
  }
  dsm_barrier(2);
  dsm_exit(0);
}
