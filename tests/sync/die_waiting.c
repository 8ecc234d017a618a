/*
 * A process dies while the others wait for it: rank 1 takes a lock (mode
 * "lock") or is the only one who would signal a semaphore (mode "sema"),
 * everyone meets at a barrier, the others then block on the lock or the
 * semaphore, and rank 1 kills itself with SIGKILL ("lock") or exits with
 * status 1 ("sema"). The job must stop: dsmrun exits non-zero and names
 * rank 1 (expect_fail.sh checks status, time and message).
 */
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "check.h"

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  CHECK(argc >= 2);
  int sema = strcmp(argv[1], "sema") == 0;
  unsigned me = dsm_proc_id();
  CHECK(dsm_nprocs() >= 2);
  if (me == 1 && !sema)
    dsm_lock_acquire(9);
  dsm_barrier(0);
  if (me == 1) {
    struct timespec ts = { 0, 300 * 1000 * 1000 };   /* let the others block */
    nanosleep(&ts, NULL);
    if (sema)
      exit(1);
    kill(getpid(), SIGKILL);
  }
  if (sema)
    dsm_sema_wait(11);
  else
    dsm_lock_acquire(9);
  fprintf(stderr, "rank %u: got past a dead process\n", me);
  dsm_exit(3);
}
