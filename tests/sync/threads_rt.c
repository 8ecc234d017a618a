/*
 * Several OpenMP threads in each process (issue 18), through the runtime's
 * entry points as ompdsmcc's code calls them. Run under dsmrun --threads T
 * (DSM_THREADS); every check holds for any number of processes and threads.
 *  - numbering: the team is every thread of the job, each number once;
 *  - writes made while a sibling releases: every thread writes its own
 *    elements of the same pages while the others take and leave a critical
 *    section, which lets the process's DSM lock go (a release) whenever no
 *    sibling waits for it. A write landing between a page's diff and its
 *    protection would be lost to the other processes (dsm/interval.c);
 *  - one fetch for two threads: the threads of a process read the same
 *    pages at once after rank 0 wrote them; each page is fetched once;
 *  - the barrier of a process's threads is one DSM barrier per process;
 *  - reductions in a barrier and in the join; a dynamic loop hands out every
 *    iteration exactly once; an OpenMP lock counts exactly; a semaphore ring
 *    passes a token through every thread in order, siblings included; a
 *    condition variable hands items from producers to consumers.
 */
#include <stdint.h>
#include <string.h>
#include "check.h"
#include "omp.h"
#include "ompdsm_rt.h"

#define PAGE 4096
#define ROUNDS 6
#define WPAGES 32                       /* pages written by everyone at once */
#define RPAGES 128                      /* pages the threads of a process read at once */
#define ITERS 997                       /* dynamic loop */
#define LOCKS 200                       /* lock increments per thread */
#define ITEMS 40                        /* condition variable: items per producer */

struct shared {
  long *w;                              /* WPAGES pages, element i owned by thread i % nth */
  long *r;                              /* RPAGES pages written by rank 0 */
  long *fence;                          /* the page after r, read by all first */
  long *seen;                           /* [thread]: how often it ran */
  long *hits;                           /* [iteration]: how often it ran */
  long critical_count;
  long lock_count;
  omp_lock_t lock;
  long ring;                            /* the semaphore ring's token */
  long ring_bad;
  long queue, produced, consumed;       /* condition variable */
  long fetch_bad, barrier_bad;
  double sum;                           /* reductions */
  long maxv;
};

static long wval(int round, long i) { return (long)round * 1000003L + i; }

