/*
 * dsm_internal.h — names shared between libdsm's files (dsm__*), never installed.
 */
#ifndef DSM_INTERNAL_H
#define DSM_INTERNAL_H

#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include "dsm.h"
#include "stats.h"

/* The job as this process sees it. */
extern unsigned dsm__rank;
extern unsigned dsm__nprocs;
extern int      dsm__started;     /* dsm_startup has run */
extern int      dsm__verbose;     /* DSM_DEBUG=1 */
extern int      dsm__peers_known; /* the transport knows every peer address */

/* Application threads per process (dsmrun --threads; threads.c), and the
 * gate that admits one of them at a time into the protocol. drop releases
 * the gate whatever the depth and returns the depth for take. */
#define DSM__MAX_THREADS 256
extern unsigned dsm__threads;
/* alone: started without a launcher (a job of one), OpenMP's default of a
 * thread per CPU applies; else one a process. */
void dsm__threads_init(int alone);
/* The stack of a thread or a region body the OpenMP runtime runs: the DSM_
 * variable name (MiB) if set, else OMP_STACKSIZE, else dflt_mb; with
 * at_least_dflt, never below dflt_mb (region stacks carry the master's
 * region bodies too, which gcc runs on the initial thread's own stack). */
size_t dsm__omp_stack_size(const char *name, long dflt_mb, int at_least_dflt);
void dsm__gate_enter(void);
void dsm__gate_leave(void);
unsigned dsm__gate_drop(void);
void dsm__gate_take(unsigned depth);
unsigned dsm__gate_depth(void);   /* 1: a fault is the only protocol step in progress */

/* Exit status of a process stopped because the job failed (another rank died,
 * a peer went silent, an ABORT arrived). dsmrun reports the rank whose failure
 * came first, not the ones that stopped because of it. */
#define DSM__EXIT_FATAL     70    /* this process hit an error */
#define DSM__EXIT_PEER_LOST 75    /* this process stopped because of another */

/* Print "dsm[rank]: error: ..." to stderr, tell the peers, and _exit(status).
 * Never returns. Safe to call from the service thread. */
void dsm__fatal(int status, const char *fmt, ...)
  __attribute__((noreturn, format(printf, 2, 3)));
/* This process ends the job before its collective shutdown, with status:
 * tell every peer, which stops saying "rank R " what (util.c explains the
 * ABORT's text). Returns; the caller goes on ending. */
void dsm__tell_peers(int status, const char *what);
/* A peer's ABORT arrived (reason as sent): stop, saying why. Returns only
 * when this process is already leaving on its own. */
void dsm__peer_stopped(unsigned src, const char *reason);
/* The launcher's lifeline: what dsmrun wrote on it (why it stops the job),
 * and its close, which stops this process. */
void dsm__launcher_says(const char *buf, size_t n);
void dsm__launcher_gone(void) __attribute__((noreturn));
/* One record to dsmrun, where it listens (DSM_REPORT_FD): 'S' joined the
 * job, 'E' left it in the collective shutdown. */
void dsm__launcher_report(char what);

/* crash.c: report a fatal signal (the faulting address and code, and the
 * faulting instruction pc, or 0 when the signal was sent), and tell the
 * peers; the caller then lets the signal kill the process. crash_init
 * installs the handlers (SIGSEGV and SIGBUS too when segv_too: no
 * libsigsegv) and keeps the DSM's reservations out of core files. */
void dsm__crash_report(int sig, int code, const void *addr, uintptr_t pc);
void dsm__crash_init(int segv_too);

/* Invariant check that is never compiled out. */
#define DSM__ASSERT(cond) do { if (!(cond)) dsm__fatal(DSM__EXIT_FATAL, \
    "internal error: %s:%d: assertion failed: %s", __FILE__, __LINE__, #cond); } while (0)
#define DSM__DEBUG(...) do { if (dsm__verbose) { fprintf(stderr, "dsm[%u]: ", dsm__rank); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

/* calloc that never returns NULL (out of memory is fatal) nor a
 * zero-sized block. */
void *dsm__xcalloc(size_t n, size_t size);
/* Room for need elements of size bytes in an array of its own mapping
 * (*cap elements now): for what the write-fault path grows (util.c). */
void *dsm__grow_mapped(void *a, size_t *cap, size_t need, size_t size);

/* Monotonic clock in nanoseconds. */
uint64_t dsm__now_ns(void);
/* Ask the scheduler for a short slice for the calling thread, so that it
 * preempts the computation on its CPU when it wakes (DSM_SVC_SLICE_US). */
void dsm__short_slice(void);

/* Parse an environment variable as a number, with a default and bounds;
 * a malformed value is a fatal error naming the variable. */
long dsm__env_long(const char *name, long dflt, long min, long max);
/* A library loaded only when it is needed (libibverbs, libpmix): the file
 * the environment variable env names, else dflt; *file is the one tried.
 * NULL when it cannot be loaded (dlerror() says why). */
void *dsm__lib_open(const char *env, const char *dflt, int flags, const char **file);
/* One of its symbols; fatal, naming the file, when it lacks it (what: the
 * library the file should have been, for the message). */
void *dsm__lib_sym(void *h, const char *file, const char *name, const char *what);

#endif
