/*
 * home.c — the master copies: what a process does as the home of pages.
 *
 * A home's copy of a page is where every write ends up. Its own writes land
 * there directly; other writers send a diff at each release (DIFF, one-way,
 * batched per home), which the home applies in the order each writer sent
 * them (diff_recv.c). A process whose copy is out of date asks for the whole page (PAGE);
 * the home answers once its copy holds every interval the request names
 * (its version vector pv covers the needs), deferring the answer until the
 * diffs it lacks have come. A page the home is writing in its open interval
 * is answered with its twin, the page as of the home's last release: a copy
 * never holds a write its version vector does not claim.
 *
 * Exclusive pages. A home page that no one else holds a copy of needs no
 * tracking at all: it stays writable across releases, takes no fault and
 * produces no write notice. The first request for it write-protects it
 * (before the copy is taken, so no later write goes unseen) and it becomes
 * shared. At a collective of the whole job, a shared page that only its home
 * wrote since anyone else last took a copy is exclusive again: every other
 * copy was invalidated by the notice of that write (home_collective).
 *
 * Subscriptions and pushes. A process that fetched a page is subscribed to
 * it: at each release in which the home wrote the page, the home pushes the
 * page to its subscribers (PUSH, one-way, batched per reader), so that the
 * reader's next acquire finds the new copy already there instead of faulting
 * and asking (pushed.c). A reader that leaves a pushed copy untouched until
 * the next one arrives unsubscribes (UNSUB).
 *
 * Homes move (collective.c): a page written by one process only in an
 * epoch moves to that process. Requests and diffs name the epoch their
 * sender was in; one from a later epoch than ours waits until we get there.
 * An exclusive page that holds nothing goes to the first process that asks
 * for it, with the answer (first_touch.c); a request that names us for a
 * page we gave away so is answered with its new home (MOVED).
 */
#include <stdlib.h>
#include <string.h>

#include "coll_msg.h"
#include "diff.h"
#include "dsm_internal.h"
#include "profile.h"
#include "lrc.h"
#include "onesided.h"
#include "page_msg.h"
#include "page_state.h"
#include "net/transport.h"

struct dsm__homeinfo {
  uint64_t subs[DSM__MAX_PROCS / 64];   /* subscribed readers */
};

/* A PAGE request whose answer waits for diffs or for our epoch. */
struct held_req {
  struct held_req *next;
  dsm__reqh_t h;
  unsigned origin;
  uint8_t *data;
  size_t len;
};

static pthread_cond_t home_cv = PTHREAD_COND_INITIALIZER;   /* a diff was applied */

/* Release side: what this process sends as a home at a release. */
static uint32_t **push_pages;    /* [reader]: pages to push */
static size_t *push_n, *push_cap;
static uint32_t *push_seq;       /* [reader]: PUSH messages sent so far */
static uint32_t *push_told;      /* [reader]: push_seq as last told to a collective */

/* Home side. */
static struct held_req *held_reqs;

static int sub_has(const dsm__page_t *p, unsigned r)
{
  return p->hi && ((p->hi->subs[r / 64] >> (r % 64)) & 1);
}

static void sub_set(dsm__page_t *p, unsigned r, int on)
{
  if (!p->hi) {
    if (!on) return;
    p->hi = dsm__xcalloc(1, sizeof *p->hi);
  }
  if (on) p->hi->subs[r / 64] |= 1ull << (r % 64);
  else p->hi->subs[r / 64] &= ~(1ull << (r % 64));
}

static void subs_clear(dsm__page_t *p)
{
  free(p->hi);
  p->hi = NULL;
}

/* ---- serving copies ---------------------------------------------------------------- */

/* Another process takes a copy of home page pg. Returns 1 when the page
 * stops being exclusive: its write-protection is queued, and the caller
 * flushes the queue and then ends the page's busy state for one-sided
 * readers (dsm__os_home_end) before it copies the page. */
