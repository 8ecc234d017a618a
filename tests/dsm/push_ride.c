/*
 * Pushes that ride in a collective's own messages (dsm/home.c): a member's
 * pushes to the manager (rank 0) go in its barrier arrival or its JOIN, the
 * manager's pushes to each member in that member's departure; pushes
 * between two other members go alone, as before.
 *
 * Part 1, barriers inside one region: rank 0 rewrites block A (homed at
 * rank 0) every epoch and the last rank L rewrites block B (which moves to
 * L in the first epoch); every other rank reads both. After the first two
 * epochs nobody fetches a page: each pushed copy is there before the
 * acquire, whether it rode or went alone. Rank 0's pushes rode (one per
 * reader per epoch) and so did L's to rank 0.
 *
 * Part 2, fork/join: in each region every slave rewrites a block of its
 * own, which moves to it at the first join; the master reads all of them
 * after each join. From the third region on the master fetches nothing:
 * each slave's pushes to it rode in the JOIN.
 *
 * The meson entry adds loss: a lost arrival or departure is retransmitted
 * with the pushes inside it.
 */
#include "check.h"

#define PAGES 3
#define EPOCHS 60
#define ROUNDS 12
#define WORDS (PAGES * 512)

struct arg { long *a, *b, *own, *stats; long round; };

static long fetched_at_3;   /* part 1, each process's own */

static void spmd(struct arg *x)
{
  unsigned me = dsm_proc_id(), np = dsm_nprocs(), last = np - 1;
  for (long e = 1; e <= EPOCHS; e++) {
    if (e == 3)
      fetched_at_3 = dsm_stat("pages_fetched");
    if (me == 0)
      for (long i = 0; i < WORDS; i++)
        x->a[i] = e * 100000 + i;
    if (me == last)
      for (long i = 0; i < WORDS; i++)
        x->b[i] = e * 100000 + 7 * i;
    dsm_barrier(1);
    for (long i = 0; i < WORDS; i += 37) {
      CHECK_EQ(x->a[i], e * 100000 + i);
      CHECK_EQ(x->b[i], e * 100000 + 7 * i);
    }
    dsm_barrier(2);
  }
  CHECK_EQ(dsm_stat("pages_fetched"), fetched_at_3);
  x->stats[me * 512] = dsm_stat("push_rides");
}

static void body(void *p)
{
  struct arg *x = p;
  if (x->round == 0) {
    spmd(x);
    return;
  }
  unsigned me = dsm_proc_id();
  if (me == 0)
    return;
  long *mine = x->own + (long)me * WORDS;
  for (long i = 0; i < WORDS; i++)
    mine[i] = x->round * 1000000 + me * 1000 + i;
  x->stats[me * 512 + 1] = dsm_stat("push_rides");   /* as of this region's start */
}

static int real_main(int argc, char **argv)
{
  unsigned np = dsm_nprocs();
  CHECK(np >= 2);
  long *a = dsm_malloc(WORDS * sizeof *a), *b = dsm_malloc(WORDS * sizeof *b);
  long *own = dsm_malloc(np * WORDS * sizeof *own), *stats = dsm_malloc(np * 4096);
  struct arg x = { a, b, own, stats, 0 };
  dsm_fork(body, &x, sizeof x);
  dsm_join();
  /* Rank 0 pushed A to every reader at each of the last epochs, L pushed B
   * to rank 0: all of it rode. */
  printf("push_ride: barriers: rank 0 %ld rides, rank %u %ld rides\n", stats[0], np - 1,
         stats[(np - 1) * 512]);
  CHECK(stats[0] >= (EPOCHS - 2) * (long)(np - 1));
  CHECK(stats[(np - 1) * 512] >= EPOCHS - 2);

  long fetched = 0;
  for (long round = 1; round <= ROUNDS; round++) {
    x.round = round;
    if (round == 3)
      fetched = dsm_stat("pages_fetched");
    dsm_fork(body, &x, sizeof x);
    dsm_join();
    for (unsigned s = 1; s < np; s++)
      for (long i = 0; i < WORDS; i += 29)
        CHECK_EQ(own[s * WORDS + i], round * 1000000 + s * 1000 + i);
  }
  printf("push_ride: fork/join: master fetched %lld pages after region 2\n",
         (long long)dsm_stat("pages_fetched") - fetched);
  CHECK_EQ(dsm_stat("pages_fetched"), fetched);
  /* stats[s*512+1] is each slave's count at the start of the last region:
   * it had pushed to the master in the JOINs of regions 2..ROUNDS-1. */
  for (unsigned s = 1; s < np; s++)
    CHECK(stats[s * 512 + 1] - stats[s * 512] >= ROUNDS - 2);
  printf("push_ride: pushes rode in arrivals, departures and joins: OK\n");
  return 0;
}

int main(int argc, char **argv)
{
  dsm_main(real_main, argc, argv);
}
