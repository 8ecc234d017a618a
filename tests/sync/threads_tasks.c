/*
 * Tasks with several OpenMP threads per process (dsmrun --threads), through
 * the runtime's entry points as ompdsmcc's code calls them:
 *  - spread: thread 0 creates tasks that sleep and waits for them. Every
 *    task runs exactly once; with T > 1 threads a sibling of the creator
 *    runs some (it takes them from the process's deque, no message); with
 *    more than one process, another process runs some.
 *  - frames: rank 0's last thread creates tasks that write into its own
 *    frame (shared(x) on a worker's local) and checks them after taskwait.
 *    With more than one process some of them must run elsewhere: a worker's
 *    stack is shared memory in a program with tasks, or the writes would be
 *    lost.
 *  - a depend chain x = 3x + i (inout), with a reader (in) after each
 *    writer, created by rank 0's last thread: every reader sees its
 *    writer's value, whichever thread or process ran them.
 *  - a reduction right after tasks: its barrier completes them first.
 */
#include <time.h>
#include "check.h"
#include "ompdsm_rt.h"

static void used(void) __attribute__((constructor));
static void used(void) { __ompdsm_tasks_used(); }

static void nap(long ms)
{
  struct timespec ts = { 0, ms * 1000 * 1000 };
  nanosleep(&ts, NULL);
}

/* ---- spread ---- */
#define NSPREAD 64
DSM_SHARED static int ran_by[NSPREAD];     /* executor's thread number + 1 */
DSM_SHARED static int ran_times[NSPREAD];

static void spread_task(void *p)
{
  int i = *(int *)p;
  nap(4);
  ran_by[i] = __ompdsm_thread_num() + 1;
  ran_times[i]++;
}

static void spread_region(void *unused)
{
  (void)unused;
  if (__ompdsm_thread_num() != 0)
    return;                  /* to the region's closing barrier, for tasks */
  for (int i = 0; i < NSPREAD; i++)
    __ompdsm_task(spread_task, &i, sizeof i, 0, 0, NULL, 0);
  __ompdsm_taskwait();
  for (int i = 0; i < NSPREAD; i++)
    CHECK_EQ(ran_times[i], 1);
}

/* ---- a worker's frame ---- */
#define NFRAME 24
struct frame_arg { long *out; long v; int k; };
DSM_SHARED static int frame_where[NFRAME];   /* the process that ran each */
DSM_SHARED static int frame_checked;

static void frame_task(void *p)
{
  struct frame_arg *a = p;
  nap(3);
  *a->out = a->v * 7 + 1;
  frame_where[a->k] = (int)dsm_proc_id();
}

static void frame_region(void *unused)
{
  (void)unused;
  if (dsm_proc_id() != 0 || (unsigned)__ompdsm_thread_num() != dsm_threads() - 1)
    return;
  long local[NFRAME];        /* this thread's frame: a worker's when T > 1 */
  for (int k = 0; k < NFRAME; k++) {
    local[k] = -1;
    struct frame_arg a = { &local[k], 1000 + k, k };
    __ompdsm_task(frame_task, &a, sizeof a, 0, 0, NULL, 0);
  }
  __ompdsm_taskwait();
  for (int k = 0; k < NFRAME; k++)
    CHECK_EQ(local[k], (1000 + k) * 7 + 1);
  frame_checked = 1;
}

/* ---- depend chain ---- */
#define NCHAIN 24
DSM_SHARED static long chain_x;
DSM_SHARED static long seen[NCHAIN];

static void chain_write(void *p)
{
  int i = *(int *)p;
  if (i % 4 == 0)
    nap(2);                  /* time for a reader to run too early, if it could */
  chain_x = chain_x * 3 + i;
}

static void chain_read(void *p)
{
  int i = *(int *)p;
  seen[i] = chain_x;
}

static void chain_region(void *unused)
{
  (void)unused;
  if (dsm_proc_id() != 0 || (unsigned)__ompdsm_thread_num() != dsm_threads() - 1)
    return;
  chain_x = 1;
  ompdsm_dep_t w = { &chain_x, sizeof chain_x, OMPDSM_DEP_INOUT };
  ompdsm_dep_t r = { &chain_x, sizeof chain_x, OMPDSM_DEP_IN };
  for (int i = 0; i < NCHAIN; i++) {
    __ompdsm_task(chain_write, &i, sizeof i, 0, 1, &w, 0);
    __ompdsm_task(chain_read, &i, sizeof i, 0, 1, &r, 0);
  }
  __ompdsm_taskwait();
}

/* ---- a reduction after tasks ---- */
DSM_SHARED static long red_done[256];
DSM_SHARED static long red_sum;

static void red_task(void *p)
{
  int i = *(int *)p;
  nap(1);
  red_done[i] = 1;
}

static void red_region(void *unused)
{
  (void)unused;
  int me = __ompdsm_thread_num();
  for (int k = 0; k < 4; k++) {
    int i = me * 4 + k;
    __ompdsm_task(red_task, &i, sizeof i, 0, 0, NULL, 0);
  }
  long mine = 1;
  __ompdsm_reduce(&red_sum, &mine, 1, OMPDSM_T_LONG, OMPDSM_RED_ADD);
  /* the reduction's barrier completed every task of the team */
  for (int i = 0; i < 4 * __ompdsm_num_threads(); i++)
    CHECK_EQ(red_done[i], 1);
}

static int real_main(int argc, char **argv)
{
  (void)argc; (void)argv;
  __ompdsm_parallel(spread_region, NULL, 0, 0, 1);
  unsigned P = dsm_nprocs(), T = dsm_threads();
  int sibling = 0, remote = 0;
  for (int i = 0; i < NSPREAD; i++) {
    CHECK(ran_by[i] >= 1);
    unsigned t = (unsigned)ran_by[i] - 1;
    sibling += t > 0 && t < T;
    remote += t >= T;
  }
  if (T > 1)
    CHECK(sibling > 0);
  if (P > 1)
    CHECK(remote > 0);

  __ompdsm_parallel(frame_region, NULL, 0, 0, 1);
  CHECK_EQ(frame_checked, 1);
  int moved = 0;
  for (int k = 0; k < NFRAME; k++)
    moved += frame_where[k] != 0;
  if (P > 1)
    CHECK(moved > 0);

  __ompdsm_parallel(chain_region, NULL, 0, 0, 1);
  long x = 1;
  for (int i = 0; i < NCHAIN; i++) {
    x = x * 3 + i;
    CHECK_EQ(seen[i], x);
  }
  CHECK_EQ(chain_x, x);

  __ompdsm_parallel(red_region, NULL, 0, 0, 1);
  CHECK_EQ(red_sum, (long)(P * T));
  printf("threads_tasks: %u processes x %u threads: spread (%d on a sibling, %d elsewhere), "
         "a worker's frame (%d written elsewhere), depend chain, reduction: OK\n",
         P, T, sibling, remote, moved);
  return 0;
}

int main(int argc, char **argv)
{
  __ompdsm_main(real_main, argc, argv);
}
