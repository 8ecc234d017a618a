/*
 * No starvation under contention: every process hammers one lock (with a
 * little work inside and none outside) until the job has made TOTAL
 * acquires. Requests queue at the last requester in the order the manager
 * saw them, so every process must get the lock a fair share of the times:
 * at least a quarter of TOTAL / n. (Runs by one holder do happen: a
 * process that releases and re-acquires before another's request reached it
 * keeps the lock without a message, as in TreadMarks; the number of holder
 * changes is printed, and the lock must have changed hands at least once
 * per process.)
 *
 * The race starts when every process is at the lock, not at a barrier's
 * departure: on a loaded machine (CI runs two jobs on two CPUs) one rank
 * could leave the barrier a scheduling quantum after the others, and 2,000
 * acquires take ~0.1 s, so that rank lost a quarter of the race before it
 * asked once (fewest 119 of 125 needed, in a CI run). Each process checks
 * in under the lock and waits on a condition until the last one arrives.
 */
#include "check.h"

#define TOTAL 2000
#define MAXP 64
#define LK 5
#define CV 6

struct shared {
  long total, changes, arrived;
  int last;
  long count[MAXP];
};

static volatile unsigned sink;

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  CHECK(n <= MAXP);
  static struct shared *s;
  if (me == 0) {
    s = dsm_calloc(1, sizeof *s);
    s->last = -1;
    dsm_distribute(&s, sizeof s);
  }
  dsm_barrier(0);
  dsm_lock_acquire(LK);
  if (++s->arrived == (long)n)
    dsm_cond_broadcast(CV, LK);
  while (s->arrived < (long)n)
    dsm_cond_wait(CV, LK);
  dsm_lock_release(LK);
  long mine = 0;
  for (;;) {
    dsm_lock_acquire(LK);
    if (s->total >= TOTAL) {
      dsm_lock_release(LK);
      break;
    }
    s->total++;
    s->count[me]++;
    if (s->last != (int)me) s->changes++;
    s->last = (int)me;
    mine++;
    for (unsigned k = 0; k < 2000; k++)
      sink += k;
    dsm_lock_release(LK);
  }
  dsm_barrier(1);
  CHECK_EQ(s->total, TOTAL);
  long sum = 0, min = TOTAL;
  for (unsigned r = 0; r < n; r++) {
    sum += s->count[r];
    if (s->count[r] < min) min = s->count[r];
  }
  CHECK_EQ(sum, TOTAL);
  CHECK_EQ(s->count[me], mine);
  if (me == 0)
    printf("fairness: %u processes, %d acquires, fewest by one process %ld, holder changes %ld\n",
           n, TOTAL, min, s->changes);
  CHECK(min >= TOTAL / (4 * (long)n));
  CHECK(s->changes >= (long)n);
  dsm_barrier(2);
  dsm_exit(0);
}