static int serve(uint32_t pg, dsm__page_t *p, unsigned reader)
{
  int was_excl = p->excl;
  DSM__DEBUG("serve page %u to rank %u%s%s", pg, reader, p->excl ? " (exclusive)" : "",
             p->dirty ? " (twin)" : "");
  if (p->excl) {
    /* Shared from now on: protect before the copy is taken, so that every
     * later write of ours faults, is recorded and reaches the reader as a
     * notice. Writes before this point are in the copy. */
    p->excl = 0;
    if (p->prot == DSM__PROT_WRITE)
      dsm__prot_queue(pg, DSM__PROT_READ);
  }
  p->tainted = 1;
  sub_set(p, reader, 1);
  DSM__STAT_INC(pages_served);
  return was_excl;
}


/* How a home answers each page of a PAGE request. */
enum { SERVE, MAYBE_GIVE, GIVE, MOVED, SKIP, GIVE_DATA, GIVEN_DATA };

struct answer {
  dsm__page_req_t q;
  unsigned origin;
  uint8_t what[DSM__RUN_MAX];
  uint32_t word[DSM__RUN_MAX];     /* MOVED: the new home; GIVE, GIVEN_DATA: the gift's generation */
  uint32_t was_excl[DSM__RUN_MAX]; /* pages that stopped being exclusive (serve) */
  uint32_t nexcl;
  int gifts;                       /* some page may go to the asker */
};

/* Does the run give pages with their data (first_touch.c, "with its
 * data")? The faulting page decides, from its state now; the passes
 * below ask again of every page. */
static int data_run_of(const dsm__page_req_t *q)
{
  if (!q->write)
    return 0;
  uint32_t pg = q->pages[q->fault_k];
  dsm__page_t *p = dsm__page(pg);
  return !dsm__first_touch_candidate(pg, p, q->write) && dsm__first_touch_data_candidate(pg, p);
}

/* Can every page be answered now? Not while a diff it needs is on its
 * way, or while the asker is in an epoch we have not reached. */
static int must_wait(const dsm__page_req_t *q, int data_run)
{
  for (uint32_t k = 0; k < q->count; k++) {
    uint32_t pg = q->pages[k];
    dsm__page_t *p = dsm__page(pg);
    /* Homed elsewhere: it moves here at a collective we have not seen yet
     * (wait for it), or it left with a first touch and the answer says
     * where it went (MOVED). */
    if (p->home != dsm__rank && q->epoch > dsm__epoch)
      return 1;
    /* A page given away now would be named in the departure we have not
     * applied yet (as ours) and in the asker's next arrival: wait until we
     * are in the asker's epoch, and give it then. */
    if (q->epoch > dsm__epoch && (dsm__first_touch_candidate(pg, p, q->write) ||
                                  (data_run && dsm__first_touch_data_candidate(pg, p))))
      return 1;
    if (p->home == dsm__rank && !dsm__page_req_met(q, k, p->pv))
      return 1;      /* a diff is still on its way */
  }
  return 0;
}

/* A run of consecutive pages that reaches from the faulting page's array
 * into the next large one stops at the boundary (dsm__alloc_splits_run):
 * the pages outside [*lo, *hi) are skipped, and asked for again if
 * touched. */
static void cut_run(const dsm__page_req_t *q, uint32_t *lo, uint32_t *hi)
{
  *lo = 0;
  *hi = q->count;
  for (uint32_t k = 1; k < q->count; k++)
    if (q->pages[k] == q->pages[k - 1] + 1 && dsm__alloc_splits_run(q->pages[k])) {
      if (k > q->fault_k && *hi == q->count)
        *hi = k;
      else if (k <= q->fault_k)
        *lo = k;
    }
}

/* What each page gets. Every page is write-protected before any is
 * copied: one mprotect for the run of a prefetch instead of one per page
 * (each is a TLB flush, tens of microseconds on a paravirtualised guest).
 * A page that may go to the asker (first_touch.c) is made inaccessible
 * instead, and given only if it still holds nothing once it is. */
