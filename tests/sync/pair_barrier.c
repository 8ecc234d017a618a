/*
 * Barriers of two processes have no fixed manager (sync/barrier.c): the one
 * that arrives last holds both arrivals, manages the barrier and sends the
 * other its departure; when both arrive before either hears of the other,
 * each departs by itself from the two arrivals.
 *
 * Three phases of EPOCHS barriers: rank 0 late (it sleeps before each
 * barrier, so it arrives last and manages), rank 1 late, and neither. In
 * every epoch each rank
 *   - writes its own word of a page both write (multiple writers: diffs),
 *   - rewrites a block of its own (its home moves to it at the first
 *     barrier; the other reads it, so it is pushed, riding in whichever
 *     barrier message the writer sends),
 *   - contributes to a reduction that rides on the barrier,
 * and after the barrier checks the other's words, the other's block and
 * the reduction's result.
 *
 * Stats: with two processes, rank 0 managed most barriers of the first
 * phase and rank 1 most of the second; with DSM_TEST_PAIR_TIE=1 (the meson
 * entry) every barrier is a tie and nobody manages; with three processes,
 * or DSM_PAIR_BARRIER=0, no pair barrier happens at all. With
 * DSM_TEST_LAG=r:ms rank r takes ms before it applies each departure, so
 * the other leaves every barrier first and its next arrival comes while r
 * is still in the one before (kept for the next barrier): r arrives last
 * and manages nearly every barrier of the third phase.
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

static void epoch(struct shared *s, unsigned me, unsigned np, long e)
{
  s->both[me * 64] = e * 10 + me;
  for (long i = 0; i < BLOCK; i++)
    s->own[me][i] = e * 1000000 + me * 100000 + i;
  long in[2] = { e * 7 + me, 1L << me }, out[2] = { 0, 0 };
  dsm__red_t red = { OMPDSM_T_LONG, OMPDSM_RED_ADD, 2, in, out };
  dsm__barrier_red(1, &red);
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
  const char *tie_env = getenv("DSM_TEST_PAIR_TIE"), *off_env = getenv("DSM_PAIR_BARRIER");
  const char *lag_env = getenv("DSM_TEST_LAG");
  int tie = tie_env && !strcmp(tie_env, "1"), off = off_env && !strcmp(off_env, "0");
  int lagger = lag_env && *lag_env ? atoi(lag_env) : -1;
  long e = 0;
  long managed[3], ties[3];
  for (int phase = 0; phase < 3; phase++) {
    long m0 = dsm_stat("pair_managed"), t0 = dsm_stat("pair_ties");
    for (long k = 0; k < EPOCHS; k++) {
      if ((phase == 0 && me == 0) || (phase == 1 && me == 1))
        usleep(5000);
      epoch(s, me, np, ++e);
    }
    managed[phase] = dsm_stat("pair_managed") - m0;
    ties[phase] = dsm_stat("pair_ties") - t0;
    printf("pair_barrier: rank %u phase %d: managed %ld, ties %ld of %d\n", me, phase,
           managed[phase], ties[phase], 2 * EPOCHS);
  }
  if (np != 2 || off) {
    for (int phase = 0; phase < 3; phase++)
      CHECK(managed[phase] == 0 && ties[phase] == 0);
  } else if (tie) {
    for (int phase = 0; phase < 3; phase++)
      CHECK(managed[phase] == 0 && ties[phase] == 2 * EPOCHS);
  } else {
    /* The late one manages the barrier before which it slept (one of the
     * two of each epoch), unless it was so slow that the other's arrival
     * had not even come in during its 5 ms: allow half. */
    CHECK((me == 0 ? managed[0] : managed[1]) >= EPOCHS / 2);
    if (lagger == (int)me)
      CHECK(managed[2] >= 2 * EPOCHS - EPOCHS / 4);
  }
  dsm_barrier(3);
  if (me == 0)
    printf("pair_barrier: %u processes%s: OK\n", np, tie ? ", every barrier a tie" : "");
  dsm_exit(0);
}