static void region(void *p)
{
  struct shared *s = *(struct shared **)p;
  int me = omp_get_thread_num(), nth = omp_get_num_threads();
  s->seen[me]++;
  __ompdsm_barrier();

  /* Writes while siblings release. */
  long nw = WPAGES * PAGE / (long)sizeof(long);
  for (int round = 1; round <= ROUNDS; round++) {
    for (long i = me; i < nw; i += nth) {
      s->w[i] = wval(round, i);
      if ((i / nth) % 64 == 0) {
        __ompdsm_critical_start("count");
        s->critical_count++;
        __ompdsm_critical_end("count");
      }
    }
    __ompdsm_barrier();
    for (long i = 0; i < nw; i++)
      if (s->w[i] != wval(round, i)) {
        fprintf(stderr, "rank %u thread %d: round %d: w[%ld] = %ld, want %ld (written by "
                "thread %ld)\n", dsm_proc_id(), me, round, i, s->w[i], wval(round, i), i % nth);
        exit(1);
      }
    __ompdsm_barrier();
  }

  /* One fetch for the threads of a process: they read the same pages at
   * once (the barrier lets them go together). */
  /* The page after r is valid everywhere first, so that a prefetch run
   * that reaches r's end stops there instead of fetching the free heap
   * beyond it (63 pages once in CI), which would count as a second fetch. */
  volatile long fence = s->fence[0];
  (void)fence;
  __ompdsm_barrier();
  int64_t f0 = dsm_stat("pages_fetched"), b0 = dsm_stat("barriers");
  __ompdsm_barrier();
  long nr = RPAGES * PAGE / (long)sizeof(long), bad = 0;
  for (long i = 0; i < nr; i++)
    bad += s->r[i] != 3 * i + 1;
  __ompdsm_barrier();
  int64_t f1 = dsm_stat("pages_fetched"), b1 = dsm_stat("barriers");
  int procs = (nth + (int)dsm_threads() - 1) / (int)dsm_threads();
  if (bad || (dsm_proc_id() != 0 && f1 - f0 > RPAGES + RPAGES / 4) ||
      b1 - b0 != (procs > 1 ? 2 : 0)) {
    fprintf(stderr, "rank %u thread %d: %ld bad values, %lld pages fetched for %d, "
            "%lld DSM barriers for 2 (team of %d processes)\n", dsm_proc_id(), me, bad,
            (long long)(f1 - f0), RPAGES, (long long)(b1 - b0), procs);
    __ompdsm_critical_start("bad");
    s->fetch_bad++;
    __ompdsm_critical_end("bad");
  }
  __ompdsm_barrier();

  /* Reduction in a barrier. */
  double part = me + 1;
  __ompdsm_reduce(&s->sum, &part, 1, OMPDSM_T_DOUBLE, OMPDSM_RED_ADD);
  __ompdsm_barrier();

  /* A dynamic loop: every iteration once. */
  __ompdsm_loop_start(OMPDSM_SCHED_DYNAMIC, ITERS, 3);
  int64_t lo, hi;
  while (__ompdsm_loop_next(&lo, &hi))
    for (int64_t i = lo; i < hi; i++)
      s->hits[i]++;
  __ompdsm_loop_end(0);

  /* An OpenMP lock. */
  for (int k = 0; k < LOCKS; k++) {
    omp_set_lock(&s->lock);
    s->lock_count++;
    omp_unset_lock(&s->lock);
  }
  __ompdsm_barrier();

  /* A semaphore ring through every thread, twice round. */
  __ompdsm_sema_init("ring", me, 0);
  __ompdsm_barrier();
  for (int lap = 0; lap < 2; lap++) {
    if (me != 0 || lap > 0)
      __ompdsm_sema_wait("ring", me);
    if (s->ring != (long)lap * nth + me)
      s->ring_bad++;
    s->ring++;
    if (!(me == nth - 1 && lap == 1))
      __ompdsm_sema_signal("ring", (me + 1) % nth);
  }
  __ompdsm_barrier();

  /* Producers (even threads) and consumers (odd) on a condition. */
  int producers = (nth + 1) / 2, consumers = nth / 2;
  long total = (long)producers * ITEMS;
  if (consumers == 0) {
    s->produced = s->consumed = total;
  } else if (me % 2 == 0) {
    for (int k = 0; k < ITEMS; k++) {
      __ompdsm_critical_start("q");
      s->queue++;
      s->produced++;
      __ompdsm_cond_signal("nonempty", 0, "q");
      __ompdsm_critical_end("q");
    }
  } else {
    /* Consumer c takes its share: total split over the consumers. */
    int c = me / 2;
    long mine = total / consumers + (c < total % consumers);
    for (long k = 0; k < mine; k++) {
      __ompdsm_critical_start("q");
      while (s->queue == 0)
        __ompdsm_cond_wait("nonempty", 0, "q");
      s->queue--;
      s->consumed++;
      __ompdsm_critical_end("q");
    }
  }
  long mx = me;
  __ompdsm_reduce_join(&s->maxv, &mx, 1, OMPDSM_T_LONG, OMPDSM_RED_MAX);
}

static int real_main(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  int nth = omp_get_max_threads();
  CHECK_EQ(nth, (int)(dsm_nprocs() * dsm_threads()));
  struct shared *s = __ompdsm_calloc(1, sizeof *s);
  s->w = __ompdsm_calloc(WPAGES, PAGE);
  s->r = __ompdsm_malloc(RPAGES * PAGE);
  s->fence = __ompdsm_malloc(PAGE);
  s->seen = __ompdsm_calloc((size_t)nth, sizeof(long));
  s->hits = __ompdsm_calloc(ITERS, sizeof(long));
  long nr = RPAGES * PAGE / (long)sizeof(long);
  for (long i = 0; i < nr; i++)
    s->r[i] = 3 * i + 1;
  omp_init_lock(&s->lock);
  s->maxv = -1;
  __ompdsm_parallel(region, &s, sizeof s, 0, 1);

  for (int t = 0; t < nth; t++)
    CHECK_EQ(s->seen[t], 1);
  long nw = WPAGES * PAGE / (long)sizeof(long), crit = 0;
  for (int t = 0; t < nth; t++)
    crit += ((nw - t + nth - 1) / nth + 63) / 64;
  CHECK_EQ(s->critical_count, ROUNDS * crit);
  CHECK_EQ(s->fetch_bad, 0);
  CHECK(s->sum == (double)nth * (nth + 1) / 2);
  for (int i = 0; i < ITERS; i++)
    CHECK_EQ(s->hits[i], 1);
  CHECK_EQ(s->lock_count, (long)LOCKS * nth);
  CHECK_EQ(s->ring, 2L * nth);
  CHECK_EQ(s->ring_bad, 0);
  CHECK_EQ(s->produced, s->consumed);
  CHECK_EQ(s->queue, 0);
  CHECK_EQ(s->maxv, nth - 1);
  printf("threads_rt: %u processes x %u threads: ok\n", dsm_nprocs(), dsm_threads());
  return 0;
}

int main(int argc, char **argv)
{
  __ompdsm_main(real_main, argc, argv);
}
