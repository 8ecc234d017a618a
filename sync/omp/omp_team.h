/*
 * omp_team.h — the threads of one process in a parallel region (omp_team.c)
 * and its locks (omp_llock.c), for the OpenMP runtime (omp_rt.c, omp_lock.c).
 */
#ifndef OMP_TEAM_H
#define OMP_TEAM_H

/* OpenMP threads per process (omp_rt.c): dsm__threads, or 1 in a program
 * with tasks. */
unsigned dsm__omp_tpp(void);

/* Run b(a, t) on threads t = 0..n-1 of this process (0 is the caller) and
 * return when all are done. */
void dsm__team_run(void (*b)(void *, unsigned), void *a, unsigned n);
/* Barrier of the n threads of this process in the current region: the
 * last to arrive runs last(arg), if given, before any leaves. */
void dsm__team_barrier(unsigned n, void (*last)(void *), void *arg);
/* The barrier's mutex, for what arriving threads combine (reductions). */
void dsm__team_lock(void);
void dsm__team_unlock(void);

/* A DSM lock shared by the threads of a process (omp_llock.c): one thread
 * of the process at a time holds it; the process holds the DSM lock while
 * any of its threads does, and passes it between its own threads without
 * a message. who is the caller's thread number within its process. */
void dsm__llock_acquire(unsigned id);
int  dsm__llock_try(unsigned id);
void dsm__llock_release(unsigned id);
/* ompdsm's condition variables on such a lock: wait (holding it), and
 * signal/broadcast (holding it). */
void dsm__llock_cond_wait(unsigned cond, unsigned id, unsigned who);
void dsm__llock_cond_signal(unsigned cond, unsigned id, int all);

/* The DSM lock id of the critical section name (NULL: the unnamed one),
 * and of atomic and ordered (omp_rt.c); the sharing profiler names them. */
unsigned dsm__omp_critical_id(const char *name);

#endif
