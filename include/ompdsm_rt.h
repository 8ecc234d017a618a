/*
 * ompdsm_rt.h — the entry points that ompdsmcc-generated code calls.
 *
 * Not for hand-written programs (use dsm.h and omp.h). Every name here is
 * __ompdsm_*; the implementation lives in sync/omp/omp_rt.c on top of libdsm.
 *
 * Model: one OpenMP thread is one DSM process. The master runs main() on a
 * stack in shared memory (dsm_main), so the address of any of its locals is
 * valid in every process. A parallel region is an outlined function
 * void fn(void *data); data points at a private copy (in each process) of the
 * argument block the master built, which holds the addresses of the shared
 * variables and the values of firstprivate/copyin ones.
 */
#ifndef OMPDSM_RT_H
#define OMPDSM_RT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The program: generated main() calls this with the user's main renamed. */
void __ompdsm_main(int (*user_main)(int, char **), int argc, char **argv)
  __attribute__((noreturn));

/* ---- parallel regions --------------------------------------------------- */
/* Run fn on a team. num_threads == 0 means the default (omp_set_num_threads,
 * OMP_NUM_THREADS, else every process of the job); if_cond == 0 runs the team
 * with one thread. Called inside a region, the nested region runs serialized.
 * Includes the implicit barrier at the end (a join). */
void __ompdsm_parallel(void (*fn)(void *), void *data, size_t size,
                       unsigned num_threads, int if_cond);
/* The same for a region whose team the runtime may make smaller while
 * dyn-var is true (sync/omp/omp_width.c): ompdsmcc's call for a region
 * without num_threads that does not ask its thread number or team size. */
void __ompdsm_parallel_dynamic(void (*fn)(void *), void *data, size_t size,
                               unsigned num_threads, int if_cond);
/* The same for a region nothing in which can see its team (ompdsmcc sees
 * all it runs; none of it asks): narrowed even after the program asked
 * its team, as long as dyn-var is true. */
void __ompdsm_parallel_sealed(void (*fn)(void *), void *data, size_t size,
                              unsigned num_threads, int if_cond);
int  __ompdsm_thread_num(void);
int  __ompdsm_num_threads(void);
/* Before a region: warn once (through *warned) when the team it asks for
 * (num_threads, else OMP_NUM_THREADS) is larger than the job; where is
 * "file:line" of the directive. */
void __ompdsm_team_check(unsigned nthreads, int if_cond, const char *where, int *warned);

/* ---- worksharing loops ---------------------------------------------------- */
/* Iterations are normalized by the compiler to 0..count-1 (count >= 0); it
 * maps i back to the user's variable as lb + i*incr. */
enum { OMPDSM_SCHED_STATIC = 0, OMPDSM_SCHED_DYNAMIC = 1, OMPDSM_SCHED_GUIDED = 2,
       OMPDSM_SCHED_RUNTIME = 3, OMPDSM_SCHED_AUTO = 4 };

/* Static schedule, computed locally with no messages. chunk <= 0 means one
 * contiguous block per thread. Call with k = 0, 1, 2, ...: returns 1 and the
 * half-open range [*lo, *hi) of this thread's k-th chunk, or 0 when done. */
int  __ompdsm_static_chunk(int64_t count, int64_t chunk, int64_t k,
                           int64_t *lo, int64_t *hi);
/* Dynamic, guided and runtime schedules: start, then take chunks until 0. */
void __ompdsm_loop_start(int sched, int64_t count, int64_t chunk);
int  __ompdsm_loop_next(int64_t *lo, int64_t *hi);
/* End of a worksharing construct: barrier unless nowait. */
void __ompdsm_loop_end(int nowait);
/* ordered blocks: iteration i (normalized) may enter after i-1 left. */
void __ompdsm_ordered_start(int64_t i);
void __ompdsm_ordered_end(int64_t i);
/* Is this thread executing the last iteration (for lastprivate)? The
 * compiler tracks it itself for static schedules; for others: */

/* ---- sections, single, master -------------------------------------------- */
/* sections: returns the index (0..n-1) of the next section this thread runs,
 * or -1 when none are left. */
void __ompdsm_sections_start(unsigned n);
int  __ompdsm_sections_next(void);
/* single: 1 for the thread that runs the block. */
int  __ompdsm_single_start(void);
/* copyprivate: the thread that ran the single passes its bytes; every thread
 * receives them into buf. Contains the barrier ending the single. */
void __ompdsm_copyprivate(void *buf, size_t size, int executed);

/* ---- synchronization ------------------------------------------------------ */
void __ompdsm_barrier(void);
/* critical: name NULL for the unnamed critical section. */
void __ompdsm_critical_start(const char *name);
/* Names for the sharing profiler (dsmprof), each called once per site and
 * process, doing nothing unless the job is profiled (sync/omp/omp_names.c): a
 * critical section's site, and a local that a region reaches by address
 * (text: "x, a local of main (prog.c:12)"; addr is not const: to cc, a
 * const pointer to an uninitialized variable is a read of it). */
void __ompdsm_name_critical(const char *name, const char *site);
void __ompdsm_name_local(void *addr, size_t size, const char *text);
void __ompdsm_critical_end(const char *name);
void __ompdsm_atomic_start(void);
void __ompdsm_atomic_end(void);
void __ompdsm_flush(void);
/* A loop whose body is only flushes, `while (c) { flush }`: each of its
 * flushes, then what follows the loop (a wait for a flag: sync/flush.c). */
