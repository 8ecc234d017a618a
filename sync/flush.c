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
 *
 * Flushes that wait (watches). A flush is a release: it ends the interval,
 * write-protects what it wrote and sends the diffs. NAS LU flushes after
 * every row, but another process waits for one row in 15 or more (the
 * last of the producer's chunk): at class W on 2 processes that was 3.2
 * million write faults and 576,000 flushes, 171 s against 4 s alone. So
 * the program's flush directive (dsm__flush_user) releases only when
 * someone may be waiting for it; else it waits, and the interval goes on.
 * Who waits: a spin whose condition reads one word (`flag[i] == 0`)
 * registers that word with every peer in the FLUSH that starts it
 * (ompdsmcc passes its address, __ompdsm_spin_watch); a flush releases
 * when a peer's registered word differs from its twin, the page as of our
 * last release. A spin on anything else registers "any", which makes the
 * next flush release. Watches on words stay (up to WATCH_MAX per peer, the
 * oldest replaced): a pipeline's next plane waits on the same word. And a
 * flush releases anyway when:
 *  - the last release is DSM_FLUSH_WAIT_US old (1 ms): a program that
 *    polls a flag in a loop that does other work too (no spin) sees it
 *    within that;
 *  - a peer's FLUSH came while one waited (must_release): it may be such
 *    a poller, or a spin that registered after the word was written.
 * Before this process blocks (a lock, a semaphore, a condition, a task
 * wait, ordered, a barrier), a flush that waited happens
 * (dsm__flush_settle): whoever it blocks for may be spinning on it. A
 * flush that waits acquires nothing either: it is as if it came before
 * the others' in OpenMP's order of flushes, which nothing can tell apart
 * but time. DSM_FLUSH_WAIT=0 makes every flush release at once.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dsm_internal.h"
#include "lrc.h"
#include "private_stack.h"
#include "sync.h"
#include "net/transport.h"
#include "region.h"

#define SPIN_WAIT_MIN (1000000ull)      /* 1 ms without news: flush anyway */
#define SPIN_WAIT_MAX (32000000ull)

static uint32_t *flushed_to;   /* own intervals already sent to each peer */

/* What a FLUSH request says of its sender (its first u32). */
#define FL_PLAIN 0u      /* a flush */
#define FL_WORD  1u      /* a spin on the word that follows (u32 len, u64 addr) */
#define FL_ANY   2u      /* a spin on something else */

#define WATCH_MAX 8

/* Under dsm__mu. */
static struct watch { uint64_t addr; uint32_t len, stamp; } (*watches)[WATCH_MAX];
static uint8_t *watch_any;     /* per peer: spins on a word we do not know */
static uint32_t watch_clock;
static int deferred;           /* a flush waited: its interval is still open */
static int must_release;       /* a peer flushed or spun since */
static uint64_t last_release_ns;
static unsigned spinners;      /* this process's threads in a spin */
static int wait_ok = -1;       /* DSM_FLUSH_WAIT */
static uint64_t rel_max_ns;    /* a flush releases at least this often (DSM_FLUSH_WAIT_US) */

/* Records came (a peer's FLUSH) or a thread of ours flushed. Under dsm__mu. */
static uint64_t news;
static pthread_cond_t news_cv;

static void news_add(void)
{
  news++;
  pthread_cond_broadcast(&news_cv);
}

/* Has the word at [addr, addr+len) changed since our last release? Under
 * dsm__mu. A page written in the open interval has its twin, the page as
 * of that release (or the home's last release, for a hot page); one
 * without a twin that may be written (the home's exclusive copy) counts
 * as changed. An address outside shared memory too. */
static int word_changed(uint64_t addr, uint32_t len)
{
  for (uint64_t a = addr; a < addr + len; ) {
    long pg = dsm__page_of((const void *)(uintptr_t)a);
    if (pg < 0)
      return 1;
    uint64_t end = ((uint64_t)dsm__page_addr((uint32_t)pg) + DSM__PAGE);
    uint64_t n = (addr + len < end ? addr + len : end) - a;
    size_t off = (size_t)(a & (DSM__PAGE - 1));
    dsm__page_t *p = dsm__page((uint32_t)pg);
    if (p->twin) {
      if (memcmp(dsm__page_sys((uint32_t)pg) + off, p->twin + off, n))
        return 1;
    } else if (p->dirty || p->excl || p->hot) {
      return 1;
    }
    a += n;
  }
  return 0;
}

/* Must a flush release now? Under dsm__mu. */
static int release_due(void)
{
  if (!wait_ok || must_release || dsm__now_ns() - last_release_ns >= rel_max_ns)
    return 1;
  for (unsigned q = 0; q < dsm__nprocs; q++) {
    if (watch_any[q])
      return 1;
    for (unsigned k = 0; k < WATCH_MAX; k++)
      if (watches[q][k].len && word_changed(watches[q][k].addr, watches[q][k].len))
        return 1;
  }
  return 0;
}

static void watch_add(unsigned q, uint64_t addr, uint32_t len)
{
  struct watch *w = watches[q], *old = &w[0];
  for (unsigned k = 0; k < WATCH_MAX; k++) {
    if (w[k].len && w[k].addr == addr && w[k].len == len) {
      w[k].stamp = ++watch_clock;
      return;
    }
    if (!w[k].len || w[k].stamp < old->stamp)
      old = &w[k];
  }
  old->addr = addr, old->len = len, old->stamp = ++watch_clock;
}

static void on_flush(const dsm__msg_t *m)
{
  uint32_t their[DSM__MAX_PROCS];
  dsm__rd_t r = dsm__rd(m->data, m->len);
  uint32_t kind = dsm__rd_u32(&r), wlen = dsm__rd_u32(&r);
  uint64_t waddr = dsm__rd_u64(&r);
  const void *t = dsm__rd_take(&r, dsm__nprocs * sizeof(uint32_t));
  if (r.bad || kind > FL_ANY || (kind == FL_WORD && (wlen == 0 || wlen > 64)) || m->origin >= dsm__nprocs)
    dsm__fatal(DSM__EXIT_FATAL, "malformed FLUSH from rank %u", m->origin);
  memcpy(their, t, dsm__nprocs * sizeof(uint32_t));
  dsm__buf_t b = { 0 };
  pthread_mutex_lock(&dsm__mu);
  if (kind == FL_WORD)
    watch_add(m->origin, waddr, wlen);
  else if (kind == FL_ANY)
    watch_any[m->origin] = 1;
  /* A flush of ours waited: the asker may wait for it (a poller, or a
   * spin on a word written before it registered). Our next flush, or our
   * next wait, releases. */
  if (__atomic_load_n(&deferred, __ATOMIC_RELAXED))
    must_release = 1;
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
static void exchange(const unsigned *dst, unsigned ndst, int release, uint32_t kind,
                     const void *waddr, uint32_t wlen)
{
  dsm__buf_t *bufs = dsm__xcalloc(ndst ? ndst : 1, sizeof *bufs);
  dsm__call_t *calls = dsm__xcalloc(ndst ? ndst : 1, sizeof *calls);
  pthread_mutex_lock(&dsm__mu);
  if (release)
    dsm__release();
  dsm__diff_unhold();
  if (release) {
    __atomic_store_n(&deferred, 0, __ATOMIC_RELAXED);
    must_release = 0;
    last_release_ns = dsm__now_ns();
    memset(watch_any, 0, dsm__nprocs);   /* they hear of this flush */
  }
  for (unsigned k = 0; k < ndst; k++) {
    unsigned p = dst[k];
    dsm__buf_u32(&bufs[k], kind);
    dsm__buf_u32(&bufs[k], wlen);
    dsm__buf_u64(&bufs[k], (uint64_t)(uintptr_t)waddr);
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

/* Per thread: the spin it is in. */
static __thread struct {
  int on;
  uint64_t news;         /* the news it has applied */
  uint64_t wait;         /* ns to wait for news before flushing anyway */
  const void *addr;      /* the word its condition reads (len 0: not known) */
  uint32_t len;
} spin;

static void flush_all(void *unused)
{
  unsigned dst[DSM__MAX_PROCS], n = 0;
  for (unsigned p = 0; p < dsm__nprocs; p++)
    if (p != dsm__rank)
      dst[n++] = p;
  if (spin.on)
    exchange(dst, n, 1, spin.len ? FL_WORD : FL_ANY, spin.addr, spin.len);
  else
    exchange(dst, n, 1, FL_PLAIN, NULL, 0);
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

static void flush_user(void *unused)
{
  pthread_mutex_lock(&dsm__mu);
  if (release_due()) {
    pthread_mutex_unlock(&dsm__mu);
    flush_all(NULL);
    return;
  }
  __atomic_store_n(&deferred, 1, __ATOMIC_RELAXED);
  DSM__STAT_INC(flushes_waited);
  if (spinners)
    news_add();          /* a thread of ours spins: it reads our memory */
  pthread_mutex_unlock(&dsm__mu);
}

void dsm__flush_user(void)
{
  if (dsm__nprocs > 1)
    dsm__on_private_stack(flush_user, NULL);
}

static void settle(void *unused)
{
  /* Again with the gate: another thread of ours may have released since. */
  if (__atomic_load_n(&deferred, __ATOMIC_RELAXED))
    flush_all(NULL);
}

void dsm__flush_settle(void)
{
  /* a peek without the lock: only this process's threads set it, and a
   * thread sees its own flushes' */
  if (dsm__nprocs > 1 && __atomic_load_n(&deferred, __ATOMIC_RELAXED))
    dsm__on_private_stack(settle, NULL);
}

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
    dsm__blocked_since(t0);
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
    pthread_mutex_lock(&dsm__mu);
    spinners++;
    pthread_mutex_unlock(&dsm__mu);
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
    exchange(dst, n, 0, FL_PLAIN, NULL, 0);
  pthread_mutex_lock(&dsm__mu);
  for (unsigned q = 0; q < dsm__nprocs; q++)
    if (q != dsm__rank && dsm__seen[q] > dsm__vt[q]) {
      dsm__acquire();
      break;
    }
  pthread_mutex_unlock(&dsm__mu);
}

void dsm__flush_spin_watch(const void *addr, size_t size)
{
  spin.addr = addr;
  spin.len = size <= 64 ? (uint32_t)size : 0;   /* larger: not a word; hear of every flush */
}

void dsm__flush_spin_end(void)
{
  if (spin.on && dsm__nprocs > 1) {
    pthread_mutex_lock(&dsm__mu);
    spinners--;
    pthread_mutex_unlock(&dsm__mu);
  }
  spin.on = 0;
  spin.addr = NULL;
  spin.len = 0;
  if (dsm__nprocs > 1)
    dsm__on_private_stack(seen_acquire, NULL);
}

void dsm__flush_init(void)
{
  pthread_cond_init(&news_cv, NULL);
  dsm__tp_handle(DSM__MSG_FLUSH, on_flush);
  flushed_to = dsm__xcalloc(dsm__nprocs, sizeof *flushed_to);
  watches = dsm__xcalloc(dsm__nprocs, sizeof *watches);
  watch_any = dsm__xcalloc(dsm__nprocs, 1);
  wait_ok = (int)dsm__env_long("DSM_FLUSH_WAIT", 1, 0, 1);
  rel_max_ns = (uint64_t)dsm__env_long("DSM_FLUSH_WAIT_US", 1000, 1, 10000000) * 1000u;
}