static void choose(struct answer *a, int data_run)
{
  const dsm__page_req_t *q = &a->q;
  uint32_t keep_lo, keep_hi;
  cut_run(q, &keep_lo, &keep_hi);
  for (uint32_t k = 0; k < q->count; k++) {
    uint32_t pg = q->pages[k];
    dsm__page_t *p = dsm__page(pg);
    int may_give = 0;
    if (k < keep_lo || k >= keep_hi) {
      a->what[k] = SKIP;
      DSM__STAT_INC(run_cut);
    } else if (p->home != dsm__rank) {
      a->what[k] = MOVED;
    } else if (dsm__first_touch_candidate(pg, p, q->write)) {
      a->what[k] = MAYBE_GIVE;
      may_give = 1;
    } else if (data_run && dsm__first_touch_data_candidate(pg, p)) {
      a->what[k] = GIVE_DATA;
      may_give = 1;
    } else {
      a->what[k] = SERVE;
    }
    if (may_give) {
      a->gifts = 1;
      if (p->prot != DSM__PROT_NONE)
        dsm__prot_queue(pg, DSM__PROT_NONE);
    }
  }
  /* A run that gives the asker pages is the asker taking up memory of its
   * own; an exclusive page of ours with data in the same run is most
   * likely our own part of the array (OpenMP Sweep3D's planes alternate
   * nine pages of each process's rows). Served, it would turn shared for
   * good: our every later write a fault, a twin and a push of a page the
   * asker never reads (1,456 such pages in Sweep3D's first iteration, for
   * 63 read). So it is not sent, and the asker asks for it alone if it
   * touches it. The faulting page is always sent. */
  for (uint32_t k = 0; k < q->count; k++) {
    if (a->what[k] != SERVE)
      continue;
    dsm__page_t *p = dsm__page(q->pages[k]);
    if (a->gifts && k != q->fault_k && p->excl)
      a->what[k] = SKIP;
    else if (serve(q->pages[k], p, a->origin))
      a->was_excl[a->nexcl++] = q->pages[k];
  }
  dsm__prot_flush();
}

/* The pages that may go to the asker, inaccessible to our program now: a
 * page of zeros goes if nothing wrote it before the protection came (else
 * it is served as usual), a page of data goes with its bytes. */
static void give(struct answer *a)
{
  const dsm__page_req_t *q = &a->q;
  for (uint32_t k = 0; k < q->count; k++) {
    uint32_t pg = q->pages[k];
    if (a->what[k] != MAYBE_GIVE)
      continue;
    dsm__page_t *p = dsm__page(pg);
    if (dsm__first_touch_give(pg, p, a->origin, q->write, 0, &a->word[k])) {
      a->what[k] = GIVE;
    } else {
      /* Our program wrote it before the protection came: served as usual. */
      dsm__set_prot(pg, DSM__PROT_READ);
      a->what[k] = SERVE;
      if (serve(pg, p, a->origin))
        a->was_excl[a->nexcl++] = pg;
    }
  }
  for (uint32_t k = 0; k < q->count; k++)
    if (a->what[k] == GIVE_DATA) {
      dsm__first_touch_give(q->pages[k], dsm__page(q->pages[k]), a->origin, q->write, 1,
                            &a->word[k]);
      a->what[k] = GIVEN_DATA;
    }
  for (uint32_t k = 0; k < a->nexcl; k++)
    dsm__os_home_end(a->was_excl[k]);
}

/* The bytes of pages given with their data: our program's view of them
 * is closed, and the system view's mapping of a page our program wrote
 * was likely never touched, so they are read through the file (a first
 * touch of a mapping is a fault on this guest), one call per run of
 * consecutive pages: the stencil's first sweep serves 16 runs of 64, and
 * a call per page cost ~10 us of each ~110 us request. Page k's bytes are
 * at k pages into the buffer returned. */
static const uint8_t *read_given(const struct answer *a)
{
  static uint8_t *given;
  const dsm__page_req_t *q = &a->q;
  for (uint32_t k = 0; k < q->count;) {
    uint32_t e = k + 1;
    if (a->what[k] == GIVEN_DATA) {
      while (e < q->count && a->what[e] == GIVEN_DATA && q->pages[e] == q->pages[e - 1] + 1)
        e++;
      if (!given)
        given = dsm__xcalloc(DSM__RUN_MAX, DSM__PAGE);
      dsm__pages_read_file(q->pages[k], e - k, given + (size_t)k * DSM__PAGE);
    }
    k = e;
  }
  return given;
}

/* The reply, gathered straight from the pages, read where their mappings
 * exist (dsm__page_current). */
