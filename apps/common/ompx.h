/* ompx.h - the seed's synchronization extensions, usable from plain C.
 *
 * Under ompdsmcc (which defines _OMPDSM) every macro becomes the directive
 * itself, e.g. OMPX_SEMA_WAIT_AT(done, me) is
 *     #pragma omp sema_wait(done[me])
 * Under gcc -fopenmp the directives do not exist, so the macros call a small
 * pthread implementation (ompx_gcc.c). A cond_wait must release the lock of
 * the critical section around it; gcc's own critical locks are not
 * reachable, so critical sections that contain cond_* are written with
 * OMPX_CRITICAL_BEGIN/END, which are the real `critical(name)` under
 * ompdsmcc and compat-layer locks under gcc. Every other critical section
 * that shares the name must use the same macros.
 *
 *   OMPX_SEMA_INIT(name, value)       OMPX_SEMA_INIT_AT(name, index, value)
 *   OMPX_SEMA_WAIT(name)              OMPX_SEMA_WAIT_AT(name, index)
 *   OMPX_SEMA_SIGNAL(name)            OMPX_SEMA_SIGNAL_AT(name, index)
 *   OMPX_CRITICAL_BEGIN(lock) ... OMPX_CRITICAL_END(lock)
 *   OMPX_COND_WAIT(name, lock)        (inside OMPX_CRITICAL_BEGIN(lock))
 *   OMPX_COND_SIGNAL(name, lock)      OMPX_COND_BROADCAST(name, lock)
 *
 * The lock argument of the cond macros is only used by the gcc version;
 * under ompdsmcc the enclosing critical section names it. */
#ifndef OMPX_H
#define OMPX_H

#ifdef _OMPDSM

/* Standalone directives are not statements in C, so `if (c) #pragma ...`
 * is invalid; the do-while makes each macro one statement that takes a ';'. */
#define OMPX_PRAGMA_(text) _Pragma(#text)
#define OMPX_STMT_(text)   do { OMPX_PRAGMA_(text) } while (0)
#define OMPX_SEMA_INIT(name, value)          OMPX_STMT_(omp sema_init(name, value))
#define OMPX_SEMA_INIT_AT(name, idx, value)  OMPX_STMT_(omp sema_init(name[idx], value))
#define OMPX_SEMA_WAIT(name)                 OMPX_STMT_(omp sema_wait(name))
#define OMPX_SEMA_WAIT_AT(name, idx)         OMPX_STMT_(omp sema_wait(name[idx]))
#define OMPX_SEMA_SIGNAL(name)               OMPX_STMT_(omp sema_signal(name))
#define OMPX_SEMA_SIGNAL_AT(name, idx)       OMPX_STMT_(omp sema_signal(name[idx]))
#define OMPX_CRITICAL_BEGIN(lock)            OMPX_PRAGMA_(omp critical(lock)) {
#define OMPX_CRITICAL_END(lock)              }
#define OMPX_COND_WAIT(name, lock)           OMPX_STMT_(omp cond_wait(name))
#define OMPX_COND_SIGNAL(name, lock)         OMPX_STMT_(omp cond_signal(name))
#define OMPX_COND_BROADCAST(name, lock)      OMPX_STMT_(omp cond_broadcast(name))

#else /* gcc -fopenmp: pthread compat layer */

/* Objects are found by (name, index); they are created on first use, live
 * for the whole run and are shared by all threads of the process. */
void ompx_sema_init(const char *name, long index, int value);
void ompx_sema_wait(const char *name, long index);
void ompx_sema_signal(const char *name, long index);
void ompx_lock(const char *lock);
void ompx_unlock(const char *lock);
void ompx_cond_wait(const char *name, const char *lock);
void ompx_cond_signal(const char *name, const char *lock);
void ompx_cond_broadcast(const char *name, const char *lock);

#define OMPX_SEMA_INIT(name, value)          ompx_sema_init(#name, 0, (value))
#define OMPX_SEMA_INIT_AT(name, idx, value)  ompx_sema_init(#name, (long)(idx), (value))
#define OMPX_SEMA_WAIT(name)                 ompx_sema_wait(#name, 0)
#define OMPX_SEMA_WAIT_AT(name, idx)         ompx_sema_wait(#name, (long)(idx))
#define OMPX_SEMA_SIGNAL(name)               ompx_sema_signal(#name, 0)
#define OMPX_SEMA_SIGNAL_AT(name, idx)       ompx_sema_signal(#name, (long)(idx))
#define OMPX_CRITICAL_BEGIN(lock)            ompx_lock(#lock); {
#define OMPX_CRITICAL_END(lock)              } ompx_unlock(#lock);
#define OMPX_COND_WAIT(name, lock)           ompx_cond_wait(#name, #lock)
#define OMPX_COND_SIGNAL(name, lock)         ompx_cond_signal(#name, #lock)
#define OMPX_COND_BROADCAST(name, lock)      ompx_cond_broadcast(#name, #lock)

#endif
#endif
