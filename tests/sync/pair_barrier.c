/*
 * Barriers of two processes have no manager (sync/barrier.c): each sends
 * the other its arrival, lazily (taken in when the other comes to the
 * barrier), and departs by itself from the two.
 *
 * Three phases of EPOCHS epochs: rank 0 late (it sleeps 5 ms before the
 * first barrier of each), rank 1 late, and neither. In every epoch each
 * rank
 *   - writes its own word of a page both write (multiple writers: diffs),
 *   - rewrites a block of its own (its home moves to it at the first
 *     barrier; the other reads it, so it is pushed, riding in the writer's
 *     arrival),
 *   - contributes to a reduction that rides on the barrier,
 * and after the barrier checks the other's words, the other's block and
 * the reduction's result.
 *
 * Stats: with two processes every barrier is a pair barrier, and every
 * arrival went lazily (lazy_sent; tests/transport's `tp lazy` checks that
 * a lazy one-way wakes no thread of its receiver's). With DSM_LAZY=0 none
 * did, and the late one's service thread took the other's arrival in while
 * it slept: the late one found it there (pair_found) in most of the
 * barriers it slept before (barrier 1 of an epoch; at least EPOCHS/2).
 * With DSM_TEST_LAG=r:ms rank r takes ms before it applies each departure,
 * so the other leaves every barrier first and its next arrival comes while
 * r is still in the one before: with DSM_LAZY=0 it is kept for the next
 * barrier, and r finds it there in nearly every barrier of the third
 * phase. With three processes, or DSM_PAIR_BARRIER=0, no pair barrier
 * happens at all.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "ompdsm_rt.h"
#include "sync.h"

#define EPOCHS 40
#define BLOCK 1024     /* longs: two pages */

struct shared {
  long both[512];             /* one page: word 0 rank 0's, word 256 rank 1's, ... */
  long own[8][BLOCK];         /* [rank] */
};

/* Barriers 1 (the one a late rank sleeps before) that found the other's
 * arrival already taken in. */
static long found1;

static void epoch(struct shared *s, unsigned me, unsigned np, long e, int late)
{
  s->both[me * 64] = e * 10 + me;
  for (long i = 0; i < BLOCK; i++)
    s->own[me][i] = e * 1000000 + me * 100000 + i;
  long in[2] = { e * 7 + me, 1L << me }, out[2] = { 0, 0 };
  dsm__red_t red = { OMPDSM_T_LONG, OMPDSM_RED_ADD, 2, in, out };
  /* Late: between the writes and the barrier, so that nothing of this
   * process's reads the network between the sleep and the arrival. */
  if (late)
    usleep(5000);
  long f0 = dsm_stat("pair_found");
  dsm__barrier_red(1, &red);
  found1 += dsm_stat("pair_found") - f0;
  long sum = 0, bits = 0;
  for (unsigned r = 0; r < np; r++) {
    CHECK_EQ(s->both[r * 64], e * 10 + r);
    for (long i = 0; i < BLOCK; i += 61)
      CHECK_EQ(s->own[r][i], e * 1000000 + r * 100000 + i);
    sum += e * 7 + r;
    bits |= 1L << r;
  }
  CHECK_EQ(out[0], sum);
  CHECK_EQ(out[1], bits);
  /* Nobody writes again before everyone has read. */
  dsm_barrier(2);
}

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), np = dsm_nprocs();
  CHECK(np <= 8);
  static struct shared *s;
  if (me == 0) {
    s = dsm_calloc(1, sizeof *s);
    dsm_distribute(&s, sizeof s);
  }
  dsm_barrier(0);
  const char *off_env = getenv("DSM_PAIR_BARRIER"), *lazy_env = getenv("DSM_LAZY");
  const char *lag_env = getenv("DSM_TEST_LAG"), *loss_env = getenv("DSM_LOSS");
  int off = off_env && !strcmp(off_env, "0"), lazy = !(lazy_env && !strcmp(lazy_env, "0"));
  int lossy = loss_env && atof(loss_env) > 0;
  int lagger = lag_env && *lag_env ? atoi(lag_env) : -1;
  long e = 0;
  long pairs[3], found[3], slept[3], lazies[3];
  for (int phase = 0; phase < 3; phase++) {
    long p0 = dsm_stat("pair_barriers"), f0 = dsm_stat("pair_found"), s0 = found1;
    long l0 = dsm_stat("lazy_sent");
    for (long k = 0; k < EPOCHS; k++) {
      epoch(s, me, np, ++e, (phase == 0 && me == 0) || (phase == 1 && me == 1));
    }
    pairs[phase] = dsm_stat("pair_barriers") - p0;
    found[phase] = dsm_stat("pair_found") - f0;
    slept[phase] = found1 - s0;
    lazies[phase] = dsm_stat("lazy_sent") - l0;
    printf("pair_barrier: rank %u phase %d: %ld pair barriers of %d, the other's arrival found "
           "in %ld (%ld of the %d barriers 1), %ld sent lazily\n", me, phase, pairs[phase],
           2 * EPOCHS, found[phase], slept[phase], EPOCHS, lazies[phase]);
  }
  /* The phase in which this rank comes late to every (other) barrier. */
  int late = me == 0 ? 0 : me == 1 ? 1 : -1;
  if (lagger == (int)me)
    late = 2;
  if (np != 2 || off) {
    for (int phase = 0; phase < 3; phase++)
      CHECK(pairs[phase] == 0 && found[phase] == 0);
  } else {
    for (int phase = 0; phase < 3; phase++)
      CHECK(pairs[phase] == 2 * EPOCHS && lazies[phase] == (lazy ? 2 * EPOCHS : 0));
    if (!lazy && !lossy) {
      /* The late one's service thread took the other's arrival in while it
       * slept, unless it was so slow that it had not even come in during
       * its 5 ms: allow half. */
      if (late < 2)
        CHECK(slept[late] >= EPOCHS / 2);
      else
        CHECK(found[2] >= 2 * EPOCHS - EPOCHS / 4);
    }
  }
  dsm_barrier(3);
  if (me == 0)
    printf("pair_barrier: %u processes: OK\n", np);
  dsm_exit(0);
}
