/*
 * interval.c — vector time, the interval store, release and acquire.
 *
 * The store keeps, for each process q, the records of q's intervals
 * gc_vt[q]+1 .. known[q], contiguous: every sender ships all records newer
 * than what the receiver reported knowing, so a gap can never appear.
 *
 * A release closes the open interval: the pages written in it become one
 * record, pages homed here advance their version and are pushed to their
 * subscribers, pages homed elsewhere send their diffs home, and all of them
 * are write-protected again (in runs, one mprotect each). An acquire turns
 * every record not yet applied into needs on the pages it names; copies that
 * no longer hold every write they must are invalidated, unless a pushed copy
 * that does is waiting (fetch.c).
 */
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "dsm_internal.h"
#include "lrc.h"
#include "page_state.h"
#include "profile.h"
#include "onesided.h"
#include "record_msg.h"

static dsm__interval_t ***store;    /* store[q][idx - gc_vt[q] - 1] */
static size_t *store_cap;

static void *xalloc(size_t n)
{
  void *p = calloc(1, n ? n : 1);
  if (!p) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  return p;
}

void dsm__lrc_init(void)
{
  dsm__lrc_state_init();
  store = xalloc(dsm__nprocs * sizeof *store);
  store_cap = xalloc(dsm__nprocs * sizeof *store_cap);
}

static size_t interval_bytes(const dsm__interval_t *iv)
{
  return sizeof *iv + (dsm__nprocs + iv->npages) * sizeof(uint32_t);
}

static void store_put(dsm__interval_t *iv)
{
  uint32_t q = iv->proc;
  size_t slot = iv->idx - dsm__gc_vt[q] - 1;
  DSM__ASSERT(iv->idx == dsm__known[q] + 1);
  if (slot >= store_cap[q]) {
    size_t cap = store_cap[q] ? store_cap[q] * 2 : 64;
    while (cap <= slot) cap *= 2;
    store[q] = realloc(store[q], cap * sizeof *store[q]);
    if (!store[q]) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    store_cap[q] = cap;
  }
  store[q][slot] = iv;
  dsm__known[q] = iv->idx;
  dsm__stats_consistency((int64_t)interval_bytes(iv));
}

dsm__interval_t *dsm__interval_get(uint32_t proc, uint32_t idx)
{
  if (proc >= dsm__nprocs || idx <= dsm__gc_vt[proc] || idx > dsm__known[proc])
    return NULL;
  return store[proc][idx - dsm__gc_vt[proc] - 1];
}

/* ---- release ------------------------------------------------------------------------ */

/* The record of the interval a release closes: the pages written in it,
 * and vt with the interval counted. */
static dsm__interval_t *interval_close(void)
{
  uint32_t me = dsm__rank;
  dsm__interval_t *iv = xalloc(sizeof *iv);
  iv->proc = me;
  iv->idx = dsm__vt[me] + 1;
  iv->npages = (uint32_t)dsm__ndirty;
  iv->vt = xalloc(dsm__nprocs * sizeof(uint32_t));
  iv->pages = xalloc(dsm__ndirty * sizeof(uint32_t));
  memcpy(iv->pages, dsm__dirty, dsm__ndirty * sizeof(uint32_t));
  dsm__vt[me] = iv->idx;
  memcpy(iv->vt, dsm__vt, dsm__nprocs * sizeof(uint32_t));
  return iv;
}

/* A release's diffs are made here. Only used under dsm__mu, so one buffer
 * serves everyone. */
static uint8_t diff_tmp[5 * DSM__PAGE / 2 + 64];

/* A written page homed here, at the release of interval idx. Returns 1
 * when it stays writable (hot.c). */
static int release_home(uint32_t pg, dsm__page_t *p, uint32_t idx, dsm__carry_t **carry,
                        uint32_t since)
{
  if (p->twin)
    dsm__prof_home_wrote(pg, dsm__epoch, p->twin, dsm__page_sys(pg));
  if (carry) {
    /* Our own writes only: diffs applied meanwhile went into the twin too. */
    size_t len = dsm__diff_encode(p->twin, dsm__page_current(pg), DSM__PAGE, diff_tmp);
    dsm__carry_add(carry, pg, idx, p->pv, diff_tmp, len);
  }
  int pushed = dsm__home_released(pg, p, idx, carry != NULL);
  /* The lock's next holder may make its copy current from the carried
   * diff, without asking us: the page must not turn exclusive. */
  if (carry)
    p->tainted = 1;
  if (dsm__hot_keep(pg, p, since, pushed)) {
    p->dirty = 1;      /* writable, its twin the page as released */
    return 1;
  }
  dsm__twin_free(p->twin);
  p->twin = NULL;
  return 0;
}

/* A written copy homed elsewhere: its diff goes home. Returns 1 when it
 * stays writable. */
