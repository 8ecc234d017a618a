/*
 * Runs the synchronization measurements of dsmbench (tools/dsmbench_sync.c)
 * and checks they are plausible: positive, a local re-acquire cheaper than
 * any acquire that needs messages, and wake-ups counted.
 */
#include "check.h"
#include "dsmbench.h"

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  bench_result_t rl = bench_lock_local(), rm = bench_lock_manager(), rf = bench_lock_forward(),
                 rs = bench_sema();
  double local = rl.ns, mgr = rm.ns, fwd = rf.ns, sema = rs.ns;
  if (dsm_proc_id() == 0) {
    printf("lock re-acquire (local):     %10.0f ns %8.5f wake-ups\n", local, rl.wakeups);
    printf("lock from manager:           %10.0f ns %6.2f wake-ups\n", mgr, rm.wakeups);
    printf("lock forwarded to holder:    %10.0f ns %6.2f wake-ups\n", fwd, rf.wakeups);
    printf("semaphore signal -> wait:    %10.0f ns %6.2f wake-ups\n", sema, rs.wakeups);
    CHECK(local > 0);
    CHECK(rl.pokes == 0);     /* no message, nobody to wake */
    /* The service thread may still wake for a stray datagram or its own
     * timer (a held ACK's, a keepalive's) in the 20,000 turns, not one a
     * turn. */
    CHECK(rl.wakeups < 0.001);
    if (dsm_nprocs() >= 2) {
      CHECK(mgr > local);
      CHECK(sema > 0);
    }
    if (dsm_nprocs() >= 3)
      CHECK(fwd > local);
  }
  dsm_exit(0);
}
