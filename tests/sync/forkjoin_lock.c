/*
 * Locks, a semaphore and an OpenMP lock in the fork/join model (what
 * ompdsmcc generates): the master runs under dsm_main with its stack in
 * shared memory, so its calls into the lock code must move to the private
 * stack (a write-protected stack page under dsm__mu would deadlock). The
 * counters are locals of the master's main, handed to the forked function
 * by address. Several regions in a row; totals are checked after each join.
 */
#include "check.h"
#include "omp.h"

#define K 100
#define REGIONS 3

struct args { long *counter; long *omp_counter; omp_lock_t *ol; };

static void body(void *p)
{
  struct args *a = p;
  for (int k = 0; k < K; k++) {
    dsm_lock_acquire(3);
    (*a->counter)++;
    dsm_lock_release(3);
    omp_set_lock(a->ol);
    (*a->omp_counter)++;
    omp_unset_lock(a->ol);
  }
  /* Every process signals once; the master waits for all of them. */
  dsm_sema_signal(40);
  if (dsm_proc_id() == 0)
    for (unsigned r = 0; r < dsm_nprocs(); r++)
      dsm_sema_wait(40);
}

static int main_fn(int argc, char **argv)
{
  long counter = 0, omp_counter = 0;
  omp_lock_t ol;
  omp_init_lock(&ol);
  dsm_sema_init(40, 0);
  struct args a = { &counter, &omp_counter, &ol };
  for (int r = 1; r <= REGIONS; r++) {
    dsm_fork(body, &a, sizeof a);
    dsm_join();
    CHECK_EQ(counter, (long)r * K * dsm_nprocs());
    CHECK_EQ(omp_counter, (long)r * K * dsm_nprocs());
  }
  omp_destroy_lock(&ol);
  printf("forkjoin_lock: %u processes, %d regions: OK\n", dsm_nprocs(), REGIONS);
  return 0;
}

int main(int argc, char **argv)
{
  dsm_main(main_fn, argc, argv);
}
