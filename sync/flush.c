/*
 * flush.c — OpenMP's flush on the DSM, and the waits that programs build
 * from it: a flag spun on with a flush in the loop (NAS LU's pipeline).
 *
 * A flush is a release and an acquire with every peer at once (FLUSH,
 * 2(n-1) messages). The request carries this process's new interval records
 * and what it holds of everyone's (known[]); the answer carries what the
 * peer has applied, and its own intervals, that the asker lacks
 * (dsm__intervals_encode_applied: a record merely held there may be a
 * collective's arrival whose diffs wait for the departure, and a fetch of
 * such a page would wait for a barrier its asker is not at). Until
 * 2026-12-07 the answer was empty: a flush only pushed, so a process could
 * spin for ever on a flag written under a lock (whose records went to the
 * lock's next holder only), and it acquired only what others had happened
 * to push to it.
 *
 * Racy reads (lrc.h, dsm__seen). A home serves the copy it has, which may
 * hold writes newer than its fetcher acquired, and applies diffs to its own
 * pages when they come. So LU's consumer could see its producer's flag set
 * (the flag page fetched, or a diff applied to it at its home) while its
 * copies of the producer's rows were still the old ones: it read them and
 * went on with stale data, 2-3% off at class W (issue 52; test
 * pipeline_flush). Under OpenMP's memory model LU needs a flush between
 * reading the flag and reading the rows, which it does not have; gcc's
 * flush is a full fence and TSO hides that. Here the consumer, once its
 * spin ends, acquires what it may have seen (dsm__flush_spin_end): it asks
 * the writers whose records it lacks, then applies them, which invalidates
 * its copies of the rows.
 *
 * Spins. ompdsmcc turns a loop whose body is nothing but flushes,
 * `while (c) { #pragma omp flush }`, into `while (c) __ompdsm_spin_flush();`
 * followed by `__ompdsm_spin_end();` (compiler/omp_sync.c). The first
 * flush of a spin is a whole one; after it the spinner sleeps until news
 * comes: a peer's flush (which reaches every process), or a flush by a
 * thread of its own. Then it applies the records it got, which invalidates
 * the flag's page if it was written, and tests again: one page fetch per
 * change, not a round trip per probe. If nothing comes for a while, it
 * flushes in full again (a writer that released by other means), waiting
 * longer each time, up to SPIN_WAIT_MAX.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dsm_internal.h"
#include "lrc.h"
#include "runtime.h"
#include "sync.h"
#include "net/transport.h"

#define SPIN_WAIT_MIN (1000000ull)      /* 1 ms without news: flush anyway */
#define SPIN_WAIT_MAX (32000000ull)

static uint32_t *flushed_to;   /* own intervals already sent to each peer */

/* Records came (a peer's FLUSH) or a thread of ours flushed. Under dsm__mu. */
static uint64_t news;
static pthread_cond_t news_cv;

static void news_add(void)
{
  news++;
  pthread_cond_broadcast(&news_cv);
}

static void on_flush(const dsm__msg_t *m)
{
  uint32_t their[DSM__MAX_PROCS];
  dsm__rd_t r = dsm__rd(m->data, m->len);
  const void *t = dsm__rd_take(&r, dsm__nprocs * sizeof(uint32_t));
  if (r.bad)
    dsm__fatal(DSM__EXIT_FATAL, "malformed FLUSH from rank %u", m->origin);
  memcpy(their, t, dsm__nprocs * sizeof(uint32_t));
  dsm__buf_t b = { 0 };
  pthread_mutex_lock(&dsm__mu);
  if (dsm__intervals_decode(&r) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "malformed FLUSH from rank %u", m->origin);
  /* A diff a collective holds must be on its way before its record goes. */
  dsm__diff_unhold();
  dsm__intervals_encode_applied(&b, their);
  news_add();
  pthread_mutex_unlock(&dsm__mu);
  dsm__tp_reply(dsm__reqh(m), b.p, b.len);
  dsm__buf_free(&b);
}

/* FLUSH with the ranks in dst (ndst of them): send them our new records
 * (after a release, if release), take theirs. */
static void exchange(const unsigned *dst, unsigned ndst, int release)
{
  dsm__buf_t *bufs = dsm__xcalloc(ndst ? ndst : 1, sizeof *bufs);
  dsm__call_t *calls = dsm__xcalloc(ndst ? ndst : 1, sizeof *calls);
  pthread_mutex_lock(&dsm__mu);
  if (release)
    dsm__release();
  dsm__diff_unhold();
  for (unsigned k = 0; k < ndst; k++) {
    unsigned p = dst[k];
    dsm__vt_encode(&bufs[k], dsm__known);
    dsm__own_intervals_encode(&bufs[k], flushed_to[p]);
    flushed_to[p] = dsm__known[dsm__rank];
    calls[k].dst = p;
    calls[k].type = DSM__MSG_FLUSH;
    calls[k].req = bufs[k].p;
    calls[k].req_len = bufs[k].len;
  }
  pthread_mutex_unlock(&dsm__mu);
  dsm__tp_call_many(calls, ndst);
  pthread_mutex_lock(&dsm__mu);
  for (unsigned k = 0; k < ndst; k++) {
    dsm__rd_t r = dsm__rd(calls[k].reply, calls[k].reply_len);
    if (dsm__intervals_decode(&r) < 0)
      dsm__fatal(DSM__EXIT_FATAL, "malformed FLUSH answer from rank %u", dst[k]);
  }
  pthread_mutex_unlock(&dsm__mu);
  for (unsigned k = 0; k < ndst; k++) {
    dsm__buf_free(&bufs[k]);
    free(calls[k].reply);
  }
  free(bufs);
  free(calls);
}

