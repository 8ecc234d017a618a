/*
 * lock.h — what lock.c shares with cond.c and omp_lock.c.
 *
 * A lock's state lives in one dsm__lk per lock id in every process that has
 * touched it. The holder side (token, held, successor) matters everywhere;
 * the manager side (last requester, condition waiters) only at the manager,
 * rank id % nprocs. Everything here is under dsm__mu.
 */
#ifndef DSM_SYNC_LOCK_H
#define DSM_SYNC_LOCK_H

#include <stdint.h>
#include "buf.h"
#include "net/transport.h"

/* Operations carried by LOCK and COND messages (first word of the payload). */
enum {
  DSM__LK_ACQ = 1,   /* to the manager: id, known vt */
  DSM__LK_TRY,       /* to the manager: id, known vt; the reply may say no */
  DSM__LK_HREQ,      /* forwarded to the previous requester: id, try, known vt */
  DSM__LK_TOKEN,     /* one-way: the lock passes to a failed try: id, records */
  DSM__LK_YIELD,     /* to the manager from the idle holder: id; the reply is
                        2 (keep it: nobody asked since its own last request)
                        or 3 (someone did: hand it on and ask again) */
  DSM__CV_WAIT,      /* to the lock's manager: cond, lock, who (join the queue) */
  DSM__CV_SLEEP,     /* to the lock's manager: cond, lock, who, known vt; the reply is the
                        lock, or with DSM__CV_NOLOCK in who an empty wake-up */
  DSM__CV_SIGNAL,    /* to the lock's manager: cond, lock, all */
};

/* who: which thread of the process waits (its local number), and whether
 * the wake-up leaves the lock to be taken again separately (NOLOCK: the
 * OpenMP layer with several threads per process, sync/omp/omp_llock.c). */
#define DSM__CV_NOLOCK 0x80000000u

/* A process waiting on a condition, kept by the lock's manager in FIFO order. */
typedef struct dsm__cwait {
  unsigned cond, rank, who;
  int signalled;          /* already queued for the lock, behind prev */
  unsigned prev;
  int has_h;              /* its SLEEP request has arrived */
  dsm__reqh_t h;
  uint32_t *known;
  struct dsm__cwait *next;
} dsm__cwait_t;

typedef struct dsm__lk dsm__lk_t;

/* The lock's record, created on first use. */
dsm__lk_t *dsm__lk_get(unsigned id);
unsigned   dsm__lk_manager(unsigned id);
int        dsm__lk_held(dsm__lk_t *lk);
dsm__cwait_t **dsm__lk_cwaiters(dsm__lk_t *lk);
/* Holder, dsm__mu held: the count of waiters queued on the lock's
 * conditions and not yet signalled, as it travels with the lock (cond.c). */
uint32_t  *dsm__lk_cwaits(dsm__lk_t *lk);
/* How many times the lock came here from elsewhere. */
unsigned   dsm__lk_arrivals(dsm__lk_t *lk);
/* Manager: put rank at the end of the lock's queue; returns the rank that
 * will pass the lock to it. */
unsigned   dsm__lk_enqueue(dsm__lk_t *lk, unsigned rank);
/* Manager: send the acquire request h of origin to prev (or handle it here
 * when prev is this process). */
void       dsm__lk_route(dsm__lk_t *lk, unsigned id, unsigned prev, dsm__reqh_t h,
                         unsigned origin, const uint32_t *known);
/* Application thread, dsm__mu held: give the lock up (the release half of
 * dsm_lock_release and of dsm_cond_wait). linger: a successor that waits
 * may wait a little longer (lock.c, lingering); not for a cond wait. */
void       dsm__lk_release_locked(dsm__lk_t *lk, unsigned id, int linger);
/* Application thread, without dsm__mu: take the grant in reply (records the
 * previous holder sent) and hold the lock. released: the caller ended its
 * interval while the request travelled (dsm__lk_end_interval), and no
 * other thread of the process can have written since. */
void       dsm__lk_take_grant(unsigned id, const void *reply, size_t len, int released);
/* The work of a lock request in flight (dsm__tp_call_overlap, arg unused):
 * end the open interval, its diffs made and sent home, as the acquire
 * would once the grant is in. */
void       dsm__lk_end_interval(void *arg);
/* Shared handler for LOCK and COND messages (cond.c's ops go to cond.c). */
void       dsm__cond_handle(const dsm__msg_t *m, dsm__rd_t *r, unsigned op);

/* Try to acquire without waiting; 1 on success. */
int        dsm__lock_try(unsigned id);
/* cond.c, for a thread among several of a process: join the condition's
 * queue (lock held), then sleep until signalled without taking the lock. */
void       dsm__cond_enqueue(unsigned cond, unsigned lock, unsigned who);
void       dsm__cond_sleep(unsigned cond, unsigned lock, unsigned who);

#endif
