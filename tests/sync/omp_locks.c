/*
 * OpenMP locks on DSM locks: a simple lock and a nestable lock kept in shared
 * memory, initialized by rank 0. Every process adds to a counter under the
 * simple lock, taking it with omp_test_lock when that succeeds and with
 * omp_set_lock when it does not (a failed try must leave the lock usable:
 * it keeps its place in the lock's queue and passes the lock on). The
 * nestable lock is taken three deep. Totals must be exact, omp_test_lock on
 * a lock this process holds must fail, and the ids must lie in the range
 * reserved for OpenMP locks.
 */
#include "check.h"
#include "omp.h"

#define K 150

struct shared {
  omp_lock_t lk;
  omp_nest_lock_t nl;
  long counter, nested, tries_ok, tries_failed;
};

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  static struct shared *s;
  if (me == 0) {
    s = dsm_calloc(1, sizeof *s);
    omp_init_lock(&s->lk);
    omp_init_nest_lock(&s->nl);
    CHECK(s->lk.id >= 0x40000000u && s->nl.id >= 0x40000000u && s->lk.id != s->nl.id);
    dsm_distribute(&s, sizeof s);
  }
  dsm_barrier(0);
  long ok = 0, failed = 0;
  for (int k = 0; k < K; k++) {
    if (omp_test_lock(&s->lk)) {
      ok++;
    } else {
      failed++;
      omp_set_lock(&s->lk);
    }
    CHECK(!omp_test_lock(&s->lk));          /* held by us: the try fails */
    s->counter++;
    omp_unset_lock(&s->lk);

    omp_set_nest_lock(&s->nl);
    CHECK_EQ(omp_test_nest_lock(&s->nl), 2);
    omp_set_nest_lock(&s->nl);
    s->nested++;
    omp_unset_nest_lock(&s->nl);
    omp_unset_nest_lock(&s->nl);
    s->nested++;
    omp_unset_nest_lock(&s->nl);
  }
  omp_set_lock(&s->lk);
  s->tries_ok += ok;
  s->tries_failed += failed;
  omp_unset_lock(&s->lk);
  dsm_barrier(1);
  CHECK_EQ(s->counter, (long)n * K);
  CHECK_EQ(s->nested, 2L * n * K);
  CHECK_EQ(s->tries_ok + s->tries_failed, (long)n * K);
  if (n == 1)
    CHECK_EQ(s->tries_failed, 0);
  dsm_barrier(2);
  if (me == 0) {
    printf("omp_locks: %u processes: counter %ld, nested %ld, tries %ld ok / %ld failed: OK\n",
           n, s->counter, s->nested, s->tries_ok, s->tries_failed);
    omp_destroy_lock(&s->lk);
    omp_destroy_nest_lock(&s->nl);
  }
  dsm_exit(0);
}
