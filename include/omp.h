/*
 * omp.h — the OpenMP runtime API for programs built with ompdsmcc.
 *
 * Declarations only; libdsm implements them (sync/). One OpenMP thread is
 * one DSM process, so a lock is a plain struct naming a DSM lock by id: it
 * may live in shared memory and be passed between processes by value.
 */
#ifndef OMP_H
#define OMP_H

#ifdef __cplusplus
extern "C" {
#endif

typedef struct { unsigned id; int owner; int count; } omp_lock_t;
typedef struct { unsigned id; int owner; int count; } omp_nest_lock_t;

typedef enum omp_sched_t {
  omp_sched_static = 1, omp_sched_dynamic = 2, omp_sched_guided = 3, omp_sched_auto = 4
} omp_sched_t;

/* OpenMP 5.0 synchronization hints (the values are the specification's, so
 * a program that prints or stores one agrees with other implementations).
 * A hint never changes what a program computes; ompdsm's locks and
 * criticals are DSM locks whatever the hint says. */
typedef enum omp_sync_hint_t {
  omp_sync_hint_none = 0x0,
  omp_lock_hint_none = omp_sync_hint_none,
  omp_sync_hint_uncontended = 0x1,
  omp_lock_hint_uncontended = omp_sync_hint_uncontended,
  omp_sync_hint_contended = 0x2,
  omp_lock_hint_contended = omp_sync_hint_contended,
  omp_sync_hint_nonspeculative = 0x4,
  omp_lock_hint_nonspeculative = omp_sync_hint_nonspeculative,
  omp_sync_hint_speculative = 0x8,
  omp_lock_hint_speculative = omp_sync_hint_speculative
} omp_sync_hint_t;
typedef omp_sync_hint_t omp_lock_hint_t;

void   omp_set_num_threads(int n);
int    omp_get_num_threads(void);
int    omp_get_max_threads(void);
int    omp_get_thread_num(void);
int    omp_get_num_procs(void);
int    omp_in_parallel(void);
void   omp_set_dynamic(int dynamic);
int    omp_get_dynamic(void);
void   omp_set_nested(int nested);
int    omp_get_nested(void);
int    omp_get_thread_limit(void);
void   omp_set_schedule(omp_sched_t kind, int chunk);
void   omp_get_schedule(omp_sched_t *kind, int *chunk);
int    omp_get_level(void);
int    omp_get_active_level(void);

void   omp_init_lock(omp_lock_t *lock);
void   omp_destroy_lock(omp_lock_t *lock);
void   omp_set_lock(omp_lock_t *lock);
void   omp_unset_lock(omp_lock_t *lock);
int    omp_test_lock(omp_lock_t *lock);
void   omp_init_nest_lock(omp_nest_lock_t *lock);
void   omp_destroy_nest_lock(omp_nest_lock_t *lock);
void   omp_set_nest_lock(omp_nest_lock_t *lock);
void   omp_unset_nest_lock(omp_nest_lock_t *lock);
int    omp_test_nest_lock(omp_nest_lock_t *lock);

/* With a hint: the lock is the same lock (see omp_sync_hint_t). Functions,
 * not macros, so that their addresses can be taken; static inline keeps
 * them out of libdsm, whose lock code knows nothing of hints. */
static inline void omp_init_lock_with_hint(omp_lock_t *lock, omp_sync_hint_t hint)
{
  (void)hint;
  omp_init_lock(lock);
}
static inline void omp_init_nest_lock_with_hint(omp_nest_lock_t *lock, omp_sync_hint_t hint)
{
  (void)hint;
  omp_init_nest_lock(lock);
}

/* Tasks: is the current task final (final clause, or inside one)? The
 * largest priority clause value the runtime honours. */
int    omp_in_final(void);
int    omp_get_max_task_priority(void);

double omp_get_wtime(void);
double omp_get_wtick(void);

/* The seed's extensions as functions (the directives map to the same calls). */
void   omp_sema_init(const char *name, int index, int value);
void   omp_sema_wait(const char *name, int index);
void   omp_sema_signal(const char *name, int index);

#ifdef __cplusplus
}
#endif
#endif