static void reply(const dsm__reqh_t *h, struct answer *a, const uint8_t *given)
{
  static const uint32_t kind_of[] = { [SKIP] = DSM__PAGE_SKIPPED, [GIVEN_DATA] = DSM__PAGE_GIVEN_DATA,
                                      [GIVE] = DSM__PAGE_GIVEN, [MOVED] = DSM__PAGE_MOVED };
  dsm__page_reply_t out;
  dsm__page_reply_init(&out, dsm__nprocs);
  for (uint32_t k = 0; k < a->q.count; k++) {
    uint32_t pg = a->q.pages[k];
    dsm__page_t *p = dsm__page(pg);
    if (a->what[k] == MOVED)
      a->word[k] = p->home;
    if (a->what[k] != SERVE) {
      dsm__page_reply_add(&out, NULL, kind_of[a->what[k]], &a->word[k],
                          given ? given + (size_t)k * DSM__PAGE : NULL);
      continue;
    }
    /* Written in our open interval: the twin is the page as of our last
     * release, which is what pv says it holds. */
    const void *bytes = p->dirty ? (const void *)p->twin : (const void *)dsm__page_current(pg);
    /* A page nobody ever released a write of may never have been touched
     * here: asked of the file rather than read (dsm__page_is_hole). */
    int zero = (!p->pv && !p->dirty && dsm__page_is_hole(pg)) || dsm__page_is_zero(bytes);
    dsm__page_reply_add(&out, p->pv, zero ? DSM__PAGE_ZERO : DSM__PAGE_FULL, NULL, bytes);
    if (zero)
      DSM__STAT_INC(zero_pages_served);
    dsm__os_home_served(pg);
  }
  /* Reply outside dsm__mu would be nicer, but the reply is only queued. */
  dsm__tp_replyv(*h, out.bufs, out.lens, out.n);
  for (uint32_t k = 0; k < a->q.count; k++)
    dsm__page_check(a->q.pages[k], "a PAGE request answered");
}

/* PAGE request (page_msg.h). Returns 1 when answered, 0 when it must wait
 * (diffs or epoch). */
static int try_page(const dsm__reqh_t *h, unsigned origin, const uint8_t *data, size_t len)
{
  struct answer a = { .origin = origin };
  if (!dsm__page_req_read(&a.q, data, len, dsm__nprocs, dsm__npages))
    dsm__fatal(DSM__EXIT_FATAL, "malformed PAGE request from rank %u", origin);
  int data_run = data_run_of(&a.q);
  if (must_wait(&a.q, data_run))
    return 0;
  choose(&a, data_run);
  give(&a);
  reply(h, &a, read_given(&a));
  return 1;
}

static void hold_req(const dsm__reqh_t *h, unsigned origin, const void *data, size_t len)
{
  struct held_req *q = dsm__xcalloc(1, sizeof *q);
  q->h = *h;
  q->origin = origin;
  q->data = dsm__xcalloc(1, len);
  memcpy(q->data, data, len);
  q->len = len;
  q->next = held_reqs;
  held_reqs = q;
  DSM__STAT_INC(requests_held);
}

static void retry_reqs(void)
{
  for (struct held_req **pp = &held_reqs; *pp;) {
    struct held_req *q = *pp;
    if (try_page(&q->h, q->origin, q->data, q->len)) {
      *pp = q->next;
      free(q->data);
      free(q);
    } else {
      pp = &q->next;
    }
  }
}

static void on_page(const dsm__msg_t *m)
{
  dsm__reqh_t h = dsm__reqh(m);
  pthread_mutex_lock(&dsm__mu);
  if (!try_page(&h, m->origin, m->data, m->len))
    hold_req(&h, m->origin, m->data, m->len);
  pthread_mutex_unlock(&dsm__mu);
}

/* ---- applying diffs -------------------------------------------------------------------- */

/* A home page that fell behind (acquire) may be usable again. queued: the
 * protection change waits for the caller's dsm__prot_flush (diff_recv.c:
 * one mprotect for a run of pages a DIFF brought up to date). */
void dsm__home_catch_up(uint32_t pg, dsm__page_t *p, int queued)
{
  if (p->need && dsm__need_met(p, p->pv)) {
    dsm__need_clear(p);
    if (p->prot == DSM__PROT_NONE) {
      if (queued)
        dsm__prot_queue(pg, DSM__PROT_READ);
      else
        dsm__set_prot(pg, DSM__PROT_READ);
    }
  }
  dsm__page_check(pg, "a diff applied at the home");
}

