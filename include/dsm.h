/*
 * dsm.h — the public API of libdsm, ompdsm's software distributed shared memory.
 *
 * A job is N processes started by dsmrun (or a single process started on its
 * own). Process 0 is the master. Shared memory follows lazy release
 * consistency: writes made by one process become visible to another when the
 * second performs an acquire (lock acquire, barrier departure, fork, semaphore
 * wait, condition wake-up) that follows the first one's release.
 *
 * Two programming styles work:
 *   - SPMD (TreadMarks style): every process runs main(), calls dsm_startup(),
 *     synchronizes with barriers and locks, and ends with dsm_exit().
 *   - fork/join (what ompdsmcc generates): the master runs main(); the others
 *     wait in dsm_serve_forks() and run each function the master dsm_fork()s.
 *
 * Functions that fail because of the job (a peer died, the shared range is
 * exhausted) print a diagnostic naming the cause and end the process with a
 * non-zero status; they do not return error codes the caller must check.
 */
#ifndef DSM_H
#define DSM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define DSM_API __attribute__((visibility("default")))
#else
#define DSM_API
#endif

/* ---- job ---------------------------------------------------------------- */
DSM_API void     dsm_startup(int argc, char **argv); /* all processes; joins the job */
DSM_API void     dsm_exit(int status)                /* all processes; collective shutdown */
                 __attribute__((noreturn));
DSM_API unsigned dsm_proc_id(void);                  /* 0..nprocs-1; 0 is the master */
DSM_API unsigned dsm_nprocs(void);
/* OpenMP threads each process runs (dsmrun --threads; 1 by default). The
 * protocol is per process: the threads of one share its pages. */
DSM_API unsigned dsm_threads(void);

/* ---- shared memory ------------------------------------------------------ */
/* The shared heap, from any process at any time. As malloc does, these
 * return NULL with errno ENOMEM when memory runs out: when this process's
 * slice of the heap (DSM_HEAP_MB over the processes) is full. */
DSM_API void    *dsm_malloc(size_t size);
DSM_API void     dsm_free(void *p);
DSM_API void    *dsm_calloc(size_t n, size_t size);
DSM_API void    *dsm_realloc(void *p, size_t size);
DSM_API char    *dsm_strdup(const char *s);
/* Master only: copy [addr, addr+size) of the master's memory to the same
 * address in every other process. Visible there after the next barrier. */
DSM_API void     dsm_distribute(void *addr, size_t size);

/* ---- synchronization ---------------------------------------------------- */
DSM_API void     dsm_barrier(unsigned id);
DSM_API void     dsm_lock_acquire(unsigned id);
DSM_API void     dsm_lock_release(unsigned id);
DSM_API void     dsm_sema_init(unsigned id, int value);   /* before first use; default 0 */
DSM_API void     dsm_sema_wait(unsigned id);
DSM_API void     dsm_sema_signal(unsigned id);
DSM_API void     dsm_cond_wait(unsigned cond, unsigned lock);     /* caller holds lock */
DSM_API void     dsm_cond_signal(unsigned cond, unsigned lock);
DSM_API void     dsm_cond_broadcast(unsigned cond, unsigned lock);

/* ---- fork/join ---------------------------------------------------------- */
/* Master only. fn runs on every process of the job (the master included), with
 * a private copy of the arg_size bytes at arg. A fork is a release by the master. */
DSM_API void     dsm_fork(void (*fn)(void *), void *arg, size_t arg_size);
DSM_API void     dsm_join(void);                      /* master; waits for all */
/* Slaves: run forked functions until the master calls dsm_exit(). Returns the
 * job's exit status. */
DSM_API int      dsm_serve_forks(void);
/* The whole fork/join program in one call: starts the job, runs main_fn on the
 * master with its stack in shared memory (so the address of any of its locals
 * can be handed to a forked function), serves forks on the others, and ends
 * the job with main_fn's return value. Never returns. */
DSM_API void     dsm_main(int (*main_fn)(int, char **), int argc, char **argv)
                 __attribute__((noreturn));

/* ---- statistics --------------------------------------------------------- */
/* Print this process's counters to stderr now (DSM_STATS prints them for
 * every process at dsm_exit). */
DSM_API void     dsm_stats_print(void);
/* Read one counter by name ("read_faults", "msgs_sent", ...); -1 if unknown.
 * "msgs_sent" counts every message, including the transport's own traffic on
 * timers (keepalive PINGs and their answers, bootstrap retransmissions) and
 * replies to what peers ask; "protocol_requests_sent" counts only the
 * requests this process's own operations cause (page fetches, diffs sent
 * home, synchronization, frees), and "msgs_sent.TYPE" one type (e.g.
 * "msgs_sent.FREE"). */
DSM_API int64_t  dsm_stat(const char *name);

/* ---- shared globals ----------------------------------------------------- */
/* Place a file-scope or static variable in shared memory. Use DSM_SHARED for
 * initialized objects and DSM_SHARED_BSS for zero-initialized ones (so that a
 * large array takes no room in the executable). Needs the link to use the
 * linker script that dsm.pc and ompdsmcc pass. */
#define DSM_SHARED      __attribute__((section("dsm_shared_data"), used))
#define DSM_SHARED_BSS  __attribute__((section("dsm_shared_bss,\"aw\",@nobits#"), used))

#ifdef __cplusplus
}
#endif
#endif /* DSM_H */
