/*
 * The seed's task queue (Figure 4): tasks are enqueued and dequeued under one
 * lock; a process that finds the queue empty waits on a condition variable;
 * enqueue signals it; when every process waits, the last one to arrive
 * broadcasts that the work is over. Tasks form a binary tree (task t spawns
 * 2t and 2t+1 below NT), so the queue fills and drains many times and
 * processes really sleep. Each process marks the tasks it ran in its own
 * row; at the end every task must have been run exactly once, and the
 * queue's own counters (kept under the lock) must agree.
 */
#include <string.h>
#include "check.h"

#define NT 1024                  /* tasks 1..NT-1 */
#define MAXP 64
#define L 7
#define C 3

struct queue {
  int head, tail, nwait, done;
  long enq, deq;
  int items[NT];
};

static struct queue *q;
static unsigned char *ran;       /* ran[rank * NT + task] */

static void enqueue(int t)
{
  dsm_lock_acquire(L);
  CHECK(q->tail < NT);
  q->items[q->tail++] = t;
  q->enq++;
  dsm_cond_signal(C, L);
  dsm_lock_release(L);
}

static int dequeue(unsigned n)
{
  dsm_lock_acquire(L);
  while (q->head == q->tail) {
    if (q->done) {
      dsm_lock_release(L);
      return -1;
    }
    q->nwait++;
    if (q->nwait == (int)n) {
      q->done = 1;
      dsm_cond_broadcast(C, L);
      dsm_lock_release(L);
      return -1;
    }
    dsm_cond_wait(C, L);
    if (q->done) {               /* woken by the broadcast: stay counted */
      dsm_lock_release(L);
      return -1;
    }
    q->nwait--;
  }
  int t = q->items[q->head++];
  q->deq++;
  dsm_lock_release(L);
  return t;
}

static volatile unsigned sink;

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  CHECK(n <= MAXP);
  if (me == 0) {
    q = dsm_calloc(1, sizeof *q);
    ran = dsm_calloc((size_t)n * NT, 1);
    dsm_distribute(&q, sizeof q);
    dsm_distribute(&ran, sizeof ran);
  }
  dsm_barrier(0);
  if (me == 0)
    enqueue(1);
  long mine = 0;
  for (;;) {
    int t = dequeue(n);
    if (t < 0)
      break;
    CHECK(t >= 1 && t < NT);
    ran[(size_t)me * NT + t] = 1;
    mine++;
    for (unsigned k = 0; k < 20000; k++)       /* some work */
      sink += k ^ (unsigned)t;
    if (2 * t < NT) enqueue(2 * t);
    if (2 * t + 1 < NT) enqueue(2 * t + 1);
  }
  dsm_barrier(1);
  for (int t = 1; t < NT; t++) {
    int times = 0;
    for (unsigned r = 0; r < n; r++)
      times += ran[(size_t)r * NT + t];
    if (times != 1)
      fprintf(stderr, "task %d ran %d times\n", t, times);
    CHECK_EQ(times, 1);
  }
  CHECK_EQ(q->enq, NT - 1);
  CHECK_EQ(q->deq, NT - 1);
  CHECK_EQ(q->head, NT - 1);
  CHECK_EQ(q->nwait, (int)n);
  CHECK(q->done);
  dsm_barrier(2);
  printf("taskqueue: rank %u ran %ld tasks (%lld cond waits)\n", me, mine,
         (long long)dsm_stat("cond_waits"));
  dsm_barrier(3);
  if (me == 0)
    printf("taskqueue: %u processes, %d tasks, each run exactly once: OK\n", n, NT - 1);
  dsm_exit(0);
}
