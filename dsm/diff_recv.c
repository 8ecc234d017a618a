/*
 * diff_recv.c — diffs arriving at a home, and who applies them.
 *
 * Every writer's DIFF messages are applied in the order the writer sent
 * them (seq); writes of one page land in happens-before order (a diff
 * waits until the home's copy holds the version its twin was taken from);
 * a DIFF from a later epoch waits until the collective that moved its
 * pages is applied here. Until its turn a message waits in a list per
 * writer.
 *
 * Who applies. A small DIFF is applied by the thread that received it
 * (the service thread, or a thread waiting for an event), as any handler
 * runs. A large one (more than SLICE pages) is applied by a thread of its
 * own, SLICE pages at a time under dsm__mu: received and applied by the
 * service thread, a task's completion in sort_task (up to 50 MB of diffs,
 * 90 ms to apply) held up every request behind it, and the other process,
 * faulting on pages that had nothing to do with the diff, waited the whole
 * 90 ms for its PAGE to be read. Now the service thread hands the message
 * over and goes on; a PAGE request waits at most one slice for dsm__mu,
 * and is answered at once unless it needs a page the message has not
 * reached yet (the home defers it, as for any missing diff, and answers it
 * after the slice that brings the page). The hand-off costs a wake-up, which
 * the size of the message pays for many times over.
 */
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "dsm_internal.h"
#include "lrc.h"
#include "onesided.h"
#include "profile.h"
#include "net/transport.h"

/* Pages applied in one go, and the largest message applied by the thread
 * that received it: about 256 KiB of diffs, 50-100 us. */
#define SLICE 64

/* A DIFF message waiting for its turn, or being applied: its first `done`
 * pages are in; `off` is where the next one starts in data. */
struct held_diff {
  struct held_diff *next;
  uint32_t seq, done, count;
  size_t off;
  uint8_t *data;
  size_t len;
};

static uint32_t *diff_applied;           /* [writer]: DIFF messages applied so far */
static struct held_diff **held_diffs;    /* [writer], sorted by seq */

static pthread_cond_t apply_cv = PTHREAD_COND_INITIALIZER;   /* work for the applier */
static int applier_running, applier_idle, apply_work;

/* Does our copy of p hold base, the version the writer's twin was taken
 * from? Diffs of different writers travel separately, and a writer may have
 * got an earlier writer's bytes without our copy (a lock carries diffs to
 * its next holder: carry.c), so a diff can arrive before one that
 * happened before it. It waits until its base is here. */
static int holds_base(const dsm__page_t *p, const uint32_t *base)
{
  for (unsigned q = 0; q < dsm__nprocs; q++) {
    uint32_t b;
    memcpy(&b, base + q, 4);
    if (b && (!p->pv || p->pv[q] < b))
      return 0;
  }
  return 1;
}

/* DIFF: seq, epoch, idx, count, then per page: pg, len, base[nprocs], diff.
 * Apply up to max more pages of d. Returns 1 when d is complete, 2 when
 * pages are left, 0 when the next pages must wait (for our epoch, or for
 * an earlier writer's diff); nothing of that slice is applied then. */
static int apply_slice(unsigned writer, struct held_diff *d, uint32_t max)
{
  dsm__rd_t r = dsm__rd(d->data, d->len);
  (void)dsm__rd_u32(&r);
  uint32_t epoch = dsm__rd_u32(&r), idx = dsm__rd_u32(&r);
  (void)dsm__rd_u32(&r);
  if (d->off)
    r.off = d->off;
  uint32_t n_slice = d->count - d->done < max ? d->count - d->done : max;
  dsm__rd_t scan = r;
  for (uint32_t k = 0; k < n_slice; k++) {
    uint32_t pg = dsm__rd_u32(&scan), n = dsm__rd_u32(&scan);
    const uint32_t *base = dsm__rd_take(&scan, dsm__nprocs * 4);
    if (scan.bad || pg >= dsm__npages || !dsm__rd_take(&scan, n))
      dsm__fatal(DSM__EXIT_FATAL, "malformed DIFF from rank %u", writer);
    dsm__page_t *p = dsm__page(pg);
    if (p->home != dsm__rank) {
      if (epoch > dsm__epoch)
        return 0;          /* the page moves here at a collective we have not seen yet */
    } else if (!holds_base(p, base)) {
      return 0;
    }
  }
  for (uint32_t k = 0; k < n_slice; k++) {
    uint32_t pg = dsm__rd_u32(&r), n = dsm__rd_u32(&r);
    r.off += dsm__nprocs * 4;
    const uint8_t *dd = dsm__rd_take(&r, n);
    dsm__page_t *p = dsm__page(pg);
    if (p->home != dsm__rank) {
      /* Sent before a collective moved the page: its new home holds these
       * writes already (it wrote the page alone in that epoch, and had to
       * hold every earlier write to do so). */
      if (epoch < dsm__epoch)
        continue;
      dsm__fatal(DSM__EXIT_FATAL, "internal error: rank %u sent me its diff of page %u in "
                 "epoch %u, but its home is rank %u", writer, pg, epoch, p->home);
    }
    uint32_t *pv = dsm__page_pv(p);
    if (pv[writer] >= idx)
      continue;            /* already here */
    dsm__os_home_begin(pg);
    if (dsm__diff_apply(dsm__page_sys(pg), DSM__PAGE, dd, n) < 0)
      dsm__fatal(DSM__EXIT_FATAL, "malformed diff from rank %u for page %u", writer, pg);
    dsm__prof_in(pg, n, DSM__PROF_DIFF);
    dsm__prof_wrote(pg, writer, epoch, dd, n);
    /* Written in our open interval too: the twin we answer fetches with
     * must hold what pv is about to claim (the writer's bytes are not ours,
     * in a program without data races). */
    if (p->dirty && p->twin)
      dsm__diff_apply(p->twin, DSM__PAGE, dd, n);
    pv[writer] = idx;
    if (idx > dsm__seen[writer])
      dsm__seen[writer] = idx;   /* our program can read it before acquiring it (lrc.h) */
    p->tainted = 1;      /* the writer holds a copy */
    dsm__home_catch_up(pg, p, 1);
    dsm__os_home_end(pg);
    DSM__STAT_INC(diffs_applied);
    DSM__STAT_ADD(diff_bytes_applied, n);
  }
  dsm__prot_flush();      /* the pages made readable again, as runs */
  d->off = r.off;
  d->done += n_slice;
  if (d->done < d->count)
    return 2;
  if (r.off != r.len)
    dsm__fatal(DSM__EXIT_FATAL, "malformed DIFF from rank %u", writer);
  return 1;
}

