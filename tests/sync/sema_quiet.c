/* sema_quiet.c — a process waiting on a semaphore it manages itself serves
 * the network meanwhile, so the signal that ends its wait is read and
 * handled on the waiting thread (dsm/net/transport_udp.c, serve_until).
 *
 * Such a wait is a call to ourselves that the manager's handler leaves
 * unanswered until another process's SIGNAL comes. It used to wait for the
 * answer like any reply: the SIGNAL woke the service thread, which ran the
 * handler and then had to wake the waiter (a poke) — two wake-ups of a
 * sleeping thread per hand-off, ~40 us each on a VM. A token goes round a
 * ring of semaphores, each managed by the process that waits on it; each
 * rank must count far fewer pokes than hand-offs, and the counter the
 * semaphores order must be exact at every step. */
#include <stdint.h>

#include "check.h"

#define ROUNDS 300

DSM_SHARED_BSS static long counter;

static unsigned sema_of(unsigned rank, unsigned n) { return 40 * n + rank; }   /* managed by rank */

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  dsm_barrier(0);
  int64_t w0 = dsm_stat("wakeups");
  CHECK(w0 >= 0);
  for (int i = 0; i < ROUNDS; i++) {
    if (me || i)
      dsm_sema_wait(sema_of(me, n));
    CHECK_EQ(counter, (long)i * n + me);
    counter++;
    dsm_sema_signal(sema_of((me + 1) % n, n));
  }
  if (me == 0) {
    dsm_sema_wait(sema_of(0, n));
    CHECK_EQ(counter, (long)ROUNDS * n);
  }
  int64_t w = dsm_stat("wakeups") - w0;
  printf("rank %u: %lld pokes in %d hand-offs to it\n", me, (long long)w, ROUNDS);
#if !defined(__SANITIZE_THREAD__)
  CHECK(w < ROUNDS / 10);
#else
  /* Under ThreadSanitizer every step is several times slower, and a SIGNAL
   * that the service thread reads while the waiter is between its call and
   * taking the socket over is answered with a poke: 0-15 here, 37 once in
   * a loaded CI run with DSM_THREADS=2. The bound is checked in the other
   * builds (with the change disabled a rank gets 204-300); the counter's
   * order, checked above, holds in all. */
#endif
  dsm_barrier(1);
  dsm_exit(0);
}