void dsm__home_diffs_in(void)
{
  retry_reqs();
  pthread_cond_broadcast(&home_cv);
}

void dsm__home_wait(uint32_t pg)
{
  pthread_mutex_lock(&dsm__mu);
  dsm__page_t *p = dsm__page(pg);
  uint64_t t0 = dsm__now_ns();
  while (p->home == dsm__rank && p->need && !dsm__need_met(p, p->pv))
    pthread_cond_wait(&home_cv, &dsm__mu);
  dsm__blocked_since(t0);
  if (p->home == dsm__rank) {
    dsm__home_catch_up(pg, p, 0);
    if (p->prot == DSM__PROT_NONE)   /* no need, yet protected: only a race with catch_up */
      dsm__set_prot(pg, p->excl ? DSM__PROT_WRITE : DSM__PROT_READ);
  }
  pthread_mutex_unlock(&dsm__mu);
}

/* ---- the release -------------------------------------------------------------------------- */

/* Pushes made by a collective's release ride in the collective's own
 * messages, not alone: a non-manager's pushes to the manager (rank 0) go
 * in its arrival, the manager's pushes to each member in that member's
 * departure (in a barrier of two processes: in whichever of the two
 * messages the process sends, sync/barrier.c). Nobody can use them before
 * the departure anyway, and on this kind of machine the message, and above
 * all the wake-up of the thread that receives it, costs more than the
 * bytes (the stencil's two boundary pages per sweep: two messages and two
 * wake-ups fewer per barrier of two).
 * Only small pushes ride: a large one goes at once, so that its transfer
 * overlaps the wait for the others instead of following it (a transpose
 * pushes megabytes at a barrier). */
#define RIDE_PAGES 16
static int ride_on;
static unsigned ride_team;
static struct { uint8_t *msg; size_t len; } *ride;   /* [reader] */

static int rides(unsigned r)
{
  if (!ride_on)
    return 0;
  return dsm__rank == 0 ? r < ride_team : r == 0;
}

static void ride_send(unsigned r)
{
  dsm__tp_send_owned(r, DSM__MSG_PUSH, ride[r].msg, ride[r].len);
  ride[r].msg = NULL;
}

/* DSM_PUSH=0 turns pushes off (for measuring what they bring). */
static int push_on(void)
{
  static int on = -1;
  if (on < 0)
    on = (int)dsm__env_long("DSM_PUSH", 1, 0, 1);
  return on;
}

int dsm__home_released(uint32_t pg, dsm__page_t *p, uint32_t idx, int carried)
{
  dsm__page_pv(p)[dsm__rank] = idx;
  p->tainted = 0;
  /* A page written under a lock goes to the lock's next holders as a
   * carried diff (carry.c); pushing it at every release as well cost the
   * home one message per subscriber per critical section: with a lock
   * taken in turn by eight processes, the home spent its turns pushing to
   * seven and got 5% of the acquires instead of 12.5% (2026-11-27). A
   * subscriber that reads it without the lock fetches it after its next
   * acquire. */
  if (!p->hi || !push_on() || carried)
    return 0;
  int n = 0;
  for (unsigned r = 0; r < dsm__nprocs; r++) {
    if (r == dsm__rank || !sub_has(p, r))
      continue;
    if (push_n[r] == push_cap[r]) {
      push_cap[r] = push_cap[r] ? 2 * push_cap[r] : 64;
      push_pages[r] = realloc(push_pages[r], push_cap[r] * sizeof **push_pages);
      if (!push_pages[r]) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    }
    push_pages[r][push_n[r]++] = pg;
    n++;
  }
  return n;
}

/* Copy a page into a PUSH and into its twin in one pass: the source is
 * read once (fft3d pushes 16 MiB per process per step, every page of it
 * hot, and a second pass read it back from memory for the twin). */
static void copy_twice(uint8_t *a, uint8_t *b, const uint8_t *src)
{
  for (size_t i = 0; i < DSM__PAGE; i += 64) {
    memcpy(a + i, src + i, 64);
    memcpy(b + i, src + i, 64);
  }
}

/* Pages in one PUSH message at most: its size must not follow the
 * program's data (see DIFF_MSG_BYTES in diff_send.c). */
