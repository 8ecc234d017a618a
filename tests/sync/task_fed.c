/*
 * A process that was hungry and found work of its own is not sent tasks
 * unasked (sync/omp/task.c, TK_FED). On 2 processes:
 *
 *  1. rank 0 creates `slow` and, 50 ms later, `quick`: rank 1 has asked by
 *     then and takes `slow` (150 ms); rank 0 runs `quick` (50 ms), runs dry
 *     in its taskwait and asks rank 1, which answers NONE when `slow` ends:
 *     rank 1 now holds rank 0 hungry.
 *  2. rank 0's taskwait returns; 100 ms later it creates `parent` (rank 1 is
 *     idle and asking by then: it takes it), then computes for 500 ms (no
 *     scheduling point). Without the pause, rank 1's request came after
 *     `parent` under ThreadSanitizer 2 runs in 3 (2026-12-07), and rank 0
 *     kept it.
 *  3. `parent`, on rank 1, creates KIDS short tasks and waits for them.
 *     Rank 0 is busy and asks nobody: every kid must run on rank 1.
 *     Before TK_FED, rank 1 sent the first kid to rank 0 unasked (the
 *     hunger of step 1), where it waited 500 ms to be run; in sort_task
 *     that sent each merge's first split to the process merging the other
 *     half, and half of each merge's input then had to be fetched.
 */
#define _POSIX_C_SOURCE 199309L
#include <time.h>
#include "check.h"
#include "ompdsm_rt.h"

static void used(void) __attribute__((constructor));
static void used(void) { __ompdsm_tasks_used(); }

#define KIDS 8

DSM_SHARED static int ran_slow = -1, ran_parent = -1;
DSM_SHARED static int ran_kid[KIDS];

static void sleep_ms(long ms)
{
  struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
  while (nanosleep(&ts, &ts) != 0) {}
}

static void slow(void *unused) { (void)unused; ran_slow = __ompdsm_thread_num(); sleep_ms(150); }
static void quick(void *unused) { (void)unused; sleep_ms(50); }

static void kid(void *p)
{
  int i = *(int *)p;
  ran_kid[i] = __ompdsm_thread_num();
  sleep_ms(2);
}

static void parent(void *unused)
{
  (void)unused;
  ran_parent = __ompdsm_thread_num();
  for (int i = 0; i < KIDS; i++)
    __ompdsm_task(kid, &i, sizeof i, 0, 0, NULL, 0);
  __ompdsm_taskwait();
}

static void region(void *unused)
{
  (void)unused;
  /* Everyone is in the region before the tasks exist. */
  __ompdsm_barrier();
  if (__ompdsm_thread_num() != 0)
    return;
  __ompdsm_task(slow, NULL, 0, 0, 0, NULL, 0);
  sleep_ms(50);              /* rank 1's STEAL arrives meanwhile */
  __ompdsm_task(quick, NULL, 0, 0, 0, NULL, 0);
  __ompdsm_taskwait();
  sleep_ms(100);             /* rank 1, idle since `slow`, asks meanwhile */
  __ompdsm_task(parent, NULL, 0, 0, 0, NULL, 0);
  sleep_ms(500);             /* rank 1 creates the kids meanwhile */
  __ompdsm_taskwait();
}

static int real_main(int argc, char **argv)
{
  (void)argc; (void)argv;
  if (dsm_threads() > 1) {
    /* A sibling thread would take `slow` before rank 1 could ask for it:
     * the hunger this test needs is between processes of one thread. */
    printf("skipped: the set-up needs one thread per process (%u here)\n", dsm_threads());
    return 77;
  }
  for (int i = 0; i < KIDS; i++)
    ran_kid[i] = -1;
  __ompdsm_parallel(region, NULL, 0, 0, 1);
  /* The set-up: without it the test would prove nothing. */
  CHECK_EQ(ran_slow, 1);
  CHECK_EQ(ran_parent, 1);
  for (int i = 0; i < KIDS; i++)
    CHECK_EQ(ran_kid[i], 1);
  CHECK(dsm_stat("steal_fed") >= 1);
  return 0;
}

int main(int argc, char **argv)
{
  __ompdsm_main(real_main, argc, argv);
  return 0;
}