static void flush_all(void *unused)
{
  unsigned dst[DSM__MAX_PROCS], n = 0;
  for (unsigned p = 0; p < dsm__nprocs; p++)
    if (p != dsm__rank)
      dst[n++] = p;
  exchange(dst, n, 1);
  pthread_mutex_lock(&dsm__mu);
  dsm__acquire();
  news_add();            /* the process's other threads spinning: look again */
  pthread_mutex_unlock(&dsm__mu);
}

void dsm__flush(void)
{
  if (dsm__nprocs > 1)
    dsm__on_private_stack(flush_all, NULL);
}

/* Per thread: the spin it is in. */
static __thread struct {
  int on;
  uint64_t news;         /* the news it has applied */
  uint64_t wait;         /* ns to wait for news before flushing anyway */
} spin;

/* Waits for news, or until spin.wait has passed. Without the gate
 * (threads.c): the news it waits for may be a flush by a thread of this
 * process, which needs the gate to make it. Holding it here, LU with two
 * threads per process crawled: the other thread got the gate only when a
 * wait timed out, and lost the race for it to the next spin_step (the CI run
 * of 2026-12-07 timed out after 300 s at class S). */
static void wait_for_news(void)
{
  unsigned gate = dsm__gate_drop();
  pthread_mutex_lock(&dsm__mu);
  if (news == spin.news) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t until = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec + spin.wait;
    ts.tv_sec = (time_t)(until / 1000000000ull);
    ts.tv_nsec = (long)(until % 1000000000ull);
    uint64_t t0 = dsm__now_ns();
    while (news == spin.news &&
           pthread_cond_timedwait(&news_cv, &dsm__mu, &ts) != ETIMEDOUT)
      ;
    DSM__STAT_ADD(blocked_ns, dsm__now_ns() - t0);
  }
  pthread_mutex_unlock(&dsm__mu);
  dsm__gate_take(gate);
}

static void spin_step(void *unused)
{
  wait_for_news();
  pthread_mutex_lock(&dsm__mu);
  if (news != spin.news) {
    spin.news = news;
    spin.wait = SPIN_WAIT_MIN;
    dsm__acquire();
    pthread_mutex_unlock(&dsm__mu);
    return;
  }
  pthread_mutex_unlock(&dsm__mu);
  spin.wait = spin.wait * 2 > SPIN_WAIT_MAX ? SPIN_WAIT_MAX : spin.wait * 2;
  flush_all(NULL);
  pthread_mutex_lock(&dsm__mu);
  spin.news = news;
  pthread_mutex_unlock(&dsm__mu);
}

void dsm__flush_spin(void)
{
  if (dsm__nprocs == 1) {
    sched_yield();       /* the flag's writer is a thread of ours: let it run */
    return;
  }
  if (!spin.on) {
    spin.on = 1;
    spin.wait = SPIN_WAIT_MIN;
    dsm__on_private_stack(flush_all, NULL);
    pthread_mutex_lock(&dsm__mu);
    spin.news = news;
    pthread_mutex_unlock(&dsm__mu);
    return;
  }
  dsm__on_private_stack(spin_step, NULL);
}

static void seen_acquire(void *unused)
{
  uint32_t need[DSM__MAX_PROCS];
  unsigned dst[DSM__MAX_PROCS], n = 0;
  pthread_mutex_lock(&dsm__mu);
  dsm__seen_unknown(need);
  for (unsigned q = 0; q < dsm__nprocs; q++)
    if (need[q])
      dst[n++] = q;
  pthread_mutex_unlock(&dsm__mu);
  if (n)
    exchange(dst, n, 0);
  pthread_mutex_lock(&dsm__mu);
  for (unsigned q = 0; q < dsm__nprocs; q++)
    if (q != dsm__rank && dsm__seen[q] > dsm__vt[q]) {
      dsm__acquire();
      break;
    }
  pthread_mutex_unlock(&dsm__mu);
}

void dsm__flush_spin_end(void)
{
  spin.on = 0;
  if (dsm__nprocs > 1)
    dsm__on_private_stack(seen_acquire, NULL);
}

void dsm__flush_init(void)
{
  pthread_cond_init(&news_cv, NULL);
  dsm__tp_handle(DSM__MSG_FLUSH, on_flush);
  flushed_to = dsm__xcalloc(dsm__nprocs, sizeof *flushed_to);
}
