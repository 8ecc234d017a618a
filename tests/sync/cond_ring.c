/*
 * Condition variables under load, two patterns on one lock:
 *   ring     processes take turns in rank order: each waits (cond_wait in a
 *            loop) until turn == its rank, appends to a log, passes the turn
 *            and broadcasts. Every wake-up must see the latest turn and log,
 *            which only the lock's chain of grants carries.
 *   buffer   a bounded buffer of B slots with two conditions: rank 0
 *            produces P items per consumer, the others consume; producers
 *            and consumers wake each other with cond_signal only. Every item
 *            must be consumed exactly once and in FIFO order per slot.
 * Signals and broadcasts with nobody waiting must do nothing.
 */
#include "check.h"

#define ROUNDS 40
#define MAXP 64
#define B 4
#define P 60
#define L 21
#define C_TURN 1
#define C_NOTFULL 2
#define C_NOTEMPTY 3

struct shared {
  int turn;
  int log[ROUNDS * MAXP];
  int nlog;
  int buf[B];
  int head, tail, count, produced, consumed;
  long sum;
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

  /* Nobody waits yet: these must be no-ops. */
  dsm_lock_acquire(L);
  dsm_cond_signal(C_TURN, L);
  dsm_cond_broadcast(C_NOTEMPTY, L);
  dsm_lock_release(L);
  dsm_barrier(1);

  for (int r = 0; r < ROUNDS; r++) {
    dsm_lock_acquire(L);
    while (s->turn != (int)me)
      dsm_cond_wait(C_TURN, L);
    CHECK_EQ(s->nlog, r * (int)n + (int)me);
    if (s->nlog > 0)
      CHECK_EQ(s->log[s->nlog - 1], (int)((me + n - 1) % n));
    s->log[s->nlog++] = (int)me;
    s->turn = (int)((me + 1) % n);
    dsm_cond_broadcast(C_TURN, L);
    dsm_lock_release(L);
  }
  dsm_barrier(2);
  CHECK_EQ(s->nlog, ROUNDS * (int)n);
  for (int i = 0; i < s->nlog; i++)
    CHECK_EQ(s->log[i], i % (int)n);
  dsm_barrier(3);

  if (n > 1) {
    int total = P * (int)(n - 1);
    if (me == 0) {
      for (int i = 1; i <= total; i++) {
        dsm_lock_acquire(L);
        while (s->count == B)
          dsm_cond_wait(C_NOTFULL, L);
        s->buf[s->tail] = i;
        s->tail = (s->tail + 1) % B;
        s->count++;
        s->produced++;
        dsm_cond_signal(C_NOTEMPTY, L);
        dsm_lock_release(L);
      }
    } else {
      int last = 0;
      for (int k = 0; k < P; k++) {
        dsm_lock_acquire(L);
        while (s->count == 0)
          dsm_cond_wait(C_NOTEMPTY, L);
        int v = s->buf[s->head];
        s->head = (s->head + 1) % B;
        s->count--;
        s->consumed++;
        s->sum += v;
        CHECK(v > last);         /* one producer, FIFO buffer: increasing */
        last = v;
        dsm_cond_signal(C_NOTFULL, L);
        dsm_lock_release(L);
      }
    }
    dsm_barrier(4);
    CHECK_EQ(s->produced, total);
    CHECK_EQ(s->consumed, total);
    CHECK_EQ(s->count, 0);
    CHECK_EQ(s->sum, (long)total * (total + 1) / 2);
  }
  dsm_barrier(5);
  if (me == 0)
    printf("cond_ring: %u processes, %d ring rounds, %d buffered items: OK (%lld cond waits on rank 0)\n",
           n, ROUNDS, P * (int)(n - 1), (long long)dsm_stat("cond_waits"));
  dsm_exit(0);
}