void __ompdsm_spin_flush(void);
void __ompdsm_spin_end(void);
/* Before such a loop whose condition reads one word: its address and size
 * (other processes' flushes that do not change it need not reach us). */
void __ompdsm_spin_watch(const void *addr, size_t size);

/* ompdsm's extensions (semaphores, conditions). One is named by an identifier
 * and an index (0 when written without [expr]). */
void __ompdsm_sema_init(const char *name, int64_t index, int value);
void __ompdsm_sema_wait(const char *name, int64_t index);
void __ompdsm_sema_signal(const char *name, int64_t index);
/* lock_name: the enclosing critical's name (NULL for unnamed). */
void __ompdsm_cond_wait(const char *name, int64_t index, const char *lock_name);
void __ompdsm_cond_signal(const char *name, int64_t index, const char *lock_name);
void __ompdsm_cond_broadcast(const char *name, int64_t index, const char *lock_name);

/* ---- tasks ------------------------------------------------------------------ */
/* A task is an outlined function void fn(void *data), like a region body.
 * data points at an argument block of size bytes that the compiler built on
 * the encountering thread's stack: the addresses of the task's shared
 * variables and the values of its firstprivate ones. The runtime copies the
 * block when the task is created, so the caller may reuse it at once; a task
 * may run on another process, where the copy travels in a message (the
 * addresses stay valid there: in a program that uses tasks every stack a
 * task can see is in shared memory).
 *
 * flags: OMPDSM_TASK_UNDEFERRED (if(false): the encountering thread runs it
 * at once and waits for it; it is still a task with its own children),
 * OMPDSM_TASK_FINAL (final(true): it and all its descendants run undeferred
 * and included), OMPDSM_TASK_UNTIED, OMPDSM_TASK_MERGEABLE (hints; accepted).
 * deps: ndeps entries, in the order the clauses list them. priority is the
 * priority clause's value (0 without one). */
enum { OMPDSM_TASK_UNDEFERRED = 1, OMPDSM_TASK_FINAL = 2, OMPDSM_TASK_UNTIED = 4,
       OMPDSM_TASK_MERGEABLE = 8 };
enum { OMPDSM_DEP_IN = 1, OMPDSM_DEP_OUT = 2, OMPDSM_DEP_INOUT = 3 };
typedef struct ompdsm_dep { void *addr; size_t len; int kind; } ompdsm_dep_t;
void __ompdsm_task(void (*fn)(void *), void *data, size_t size, int flags,
                   unsigned ndeps, const ompdsm_dep_t *deps, int priority);
/* taskwait: the current task's children are complete, and their writes
 * visible to it. */
void __ompdsm_taskwait(void);
void __ompdsm_taskyield(void);
/* taskgroup: at the end, every task created in the group and all of their
 * descendants are complete. Groups nest. */
void __ompdsm_taskgroup_start(void);
void __ompdsm_taskgroup_end(void);
/* Every translation unit that contains a task construct registers this from
 * a constructor (all processes run it before main): the runtime then puts
 * region stacks in shared memory and ends barriers by draining tasks. */
void __ompdsm_tasks_used(void);

/* ---- reductions ----------------------------------------------------------- */
enum { OMPDSM_RED_ADD, OMPDSM_RED_MUL, OMPDSM_RED_SUB, OMPDSM_RED_MIN, OMPDSM_RED_MAX,
       OMPDSM_RED_BAND, OMPDSM_RED_BOR, OMPDSM_RED_BXOR, OMPDSM_RED_LAND, OMPDSM_RED_LOR };
enum { OMPDSM_T_CHAR, OMPDSM_T_SCHAR, OMPDSM_T_UCHAR, OMPDSM_T_SHORT, OMPDSM_T_USHORT,
       OMPDSM_T_INT, OMPDSM_T_UINT, OMPDSM_T_LONG, OMPDSM_T_ULONG, OMPDSM_T_LLONG,
       OMPDSM_T_ULLONG, OMPDSM_T_FLOAT, OMPDSM_T_DOUBLE, OMPDSM_T_LDOUBLE, OMPDSM_T_BOOL };
/* Collective over the team, at the end of the construct that owns the
 * reduction clause: combines every thread's partial[0..count) with op and
 * folds the result into *shared (shared = shared op combined). The values are
 * combined inside synchronization messages, never through shared pages.
 * Acts as a barrier for the partials. The master folds the result in after
 * it; the team sees it after the construct's own closing barrier or join,
 * as OpenMP says (with nowait: after the next barrier), so no second
 * barrier follows here. */
void __ompdsm_reduce(void *shared, const void *partial, size_t count, int type, int op);
/* The same at the end of a parallel region (its own reduction clause, or
 * that of a worksharing construct combined with it): the partials ride in
 * the region's JOIN messages and the master folds the combined value in
 * when the join is complete, so the reduction costs no message of its own. */
void __ompdsm_reduce_join(void *shared, const void *partial, size_t count, int type, int op);

/* ---- data placement -------------------------------------------------------- */
/* malloc family, rewritten by ompdsmcc to these in translated units. */
void *__ompdsm_malloc(size_t size);
void *__ompdsm_malloc_at(const char *site, size_t size);
void *__ompdsm_calloc_at(const char *site, size_t n, size_t size);
void *__ompdsm_realloc_at(const char *site, void *p, size_t size);
char *__ompdsm_strdup_at(const char *site, const char *s);
void *__ompdsm_calloc(size_t n, size_t size);
void *__ompdsm_realloc(void *p, size_t size);
void  __ompdsm_free(void *p);
char *__ompdsm_strdup(const char *s);

#ifdef __cplusplus
}
#endif
#endif