static int large(const struct held_diff *d)
{
  return d->count - d->done > SLICE;
}

/* Apply the writer's messages that are next in line. `slices`: how many
 * slices of a large message to apply (0: leave large messages to the
 * applier). Returns whether anything was applied; *left says a large
 * message is next in line with pages left. */
static int drain(unsigned writer, unsigned slices, int *left)
{
  int any = 0;
  struct held_diff *d;
  while ((d = held_diffs[writer]) && d->seq == diff_applied[writer] + 1) {
    int big = large(d);
    if (big && !slices) {
      *left = 1;
      break;
    }
    int st = apply_slice(writer, d, big ? SLICE : d->count);
    if (st == 0)
      break;
    any = 1;
    if (big)
      DSM__STAT_INC(diff_slices);
    if (st == 2) {
      slices--;
      if (!slices) {
        *left = 1;
        break;
      }
      continue;
    }
    held_diffs[writer] = d->next;
    diff_applied[writer]++;
    free(d->data);
    free(d);
  }
  return any;
}

static void *applier_main(void *unused)
{
  (void)unused;
  pthread_mutex_lock(&dsm__mu);
  for (;;) {
    while (!apply_work) {
      applier_idle = 1;
      pthread_cond_wait(&apply_cv, &dsm__mu);
      applier_idle = 0;
    }
    apply_work = 0;
    int more = 1;
    while (more) {
      more = 0;
      int left = 0;
      for (unsigned w = 0; w < dsm__nprocs; w++)
        more |= drain(w, 1, &left);
      if (more) {
        dsm__home_diffs_in();
        /* Between slices: whoever waits for dsm__mu (a PAGE request, the
         * application's fault) goes first. */
        pthread_mutex_unlock(&dsm__mu);
        sched_yield();
        pthread_mutex_lock(&dsm__mu);
      }
    }
  }
  return NULL;
}

/* Under dsm__mu: apply what the receiving thread may, and leave the large
 * messages to the applier. Returns whether anything was applied (and the
 * waiting requests looked at again). */
static int drain_all(void)
{
  int any = 0, more = 1, left = 0;
  while (more) {
    more = 0;
    for (unsigned w = 0; w < dsm__nprocs; w++)
      more |= drain(w, 0, &left);
    any |= more;
  }
  if (any)
    dsm__home_diffs_in();
  if (left) {
    if (!applier_running) {
      pthread_t t;
      if (pthread_create(&t, NULL, applier_main, NULL))
        dsm__fatal(DSM__EXIT_FATAL, "cannot start the diff applier thread");
      pthread_detach(t);
      applier_running = 1;
    }
    apply_work = 1;
    if (applier_idle) {
      DSM__STAT_INC(wakeups);    /* a hand-off, counted like the others */
      pthread_cond_signal(&apply_cv);
    }
  }
  return any;
}

static void on_diff(const dsm__msg_t *m)
{
  dsm__rd_t r = dsm__rd(m->data, m->len);
  uint32_t seq = dsm__rd_u32(&r);
  (void)dsm__rd_u32(&r);
  (void)dsm__rd_u32(&r);
  uint32_t count = dsm__rd_u32(&r);
  if (r.bad || m->origin >= dsm__nprocs)
    dsm__fatal(DSM__EXIT_FATAL, "malformed DIFF from rank %u", m->origin);
  unsigned w = m->origin;
  /* A large message is kept as the transport reassembled it, not copied. */
  uint8_t *data = dsm__tp_keep(m);
  pthread_mutex_lock(&dsm__mu);
  if (seq <= diff_applied[w]) {
    pthread_mutex_unlock(&dsm__mu);
    free(data);
    return;
  }
  struct held_diff **pp = &held_diffs[w];
  while (*pp && (*pp)->seq < seq) pp = &(*pp)->next;
  if (*pp && (*pp)->seq == seq) {
    pthread_mutex_unlock(&dsm__mu);
    free(data);
    return;
  }
  struct held_diff *d = dsm__xcalloc(1, sizeof *d);
  d->seq = seq;
  d->count = count;
  if (!data) {
    data = dsm__xcalloc(1, m->len);
    memcpy(data, m->data, m->len);
  }
  d->data = data;
  d->len = m->len;
  d->next = *pp;
  *pp = d;
  drain_all();
  pthread_mutex_unlock(&dsm__mu);
}

void dsm__diff_recv_retry(void)
{
  /* Requests may wait for the collective itself, not only for diffs. */
  if (!drain_all())
    dsm__home_diffs_in();
}

void dsm__diff_recv_init(void)
{
  unsigned n = dsm__nprocs;
  diff_applied = dsm__xcalloc(n, sizeof *diff_applied);
  held_diffs = dsm__xcalloc(n, sizeof *held_diffs);
  dsm__tp_handle(DSM__MSG_DIFF, on_diff);
}