static int release_copy(uint32_t pg, dsm__page_t *p, uint32_t idx, dsm__carry_t **carry,
                        uint32_t since)
{
  uint32_t me = dsm__rank;
  /* Even an empty diff goes home: it moves the home's version past this
   * interval, which readers holding our notice wait for. */
  DSM__ASSERT(p->twin);
  if (carry || !dsm__diff_defer(pg, p, idx)) {
    size_t len = dsm__diff_encode(p->twin, dsm__page_current(pg), DSM__PAGE, diff_tmp);
    dsm__diff_queue(pg, p->home, idx, p->pv, diff_tmp, len);
    if (carry)
      dsm__carry_add(carry, pg, idx, p->pv, diff_tmp, len);
    dsm__page_pv(p)[me] = idx;
    /* A copy written in interval after interval (data that migrates
     * with a lock and comes back, a counter re-acquired locally) stays
     * writable like a hot home page (hot.c); not through a collective. */
    if (!dsm__diff_holding() && dsm__hot_keep(pg, p, since, 0)) {
      p->dirty = 1;
      return 1;
    }
    if (p->hot) {
      dsm__hot_drop(pg, p);
    } else {
      dsm__twin_free(p->twin);
      p->twin = NULL;
    }
  } else {
    dsm__hot_unlist(pg, p);      /* the held diff needs the twin */
  }
  dsm__page_pv(p)[me] = idx;
  return 0;
}

static void release(dsm__carry_t **carry, int scan)
{
  if (scan)
    dsm__hot_scan(dsm__diff_holding());
  dsm__write_ahead_settle();
  if (!dsm__ndirty)
    return;
  dsm__interval_t *iv = interval_close();

  /* Other threads of this process (threads.c) keep running through the
   * release: a write landing between a page's diff and its protection would
   * be in neither this interval nor the next. So with more than one thread
   * every written page is write-protected before any diff is made, and a
   * write after that faults and waits for the gate. (No page turns hot
   * then, hot.c: a hot page is left writable through releases.) */
  if (dsm__threads > 1) {
    for (size_t i = 0; i < dsm__ndirty; i++)
      if (dsm__page(dsm__dirty[i])->prot == DSM__PROT_WRITE)
        dsm__prot_queue(dsm__dirty[i], DSM__PROT_READ);
    dsm__prot_flush();
  }

  DSM__ASSERT(dsm__diff_max(DSM__PAGE) <= sizeof diff_tmp);
  for (size_t i = 0; i < dsm__ndirty; i++) {
    uint32_t pg = dsm__dirty[i];
    dsm__page_t *p = dsm__page(pg);
    p->dirty = 0;
    uint32_t since = p->own_last ? iv->idx - p->own_last : 0;
    p->own_last = iv->idx;
    if (p->home == dsm__rank ? release_home(pg, p, iv->idx, carry, since)
                             : release_copy(pg, p, iv->idx, carry, since))
      continue;
    /* Write-protected so that a write in the next interval is seen. */
    if (p->prot == DSM__PROT_WRITE)
      dsm__prot_queue(pg, DSM__PROT_READ);
  }
  dsm__prot_flush();
  for (size_t i = 0; i < dsm__ndirty; i++) {
    dsm__os_home_end(dsm__dirty[i]);   /* vt[me] already counts the interval */
    dsm__page_check(dsm__dirty[i], "a release");
  }
  dsm__ndirty = 0;
  store_put(iv);
  DSM__STAT_INC(intervals);
  dsm__home_flush_release();
}

void dsm__release(void) { release(NULL, 1); }

void dsm__release_carrying(dsm__carry_t **carry) { release(carry, 1); }

/* ---- acquire ------------------------------------------------------------------------ */

static void acquire(int scan)
{
  /* An acquire ends the open interval, as a release does. Otherwise a page
   * written in the open interval could be invalidated below and refreshed
   * from its home over our own writes. */
  release(NULL, scan);
  int any = 0;
  for (uint32_t q = 0; q < dsm__nprocs; q++) {
    if (q == dsm__rank)
      continue;
    for (uint32_t i = dsm__vt[q] + 1; i <= dsm__known[q]; i++) {
      dsm__interval_t *iv = dsm__interval_get(q, i);
      DSM__ASSERT(iv);
      for (uint32_t k = 0; k < iv->npages; k++) {
        uint32_t pg = iv->pages[k];
        dsm__page_t *p = dsm__page(pg);
        if (p->home == dsm__rank) {
          /* Our copy is the master copy; q's diff may still be on its way. */
          p->tainted = 1;
          if (p->pv && p->pv[q] >= i)
            continue;
          dsm__need_add(pg, p, q, i);
          dsm__hot_drop(pg, p);     /* the release above made the twin the page */
          if (p->prot != DSM__PROT_NONE)
            dsm__prot_queue(pg, DSM__PROT_NONE);
          dsm__page_check(pg, "a write notice");
          continue;
        }
        dsm__need_add(pg, p, q, i);
        dsm__hot_drop(pg, p);       /* a copy: the release above made the twin the page */
        if (p->valid || p->pushed) {
          if (p->pushed == DSM__PUSHED_COPY) {
            if (p->push_idle < 255)
              p->push_idle++;
            p->push_trust_next = 0;   /* a probe found unused: trust starts again (pushed.c) */
          } else if (p->pushed == DSM__PUSHED_RUN && p->push_idle < DSM__PUSH_IDLE_UNSUB - 1) {
            /* Fetched ahead with a cold run and never used: we do not
             * read it, and one more push unread ends the subscription
             * that fetch made (the stencil's boundary rows overshoot 62
             * pages into the other process's rows, each pushed three
             * times before this). */
            p->push_idle = DSM__PUSH_IDLE_UNSUB - 1;
          }
          p->valid = 0;
          p->pushed = 0;
          DSM__STAT_INC(invalidations);
        }
        if (p->prot != DSM__PROT_NONE)
          dsm__prot_queue(pg, DSM__PROT_NONE);
        dsm__page_check(pg, "a write notice");
        any = 1;
      }
    }
    if (dsm__known[q] > dsm__vt[q])
      dsm__vt[q] = dsm__known[q];
  }
  /* Before the flush: a page that a pushed copy makes valid again at once
   * need not be protected at all. */
  if (any)
    dsm__pushed_install();
  dsm__prot_flush();
}

