/*
 * The master holds the answers to the slaves' JOINs and sends each with
 * the next FORK appended (sync/forkjoin.c), unless it must wait for a peer
 * first, when it answers them with the departure alone. Every path between
 * two regions, in turn:
 *   - sequential code that touches nothing shared: the FORK rides in the
 *     answer;
 *   - the master reads what the slaves wrote (faults on their pages, whose
 *     homes moved to them at the join): answered early, before the fetch;
 *   - the master takes a lock and writes a value the next region checks;
 *   - a region of a smaller team, whose outsiders must get their answers
 *     although no FORK comes for them, then a full region again;
 *   - the master exits right after a region (the exit notice rides).
 * Each region checks what the sequential code wrote before it; the master
 * checks what the region wrote after it. At the end rank 0 must have sent
 * FORKs in answers and answered early, or the test did not test them.
 * Run also with a lagging slave (DSM_TEST_LAG) and under loss.
 */
#include "check.h"
#include "sync.h"

#define ROUNDS 36
#define SLOT 1024                 /* longs: two pages per process */

struct arg { long *data; long *seq; long round; int check_seq; };

static void body(void *p)
{
  struct arg *a = p;
  unsigned me = dsm_proc_id();
  /* What the master wrote in the sequential code before this region. */
  if (a->check_seq)
    CHECK_EQ(a->seq[0], a->round);
  for (long i = 0; i < SLOT; i++)
    a->data[me * SLOT + i] = a->round * 1000 + me;
}

static int real_main(int argc, char **argv)
{
  unsigned n = dsm_nprocs();
  long *data = dsm_malloc(n * SLOT * sizeof(long));
  long *seq = dsm_malloc(4096);
  long expect_round[64] = { 0 };   /* per rank: the last round it wrote */
  CHECK(n <= 64);
  seq[0] = 0;
  for (long round = 1; round <= ROUNDS; round++) {
    int kind = (int)(round % 4);
    unsigned team = n;
    if (kind == 3 && n > 2)
      team = n - 1;               /* rank n-1 sits this one out */
    if (kind == 2) {
      dsm_lock_acquire(7);
      seq[0] = round;
      dsm_lock_release(7);
    }
    struct arg a = { data, seq, round, kind == 2 };
    dsm__fork_team(body, &a, sizeof a, team);
    dsm_join();
    for (unsigned r = 0; r < team; r++)
      expect_round[r] = round;
    if (kind == 1 || round == ROUNDS) {
      /* Read every slot: faults on the slaves' pages. */
      for (unsigned r = 0; r < n; r++)
        for (long i = 0; i < SLOT; i += 97)
          CHECK_EQ(data[r * SLOT + i], expect_round[r] * 1000 + r);
    }
  }
  if (n > 1) {
    long rode = dsm_stat("forks_in_answers"), early = dsm_stat("join_answers_early");
    printf("join_hold: %u processes, %d regions: %ld FORKs in JOIN answers, "
           "%ld answers sent early\n", n, ROUNDS, rode, early);
    CHECK(rode > 0);
    CHECK(early > 0);
  }
  printf("join_hold: OK\n");
  return 0;
}

int main(int argc, char **argv)
{
  dsm_main(real_main, argc, argv);
}
