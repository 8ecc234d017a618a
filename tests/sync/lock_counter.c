/*
 * A counter under a lock: every process adds 1, K times, to a counter in
 * dsm_malloc'ed memory and appends its rank to a log under the same lock, so
 * the counter's page and the log's pages migrate from holder to holder with
 * the lock grants. Every few rounds a process also takes a second lock while
 * holding the first (a process may hold several locks) and re-acquires the
 * first one at once (the re-acquire of a lock nobody asked for costs no
 * message). At the end the counter must be n*K, the log must hold exactly
 * K entries of every rank, and the second counter must match its own count.
 */
#include <string.h>
#include "check.h"

#define K 200
#define MAXP 64

struct shared {
  long counter, counter2;
  long by_rank2[MAXP];
  int log[MAXP * K];
};

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  CHECK(n <= MAXP);
  static struct shared *s;
  if (me == 0) {
    s = dsm_calloc(1, sizeof *s);
    dsm_distribute(&s, sizeof s);
  }
  dsm_barrier(0);
  long mine2 = 0;
  for (int k = 0; k < K; k++) {
    dsm_lock_acquire(1);
    long c = s->counter;
    CHECK(c >= 0 && c < (long)n * K);
    s->log[c] = (int)me + 1;
    s->counter = c + 1;
    if (k % 5 == 0) {
      dsm_lock_acquire(2);
      s->counter2++;
      s->by_rank2[me]++;
      mine2++;
      dsm_lock_release(2);
    }
    dsm_lock_release(1);
    if (k % 7 == 0) {            /* a quick second visit */
      dsm_lock_acquire(1);
      CHECK(s->counter >= 1);
      dsm_lock_release(1);
    }
  }
  dsm_barrier(1);
  CHECK_EQ(s->counter, (long)n * K);
  long per[MAXP] = { 0 }, sum2 = 0;
  for (long i = 0; i < (long)n * K; i++) {
    CHECK(s->log[i] >= 1 && s->log[i] <= (int)n);
    per[s->log[i] - 1]++;
  }
  for (unsigned r = 0; r < n; r++) {
    CHECK_EQ(per[r], K);
    sum2 += s->by_rank2[r];
  }
  CHECK_EQ(s->by_rank2[me], mine2);
  CHECK_EQ(s->counter2, sum2);
  dsm_barrier(2);
  if (me == 0)
    printf("lock_counter: %u processes x %d increments = %ld: OK (%lld acquires, %lld remote on rank 0)\n",
           n, K, s->counter, (long long)dsm_stat("lock_acquires"), (long long)dsm_stat("lock_remote"));
  dsm_exit(0);
}