#define PUSH_MSG_PAGES 1024

/* PUSH: seq, count, then per page: pg, pv[nprocs], bytes (one per page).
 * The pages are write-protected now (the release just did it), so the
 * copies are the state at this release. */
static uint8_t *push_build(unsigned r, const uint32_t *pages, size_t n, size_t one)
{
  uint8_t *msg = malloc(8 + one * n), *at = msg + 8;
  if (!msg) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  uint32_t head[2] = { ++push_seq[r], (uint32_t)n };
  memcpy(msg, head, 8);
  for (size_t k = 0; k < n; k++, at += one) {
    uint32_t pg = pages[k];
    dsm__page_t *p = dsm__page(pg);
    memcpy(at, &pg, 4);
    memcpy(at + 4, dsm__page_pv(p), dsm__nprocs * 4);
    if (p->twin_lag) {
      copy_twice(at + 4 + dsm__nprocs * 4, p->twin, dsm__page_current(pg));
      p->twin_lag = 0;
    } else {
      memcpy(at + 4 + dsm__nprocs * 4, dsm__page_current(pg), DSM__PAGE);
    }
    p->tainted = 1;     /* the reader will hold this copy */
  }
  DSM__STAT_ADD(pushes_sent, n);
  return msg;
}

void dsm__home_flush_release(void)
{
  dsm__diff_send_release();
  size_t one = 4 + dsm__nprocs * 4 + DSM__PAGE;
  for (unsigned r = 0; r < dsm__nprocs; r++) {
    if (!push_n[r])
      continue;
    /* Whole messages of PUSH_MSG_PAGES first, each on its own; the rest
     * may ride in a collective's message. */
    size_t done = 0;
    while (push_n[r] - done > PUSH_MSG_PAGES) {
      uint8_t *msg = push_build(r, push_pages[r] + done, PUSH_MSG_PAGES, one);
      dsm__tp_send_owned(r, DSM__MSG_PUSH, msg, 8 + one * PUSH_MSG_PAGES);
      done += PUSH_MSG_PAGES;
    }
    size_t len = 8 + one * (push_n[r] - done);
    uint8_t *msg = push_build(r, push_pages[r] + done, push_n[r] - done, one);
    size_t push_n_was = push_n[r] - done;
    push_n[r] = 0;
    if (rides(r) && push_n_was <= RIDE_PAGES) {
      if (ride[r].msg)
        ride_send(r);              /* not taken by a collective message: cannot happen */
      ride[r].msg = msg;
      ride[r].len = len;
    } else {
      dsm__tp_send_owned(r, DSM__MSG_PUSH, msg, len);
    }
  }
}

void dsm__home_ride_begin(unsigned team)
{
  ride_on = 1;
  ride_team = team;
}

void dsm__home_ride_put(dsm__buf_t *b, unsigned r)
{
  if (!ride || !ride[r].msg) {
    dsm__coll_ride_put(b, NULL, 0);
    return;
  }
  dsm__coll_ride_put(b, ride[r].msg, (uint32_t)ride[r].len);
  free(ride[r].msg);
  ride[r].msg = NULL;
  DSM__STAT_INC(push_rides);
}

void dsm__home_ride_end(void)
{
  ride_on = 0;
  for (unsigned r = 0; r < dsm__nprocs; r++)
    if (ride[r].msg)
      ride_send(r);
}

uint32_t dsm__home_pushes_sent_to(unsigned r)
{
  return push_seq[r];
}

size_t dsm__home_pushes_told(dsm__coll_told_t *told)
{
  size_t n = 0;
  for (unsigned r = 0; r < dsm__nprocs; r++)
    if (push_seq[r] != push_told[r]) {
      told[n++] = (dsm__coll_told_t){ dsm__rank, r, push_seq[r] };
      push_told[r] = push_seq[r];
    }
  return n;
}

