/*
 * sync.h — what the files of the synchronization layer (sync/) share, and
 * what tools built on it (dsmbench) may call. Never installed.
 */
#ifndef DSM_SYNC_H
#define DSM_SYNC_H

#include <stddef.h>
#include <stdint.h>

/* Processes taking part in the current parallel region (all of them outside
 * one): ranks 0..dsm__team-1. Barriers count this many arrivals. */
extern unsigned dsm__team;
/* Set once the master has forked or runs under dsm_main: at exit it must
 * release the slaves waiting in dsm_serve_forks. */
extern int dsm__forkjoin_mode;

void dsm__exit_collective(int status);

/* Handlers registered before the transport starts (init.c). */
void dsm__sync_init(void);
void dsm__barrier_init(void);
void dsm__forkjoin_init(void);
void dsm__distribute_init(void);
void dsm__omp_init(void);
void dsm__lock_init(void);
void dsm__sema_init(void);
void dsm__flush_init(void);

/* flush.c: OpenMP's flush (a release and an acquire with every peer), and
 * the spin `while (c) { flush }` as ompdsmcc lowers it: dsm__flush_spin for
 * each flush of the loop, dsm__flush_spin_end after it. */
void dsm__flush(void);            /* a flush that must happen now */
void dsm__flush_user(void);       /* the program's flush directive: may wait (flush.c) */
void dsm__flush_settle(void);     /* before a wait: a flush that waited happens now */
void dsm__flush_spin(void);
void dsm__flush_spin_watch(const void *addr, size_t size);
void dsm__flush_spin_end(void);

/* forkjoin.c */
void dsm__forkjoin_release_slaves(int status);
/* Run region bodies on stacks in shared memory: the OpenMP layer asks for
 * it at start-up when the program has tasks (a task's frames may be read
 * by the process that steals it). Set from above, so that the primitive
 * never asks the layer above it. */
void dsm__fork_shared_stacks(int on);
/* Is a parallel region running (the master between fork and join, a slave
 * running a region's body)? */
int dsm__forkjoin_in_region(void);
/* dsm_fork with a team of the first `team` processes (ompdsmcc's num_threads). */
void dsm__fork_team(void (*fn)(void *), void *arg, size_t size, unsigned team);
/* Master, before its threads run a region among themselves: answer the
 * JOINs held for the next fork, so that no thread of it waits for a slave
 * that waits for them (forkjoin.c). */
void dsm__join_answer_held(void);
/* Write the bytes dsm_distribute pushed here; at every acquire that ends a
 * barrier or receives a fork. */
void dsm__distribute_apply(void);

/* barrier.c: own interval records already shipped to rank 0 (barriers and
 * joins both ship them). */
uint32_t dsm__barrier_own_sent(void);
void dsm__barrier_set_own_sent(uint32_t v);

/* A reduction riding on a barrier: every process of the team contributes
 * count elements of one type; all receive the combination (in rank order, so
 * floating-point results are the same on every run). */
typedef struct dsm__red {
  int type, op;          /* OMPDSM_T_*, OMPDSM_RED_* (ompdsm_rt.h) */
  size_t count;
  const void *in;        /* this process's contribution */
  void *out;             /* the combined result, count elements */
} dsm__red_t;

/* Barrier with an optional reduction (red may be NULL). */
void dsm__barrier_red(unsigned id, dsm__red_t *red);
/* reduce.c: size of one element, or 0 for an unknown type. */
size_t dsm__red_size(int type);
/* acc = acc op x, elementwise; returns -1 for an operator the type lacks. */
int dsm__red_combine(int type, int op, void *acc, const void *x, size_t count);
/* A reduction carried by the join that ends the current region
 * (forkjoin.c): every member calls it with its partial, in the same order;
 * the master folds the partials, in rank order, into *shared when the join
 * is complete. */
void dsm__join_reduce(void *shared, const void *partial, size_t count, int type, int op);

/* task.c. In a program that uses tasks (a translation unit registered them
 * from a constructor), region stacks live in shared memory (dsm__tasks_on),
 * every region begins and ends with the team's tasks, and every barrier
 * first completes them. All are no-ops otherwise. */
void dsm__task_init(void);
int  dsm__tasks_on(void);
int  dsm__tasks_declared(void);   /* the program has task constructs */
/* A region's implicit task on this thread: procs processes take part,
 * nlocal threads of this one (local is the caller's number among them). */
void dsm__task_region_begin(uint64_t seq, unsigned procs, unsigned nlocal, unsigned local);
void dsm__task_region_end(void);
void dsm__task_barrier(void);
int  dsm__task_suspend(void);
/* A region stack in shared memory (forkjoin.c; DSM_REGION_STACK_MB): its top. */
void *dsm__shared_stack_new(void);
void dsm__task_resume(int was);

#endif
