/*
 * omp_lock.c — the OpenMP lock routines (omp.h) on top of DSM locks.
 *
 * An omp_lock_t lives in shared memory and names a DSM lock by id. Ids of
 * OpenMP locks are taken from a range user programs must not pass to
 * dsm_lock_acquire: 0x40000000..0x4fffffff, inside the 0x40000000..0x6fffffff
 * that omp_rt.c leaves to omp locks (it uses 0x70000000 and up for critical,
 * atomic and ordered). The process that initializes a lock picks the id from
 * its rank and a private counter, (rank << 18 | counter) + base, so no two
 * processes pick the same id without talking; a process can init 2^18 locks
 * before its ids wrap (ranks are below 1024, so ids stay below 0x50000000).
 * The id spreads the locks' managers over the ranks (id % nprocs).
 *
 * Which locks a thread holds is private knowledge: a nestable lock's depth
 * is counted in a table of the thread's own, and the owner/count fields of
 * the shared object are only set at init (writing them at each set/unset
 * would send a diff along with every grant). With several threads per
 * process (dsmrun --threads) the process's threads settle who holds a lock
 * before one of them asks the DSM (omp_llock.c).
 */
#include <stdlib.h>

#include "dsm_internal.h"
#include "omp.h"
#include "lock.h"
#include "omp_team.h"

#define DSM__OMP_LOCK_BASE 0x40000000u
#define DSM__OMP_LOCK_END  0x50000000u

static unsigned counter;           /* atomic: any thread may init */

struct nest { unsigned id; int depth; };
static __thread struct nest *nests;   /* nestable locks this thread holds */
static __thread size_t nnests, nests_cap;

static void acquire(unsigned id)
{
  if (dsm__omp_tpp() > 1) dsm__llock_acquire(id);
  else dsm_lock_acquire(id);
}
static void release(unsigned id)
{
  if (dsm__omp_tpp() > 1) dsm__llock_release(id);
  else dsm_lock_release(id);
}
static int try_acquire(unsigned id)
{
  return dsm__omp_tpp() > 1 ? dsm__llock_try(id) : dsm__lock_try(id);
}

static unsigned new_id(void)
{
  if (dsm__rank >= 1024)
    dsm__fatal(DSM__EXIT_FATAL, "omp_init_lock: OpenMP locks support at most 1024 processes");
  unsigned c = __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED) & 0x3ffffu;
  return DSM__OMP_LOCK_BASE + ((dsm__rank << 18) | c);
}

static void check_id(unsigned id, const char *fn)
{
  if (id < DSM__OMP_LOCK_BASE || id >= DSM__OMP_LOCK_END)
    dsm__fatal(DSM__EXIT_FATAL, "%s: the lock was not initialized with omp_init_lock", fn);
}

void omp_init_lock(omp_lock_t *lock)
{
  lock->id = new_id();
  lock->owner = -1;
  lock->count = 0;
}

void omp_destroy_lock(omp_lock_t *lock)
{
  check_id(lock->id, "omp_destroy_lock");
}

void omp_set_lock(omp_lock_t *lock)
{
  check_id(lock->id, "omp_set_lock");
  acquire(lock->id);
}

void omp_unset_lock(omp_lock_t *lock)
{
  check_id(lock->id, "omp_unset_lock");
  release(lock->id);
}

int omp_test_lock(omp_lock_t *lock)
{
  check_id(lock->id, "omp_test_lock");
  return try_acquire(lock->id);
}

static struct nest *nest_find(unsigned id)
{
  for (size_t i = 0; i < nnests; i++)
    if (nests[i].id == id)
      return &nests[i];
  return NULL;
}

static void nest_add(unsigned id)
{
  if (nnests == nests_cap) {
    nests_cap = nests_cap ? 2 * nests_cap : 8;
    nests = realloc(nests, nests_cap * sizeof *nests);
    if (!nests) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  }
  nests[nnests].id = id;
  nests[nnests].depth = 1;
  nnests++;
}

void omp_init_nest_lock(omp_nest_lock_t *lock)
{
  lock->id = new_id();
  lock->owner = -1;
  lock->count = 0;
}

void omp_destroy_nest_lock(omp_nest_lock_t *lock)
{
  check_id(lock->id, "omp_destroy_nest_lock");
}

void omp_set_nest_lock(omp_nest_lock_t *lock)
{
  check_id(lock->id, "omp_set_nest_lock");
  struct nest *n = nest_find(lock->id);
  if (n) {
    n->depth++;
    return;
  }
  acquire(lock->id);
  nest_add(lock->id);
}

void omp_unset_nest_lock(omp_nest_lock_t *lock)
{
  check_id(lock->id, "omp_unset_nest_lock");
  struct nest *n = nest_find(lock->id);
  if (!n)
    dsm__fatal(DSM__EXIT_FATAL, "omp_unset_nest_lock: rank %u does not hold the lock", dsm__rank);
  if (--n->depth > 0)
    return;
  *n = nests[--nnests];
  release(lock->id);
}

int omp_test_nest_lock(omp_nest_lock_t *lock)
{
  check_id(lock->id, "omp_test_nest_lock");
  struct nest *n = nest_find(lock->id);
  if (n)
    return ++n->depth;
  if (!try_acquire(lock->id))
    return 0;
  nest_add(lock->id);
  return 1;
}