void dsm__acquire(void) { acquire(1); }

void dsm__acquire_after_release(void) { acquire(0); }

/* ---- records on the wire -------------------------------------------------------------- */

/* Records go out from the store here; their wire form, and the decoder
 * that refuses a malformed list before it touches the store, are in
 * record_msg.c. */

void dsm__intervals_encode(dsm__buf_t *b, const uint32_t *their)
{
  size_t count_at = dsm__records_begin(b);
  uint32_t count = 0;
  for (uint32_t q = 0; q < dsm__nprocs; q++) {
    uint32_t from = their[q] > dsm__gc_vt[q] ? their[q] : dsm__gc_vt[q];
    for (uint32_t i = from + 1; i <= dsm__known[q]; i++) {
      dsm__record_put(b, dsm__interval_get(q, i), dsm__nprocs);
      count++;
    }
  }
  dsm__records_end(b, count_at, count);
}

void dsm__intervals_encode_applied(dsm__buf_t *b, const uint32_t *their)
{
  size_t count_at = dsm__records_begin(b);
  uint32_t count = 0;
  for (uint32_t q = 0; q < dsm__nprocs; q++) {
    uint32_t from = their[q] > dsm__gc_vt[q] ? their[q] : dsm__gc_vt[q];
    uint32_t upto = q == dsm__rank ? dsm__known[q] : dsm__vt[q];
    for (uint32_t i = from + 1; i <= upto; i++) {
      dsm__record_put(b, dsm__interval_get(q, i), dsm__nprocs);
      count++;
    }
  }
  dsm__records_end(b, count_at, count);
}

void dsm__own_intervals_encode(dsm__buf_t *b, uint32_t after)
{
  uint32_t me = dsm__rank;
  if (after < dsm__gc_vt[me]) after = dsm__gc_vt[me];
  size_t count_at = dsm__records_begin(b);
  for (uint32_t i = after + 1; i <= dsm__known[me]; i++)
    dsm__record_put(b, dsm__interval_get(me, i), dsm__nprocs);
  dsm__records_end(b, count_at, dsm__known[me] - after);
}

/* A decoded list into the store: the records not held yet, in order. */
static void intervals_take(const dsm__records_t *rs)
{
  dsm__record_t rec;
  for (size_t off = 0; dsm__records_next(rs, &off, &rec);) {
    if (rec.idx <= dsm__known[rec.proc])
      continue;                 /* already held */
    /* Copied out: vt and pages may be misaligned in the message. */
    dsm__interval_t *iv = xalloc(sizeof *iv);
    iv->proc = rec.proc;
    iv->idx = rec.idx;
    iv->npages = rec.npages;
    iv->vt = xalloc(dsm__nprocs * sizeof(uint32_t));
    iv->pages = xalloc(rec.npages * sizeof(uint32_t));
    memcpy(iv->vt, rec.vt, dsm__nprocs * sizeof(uint32_t));
    memcpy(iv->pages, rec.pages, rec.npages * sizeof(uint32_t));
    store_put(iv);
  }
}

int dsm__intervals_decode(dsm__rd_t *r)
{
  dsm__records_t rs;
  if (!dsm__records_read(&rs, r, dsm__nprocs, dsm__npages, dsm__known))
    return -1;
  intervals_take(&rs);
  return 0;
}

void dsm__intervals_discard(const uint32_t *upto)
{
  for (uint32_t q = 0; q < dsm__nprocs; q++) {
    uint32_t last = upto[q] < dsm__known[q] ? upto[q] : dsm__known[q];
    if (last <= dsm__gc_vt[q])
      continue;
    size_t n = last - dsm__gc_vt[q];
    for (size_t k = 0; k < n; k++) {
      dsm__interval_t *iv = store[q][k];
      dsm__stats_consistency(-(int64_t)interval_bytes(iv));
      free(iv->vt);
      free(iv->pages);
      free(iv);
    }
    /* Records newer than upto (a peer's next epoch, already here) stay. */
    memmove(store[q], store[q] + n, (dsm__known[q] - last) * sizeof *store[q]);
    dsm__gc_vt[q] = last;
  }
}
