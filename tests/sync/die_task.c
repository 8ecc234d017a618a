/*
 * A process dies while it holds a task it took from another: rank 0 creates
 * tasks, rank 1 takes one at the region's closing barrier and kills itself
 * with SIGKILL inside it; rank 0 waits in taskwait for that task's DONE.
 * The job must stop with rank 1's status, and dsmrun must name rank 1
 * (expect_fail.sh checks status, time and message).
 */
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include "check.h"
#include "dsm.h"
#include "ompdsm_rt.h"

static void used(void) __attribute__((constructor));
static void used(void) { __ompdsm_tasks_used(); }

static void work(void *p)
{
  (void)p;
  if (dsm_proc_id() == 1)   /* whichever of its threads runs it */
    kill(getpid(), SIGKILL);
  struct timespec ts = { 0, 20 * 1000 * 1000 };  /* long enough to be stolen */
  nanosleep(&ts, NULL);
}

static void region(void *unused)
{
  (void)unused;
  if (__ompdsm_thread_num() != 0)
    return;
  for (int i = 0; i < 50; i++)
    __ompdsm_task(work, NULL, 0, 0, 0, NULL, 0);
  __ompdsm_taskwait();
}

static int real_main(int argc, char **argv)
{
  (void)argc; (void)argv;
  __ompdsm_parallel(region, NULL, 0, 0, 1);
  fprintf(stderr, "rank 0: got past a dead process\n");
  return 3;
}

int main(int argc, char **argv)
{
  __ompdsm_main(real_main, argc, argv);
}