/* UNSUB: count, pages. */
static void on_unsub(const dsm__msg_t *m)
{
  dsm__rd_t r = dsm__rd(m->data, m->len);
  uint32_t count = dsm__rd_u32(&r);
  const uint32_t *pages = dsm__rd_take(&r, (size_t)count * 4);
  if (r.bad || m->origin >= dsm__nprocs)
    dsm__fatal(DSM__EXIT_FATAL, "malformed UNSUB from rank %u", m->origin);
  pthread_mutex_lock(&dsm__mu);
  for (uint32_t k = 0; k < count; k++) {
    uint32_t pg;
    memcpy(&pg, pages + k, 4);
    if (pg < dsm__npages && dsm__page(pg)->home == dsm__rank)
      sub_set(dsm__page(pg), m->origin, 0);
  }
  pthread_mutex_unlock(&dsm__mu);
}

/* ---- homes moving ------------------------------------------------------------------------ */

void dsm__home_give(uint32_t pg, dsm__page_t *p, unsigned to)
{
  /* The new home wrote the page last and alone: its copy holds everything,
   * so ours is simply dropped (a later read fetches it from there). */
  DSM__DEBUG("page %u: home moves to rank %u", pg, to);
  dsm__hot_drop(pg, p);
  dsm__os_home_begin(pg);        /* no longer readable one-sided here */
  p->home = (uint16_t)to;
  p->held = 1;
  p->excl = 0;
  p->tainted = 0;
  p->valid = 0;
  p->pushed = 0;
  dsm__need_clear(p);
  subs_clear(p);
  if (p->prot != DSM__PROT_NONE)
    dsm__prot_queue(pg, DSM__PROT_NONE);
  dsm__page_check(pg, "its home moving away");
}

void dsm__home_take(uint32_t pg, dsm__page_t *p, int clean)
{
  /* We wrote it last and alone in the epoch, so our copy holds every write.
   * A process that took a copy after our last write (served by the old
   * home, or a diff carried with a lock) holds a valid copy we never heard
   * of, so then the page starts shared, write-protected; once we write it
   * again, that write's notice puts every older copy out of date, and the
   * next collective may make it exclusive (dsm__home_exclusive). `clean`:
   * the manager saw that nobody else took a copy in the epoch, so every
   * other copy is older than our write and out of date after this
   * collective; the page is exclusive at once. */
  DSM__DEBUG("page %u: home moves here (valid %d, prot %d%s)", pg, p->valid, p->prot,
             clean ? ", exclusive" : "");
  p->home = (uint16_t)dsm__rank;
  p->valid = 1;
  p->pushed = 0;
  p->excl = 0;
  p->tainted = !clean;
  dsm__need_clear(p);
  subs_clear(p);
  if (p->prot == DSM__PROT_WRITE || p->prot == DSM__PROT_NONE)
    dsm__prot_queue(pg, DSM__PROT_READ);
  DSM__STAT_INC(migrations);
  if (clean)
    dsm__home_exclusive(pg, p);
  dsm__page_check(pg, "its home moving here");
}

void dsm__home_exclusive(uint32_t pg, dsm__page_t *p)
{
  /* Only we wrote it in the epoch, and nobody took a copy after our last
   * write: every other copy was made before that write, and the write's
   * notice has reached (or reaches, before it runs again) everyone. A page
   * readable one-sided may have readers we never heard of: it stays. */
  if (p->home != dsm__rank || p->excl || p->tainted || p->need || dsm__os_home_registered(pg))
    return;
  /* A hot page: the collective's release made its twin the page. */
  dsm__hot_drop(pg, p);
  if (p->dirty)
    return;
  DSM__DEBUG("page %u: exclusive again", pg);
  p->excl = 1;
  subs_clear(p);
  dsm__os_home_begin(pg);
  if (p->prot != DSM__PROT_WRITE)
    dsm__prot_queue(pg, DSM__PROT_WRITE);
  DSM__STAT_INC(exclusive);
  dsm__page_check(pg, "turning exclusive");
}

void dsm__home_init(void)
{
  unsigned n = dsm__nprocs;
  push_pages = dsm__xcalloc(n, sizeof *push_pages);
  push_n = dsm__xcalloc(n, sizeof *push_n);
  push_cap = dsm__xcalloc(n, sizeof *push_cap);
  push_seq = dsm__xcalloc(n, sizeof *push_seq);
  push_told = dsm__xcalloc(n, sizeof *push_told);
  ride = dsm__xcalloc(n, sizeof *ride);
  dsm__tp_handle(DSM__MSG_PAGE, on_page);
  dsm__tp_handle(DSM__MSG_UNSUB, on_unsub);
}
