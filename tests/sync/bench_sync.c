/*
 * Runs the synchronization measurements of dsmbench (tools/dsmbench_sync.c)
 * and checks they are plausible: positive, and a local re-acquire cheaper
 * than any acquire that needs messages.
 */
#include "check.h"
#include "dsmbench.h"

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  double local = bench_lock_local_ns();
  double mgr = bench_lock_manager_ns();
  double fwd = bench_lock_forward_ns();
  double sema = bench_sema_ns();
  if (dsm_proc_id() == 0) {
    printf("lock re-acquire (local):     %10.0f ns\n", local);
    printf("lock from manager:           %10.0f ns\n", mgr);
    printf("lock forwarded to holder:    %10.0f ns\n", fwd);
    printf("semaphore signal -> wait:    %10.0f ns\n", sema);
    CHECK(local > 0);
    if (dsm_nprocs() >= 2) {
      CHECK(mgr > local);
      CHECK(sema > 0);
    }
    if (dsm_nprocs() >= 3)
      CHECK(fwd > local);
  }
  dsm_exit(0);
}
