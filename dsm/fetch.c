/*
 * fetch.c — copies of pages homed elsewhere: refreshing them from the home.
 *
 * A copy that is out of date (write notices it does not satisfy) or that
 * never existed is refreshed whole from the page's home, in one round trip,
 * however many processes wrote the page: the home merged their diffs. The
 * request names what the copy must hold (the page's needs, and our own
 * newest write, whose diff may still be on its way), and a run of further
 * pages of the same home that are out of date here rides along. A copy a
 * home pushed (pushed.c) is asked for first.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "dsm_internal.h"
#include "profile.h"
#include "lrc.h"
#include "onesided.h"
#include "page_msg.h"
#include "page_state.h"
#include "net/transport.h"

/* ---- fetching from the home ----------------------------------------------------------- */

static uint32_t prefetch_max(void)
{
  static uint32_t max;
  if (!max)
    max = (uint32_t)dsm__env_long("DSM_PREFETCH", DSM__RUN_MAX, 1, DSM__RUN_MAX);
  return max;
}

/* How many pages to fetch at a fault: the run grows while faults walk
 * forward through memory (a cold start, a transpose: each fault lands just
 * past the last run, and the run doubles, up to DSM_PREFETCH; one that
 * lands past pages already valid here goes on at the same size) or
 * backward (each fault lands just below the last run: the upper end of a
 * partition), and is one page at a fault that continues no stream (a
 * stencil's boundary row: the pages after it are someone else's rows that
 * we never read, and fetching them would also subscribe us to their
 * pushes). A few streams at once, as a loop nest reads several rows or a
 * partition walks in from both ends.
 *
 * Cold runs: a page this process never held a copy of starts its stream
 * at the full run. The first touch of data another process made (a task's
 * input, a partition the master initialised) reads on, and a run that
 * doubles from one page pays a round trip per doubling: a task of
 * sort_task sorting 24 pages from both ends took ten fetches so. The
 * run's other pages are installed inaccessible (DSM__PUSHED_RUN), so that
 * a touch of one costs a fault served here (a few microseconds) and says
 * the page was used. When the stream then faults at the end of the run,
 * it goes on only if at least half of the run was touched; a sparser use
 * (a column walk, every other row) ends the stream, and the faults it did
 * take, the ones served here included, let the strided detection below
 * see the real stride. What a cold run overshoots costs bytes once, and
 * a subscription to pushes that three untouched copies end (above).
 * After COLD_TRUST dense runs in a row only every PROBE_EVERY-th page of
 * a cold run is held back, as a probe of its use: sort_task's rank 1 took
 * 27,000 faults served here for 28,000 held pages otherwise. A sparse run
 * goes back to holding every page.
 *
 * Strided streams: a loop that walks down a column of a row-major array
 * (a transpose reading u[z][y][x] with z innermost, fft3d's first one)
 * faults every `stride` pages, one page at a time, each fault a round
 * trip. Two faults in a row the same distance apart (2 to STRIDE_MAX
 * pages, either direction) start a strided stream: the run is then pages
 * pg, pg + stride, pg + 2 stride, ..., growing like a unit stream while
 * faults land where the last run would have gone on. A transpose then
 * walks the next column, one page over: a fault in it starts a strided
 * stream at once, over the rest of that column (next_col, below).
 * Application thread only. */
#define NSTREAM 4
#define STRIDE_MAX 4096
static struct stream {
  uint32_t next, lo, window;
  int32_t stride;          /* 1: a unit stream, which can also grow backward from lo */
  uint32_t held, used;     /* a cold run: its pages installed inaccessible, and those
                              touched since */
  uint32_t col, col_len;   /* strided: the column it walks (its first page, and the
                              pages from there to the last fetched) */
} streams[NSTREAM];
static uint32_t last_fault;
static int64_t last_delta;
/* The column a transpose most likely walks next: the one after the newest
 * strided stream's (first page + 1), as long, with its stride. NAS FT's
 * cffts3 at class W walks 16 pages 64 apart per column, and each column
 * paid five fetches (1, 1, 2, 4, 8 pages) while a new stream grew from
 * nothing, its first page often fetched already by a unit stream along
 * the row. A fault anywhere in the predicted column starts a strided
 * stream there at once, over the rest of the column. */
static struct { int32_t stride; uint32_t first, len; } next_col;

/* The index of pg in the predicted column, or -1. */
static int64_t in_next_col(uint32_t pg)
{
  if (!next_col.stride || next_col.len < 4)
    return -1;
  int64_t off = (int64_t)pg - (int64_t)next_col.first;
  if (off % next_col.stride != 0)
    return -1;
  int64_t m = off / next_col.stride;
  return m >= 0 && m < (int64_t)next_col.len ? m : -1;
}
#define COLD_TRUST 4
#define PROBE_EVERY 8
static unsigned cold_dense;   /* cold runs in a row found dense when the next began */
static struct { uint32_t lo, next, held, used; } last_run;   /* the newest cold run */

static void note_fault(uint32_t pg, int64_t *delta, int64_t *before)
{
  *delta = (int64_t)pg - (int64_t)last_fault;
  *before = last_delta;
  last_fault = pg;
  last_delta = *delta;
}

/* Does a fault at pg continue a unit stream expected at next, past pages
 * that are valid here? A run stops at the first page that needs no
 * fetch, and the walk then faults just past it: NAS IS's master clears
 * key_buff1 after reading five of its pages, and each of those started a
 * new stream at one page, 25 fetches for 64 pages. At most SKIP_MAX pages
 * apart, so that a walk that jumps is not taken for one that goes on.
 * Such a fault continues the stream at its run's size without doubling
 * it (prefetch_window): doubled, the runs of sweep3d's OpenMP version
 * took copies it did not read and that the homes then pushed to it,
 * 8% more bytes (3 runs each, 2026-12-07); at its size, IS at class W
 * sends 510 messages instead of 400-950, MG 1,140 instead of 1,300 and
 * fft3d (small) 466 instead of 669, with the same bytes. */
#define SKIP_MAX 8
static int skipped_valid(uint32_t next, uint32_t pg)
{
  if (pg <= next || pg - next > SKIP_MAX)
    return 0;
  for (uint32_t q = next; q < pg; q++)
    if (!dsm__page(q)->valid)
      return 0;
  return 1;
}

/* *back: the run ends at pg instead of starting there (unit streams).
 * cold: this process never held page pg. */
static struct stream *prefetch_window(uint32_t pg, int cold, int *back)
{
  *back = 0;
  int64_t delta, before;
  note_fault(pg, &delta, &before);
  /* A fault in the predicted column is taken for the column, not for the
   * continuation of a row stream of a page or two: the column's first
   * pages begin such streams (a fault on one page of a row, then the one
   * beside it in the next column). */
  int col_fault = in_next_col(pg) >= 0;
  for (int i = 0; i < NSTREAM; i++) {
    struct stream s = streams[i];
    if (!s.window || (col_fault && s.stride == 1 && s.window <= 2))
      continue;
    int forward = s.next == pg || (s.stride == 1 && skipped_valid(s.next, pg));
    if (forward || (s.stride == 1 && s.lo && s.lo - 1 == pg)) {
      if (s.used * 2 < s.held) {     /* a cold run mostly untouched: not a walk */
        streams[i].window = 0;
        continue;
      }
      *back = !forward;
      memmove(&streams[1], &streams[0], (size_t)i * sizeof *streams);
      /* Past valid pages the walk goes on, but what it has read so far
       * is not yet proof that it reads densely: the run keeps its size. */
      if (s.next == pg || !forward)
        s.window = s.window * 2 > prefetch_max() ? prefetch_max() : s.window * 2;
      s.held = s.used = 0;
      streams[0] = s;
      return &streams[0];
    }
  }
  memmove(&streams[1], &streams[0], (NSTREAM - 1) * sizeof *streams);
  int64_t m;
  if (delta == before && (delta >= 2 || delta <= -2) && delta <= STRIDE_MAX &&
      delta >= -STRIDE_MAX && prefetch_max() > 1)
    /* (The two faults before it were the column's first two pages.) */
    streams[0] = (struct stream){ pg, pg, 2, (int32_t)delta, 0, 0,
                                  (uint32_t)((int64_t)pg - 2 * delta), 0 };
  else if ((m = in_next_col(pg)) >= 0) {
    uint32_t rest = next_col.len - (uint32_t)m;
    streams[0] = (struct stream){ pg, pg, rest < prefetch_max() ? rest : prefetch_max(),
                                  next_col.stride, 0, 0, next_col.first, 0 };
  } else
    streams[0] = (struct stream){ pg, pg, cold ? prefetch_max() : 1, 1, 0, 0 };
  return &streams[0];
}

/* Has this process never held page p? A page it was the home of, and gave
 * away or moved to its writer, has no version vector but was held: a
 * fault on it is a neighbour's fresh writes, not data never seen (the
 * stencil's halo row after the first sweep moved the rows to their
 * writers: as a cold run it took 64 pages of the neighbour's part, and
 * a subscription to their pushes for three sweeps). */
static int never_held(const dsm__page_t *p)
{
  return !p->pv && !p->held;
}

/* Did the newest run of a unit stream other than the current one (the
 * first) begin at page pg? */
static int run_began_at(uint32_t pg)
{
  for (int i = 1; i < NSTREAM; i++)
    if (streams[i].window && streams[i].stride == 1 && streams[i].lo == pg)
      return 1;
  return 0;
}

/* A page of a cold run touched: count it for the stream it came with, and
 * as a fault for the strided detection. */
static void run_page_used(uint32_t pg)
{
  int64_t delta, before;
  note_fault(pg, &delta, &before);
  for (int i = 0; i < NSTREAM; i++)
    if (streams[i].window && streams[i].held && streams[i].stride == 1 &&
        pg >= streams[i].lo && pg < streams[i].next) {
      streams[i].used++;
      break;
    }
  if (pg >= last_run.lo && pg < last_run.next)
    last_run.used++;
}

/* A cold run of count pages from pg starts (the fault was on its fault_k-th):
 * judge the one before it, and say which of this one's pages are held back
 * (hold[k]); returns how many. */
static uint32_t cold_run_begin(uint32_t pg, uint32_t count, uint32_t fault_k, uint8_t *hold)
{
  if (last_run.held) {
    if (last_run.used * 2 >= last_run.held)
      cold_dense += cold_dense < COLD_TRUST;
    else
      cold_dense = 0;
  }
  uint32_t held = 0;
  for (uint32_t k = 0; k < count; k++) {
    hold[k] = k != fault_k && (cold_dense < COLD_TRUST || k % PROBE_EVERY == 0);
    held += hold[k];
  }
  last_run.lo = pg;
  last_run.next = pg + count;
  last_run.held = held;
  last_run.used = 0;
  return held;
}

/* The run was fetched for the stream prefetch_window put first: from first
 * on, count pages stride apart (first is the lowest page of a unit run). */
static void stream_fetched(uint32_t first, uint32_t count)
{
  struct stream *s = &streams[0];
  if (s->stride == 1) {
    s->next = first + count;
    s->lo = first;
  } else {
    s->next = (uint32_t)((int64_t)first + (int64_t)count * s->stride);
    int64_t len = ((int64_t)s->next - (int64_t)s->col) / s->stride;
    if (len > 0 && len <= DSM__RUN_MAX * 4)
      s->col_len = (uint32_t)len;
    next_col.stride = s->stride;
    next_col.first = s->col + 1;
    next_col.len = s->col_len;
  }
}

/* Can page pg ride along in a fetch from home? Out of date here, same home,
 * and nothing of ours in flight on it, nor another thread's fetch. */
static int rides_along(uint32_t pg, unsigned home)
{
  dsm__page_t *q = dsm__page(pg);
  return q->home == home && !q->valid && !q->dirty && q->prot == DSM__PROT_NONE &&
         !q->fetching;
}

/* The page off pages from pg, if it is the next one in the same segment
 * (the address and the page number agree) and rides along; else -1. */
static int64_t rides_at(uint32_t pg, int64_t off, unsigned home)
{
  int64_t q = (int64_t)pg + off;
  if (q < 0 || q >= (int64_t)dsm__npages ||
      dsm__page_of((void *)(dsm__page_addr(pg) + (uintptr_t)(off * (int64_t)DSM__PAGE))) != (long)q ||
      !rides_along((uint32_t)q, home))
    return -1;
  return q;
}

/* With several threads per process (dsm/threads.c) a thread that waits for
 * a copy lets the others into the protocol, so that a slow fetch holds up
 * only the threads that need one of its pages: they wait here, under
 * dsm__mu, until it is in, and fault again if it is not (below). */
static pthread_cond_t fetched_cv = PTHREAD_COND_INITIALIZER;

/* A run of pages never held here, in address order, most likely goes in
 * fresh (below): the memory for it is made while the request is out (a
 * stencil's first sweep brings 2,100 pages to rank 1, and allocating them
 * was a third of the time from reply to touch), and, with one thread, when
 * most of the run will be held inaccessible (a cold run's first pages),
 * the application view's entries for it too: each held page is touched
 * alone after the fault that makes it readable, a kernel fault per page
 * otherwise. A run installed readable is not mapped ahead: the kernel maps
 * 16 pages around a read fault, which costs less than the mapping calls
 * (the stencil's first sweep 10.2-11.2 ms with every run mapped ahead,
 * 8.4-8.7 ms with none, 3 pairs; sort_task, sweep3d and fft3d 0.99-1.01).
 * Mapped early, the pages are readable for the length of the mapping call
 * and read zeros then, which only another thread of ours could see. A page
 * the answer brings no bytes for (given to us empty, skipped, moved on) is
 * made a hole again, so when most of the last such run came so
 * (sort_task's scratch array, given to its writers page by page: 11,000
 * pages of 36,000), the next is not prepared; for a write fault and a read
 * fault apart, as gifts of empty pages answer writes (first_touch.c) and
 * sort_task's reads and writes take turns. */
static int ahead_empty[2];   /* [write]: most of the last run of fresh pages got no bytes */

struct ahead {
  uint32_t first, count;
  int map;                 /* map it too (most of it held) */
  int premapped;
};

static void fetch_ahead(void *arg)
{
  struct ahead *a = arg;
  dsm__pages_reserve(a->first, a->count);
  pthread_mutex_lock(&dsm__mu);
  if (a->map && dsm__threads == 1)
    a->premapped = dsm__pages_premap(a->first, a->count);
  DSM__STAT_ADD(fetch_ahead, a->count);
  pthread_mutex_unlock(&dsm__mu);
}

/* ---- a fault's run: asked for, answered, installed ---------------------------------------- */

/* What a fault asks its page's home for, and what comes of it. */
struct run {
  uint32_t pg;                  /* the faulting page */
  unsigned home;
  int write, will_write;
  int back;                     /* the run ends at pg (a unit stream walking down) */
  int cold_run;                 /* a new stream over pages never held (prefetch_window) */
  uint32_t count, fault_k;      /* pages, and where pg is among them */
  uint32_t pages[DSM__RUN_MAX]; /* in address order */
  uint8_t hold[DSM__RUN_MAX];   /* a cold run's pages held back: installed inaccessible */
  uint8_t take[DSM__RUN_MAX];   /* the reply's copy goes in */
  dsm__page_ans_t ans[DSM__RUN_MAX];
  const uint8_t *data[DSM__RUN_MAX];   /* the reply's bytes of each page, or NULL */
  struct stream *s;             /* the stream the run continues */
  int shared_wait;              /* other threads may run the protocol until the reply */
  int fresh_run;                /* pages never held, consecutive: memory can be made ahead */
  int fresh_ahead;              /* ... and it is, while the request is out */
  struct ahead ahead;
};

/* A copy that is here already, opened: readable, or writable at once when
 * the read will most likely be followed by a write (write_ahead.c). */
static void open_copy(uint32_t pg)
{
  if (dsm__write_ahead_on_read(pg))
    dsm__prot_flush();
  else
    dsm__set_prot(pg, DSM__PROT_READ);
  DSM__STAT_INC(local_faults);
  dsm__page_check(pg, "a fault on a held copy");
}

/* A fault that needs nothing from the page's home: another thread fetches
 * it, it was fixed meanwhile, it is homed here, or a copy is here already
 * (a page of a cold run held back, one a home pushed). Called with dsm__mu
 * held; returns 1, having let it go, when the fault is dealt with. alone:
 * the gate may be let go (dsm__fetch_page). */
static int served_here(uint32_t pg, dsm__page_t *p, int alone)
{
  if (p->fetching && alone) {
    /* Another thread's fetch brings it. That thread needs the gate back
     * to install it, so this one lets go of it meanwhile (and takes it
     * again without dsm__mu: the gate is the outer lock). Inside a
     * synchronisation the gate stays, and the page is fetched again
     * (the other thread's copy is then not installed: judge_answers). */
    unsigned gate = dsm__gate_drop();
    while (p->fetching)
      pthread_cond_wait(&fetched_cv, &dsm__mu);
    pthread_mutex_unlock(&dsm__mu);
    dsm__gate_take(gate);
    return 1;                           /* the access runs again, and faults if need be */
  }
  if (p->prot != DSM__PROT_NONE) {      /* fixed meanwhile */
    pthread_mutex_unlock(&dsm__mu);
    return 1;
  }
  if (p->home == dsm__rank) {
    pthread_mutex_unlock(&dsm__mu);
    dsm__home_wait(pg);
    return 1;
  }
  if (p->pushed == DSM__PUSHED_RUN) {
    p->pushed = 0;
    run_page_used(pg);
    open_copy(pg);
    DSM__STAT_INC(fetch_held_used);
    pthread_mutex_unlock(&dsm__mu);
    return 1;
  }
  if (p->pushed || dsm__pushed_take(pg, p)) {
    if (p->pushed)
      dsm__pushed_probe_used(p);
    p->push_idle = 0;
    open_copy(pg);
    pthread_mutex_unlock(&dsm__mu);
    return 1;
  }
  return 0;
}

/* Blocks walked downward: sibling tasks over an array run newest first,
 * so each one's data lies just below the last one's (sort_task's leaves,
 * 24 pages each, walked from the top of a quarter down). A cold run cut
 * short exactly where the newest run of another stream began (the walk
 * came down to here) reaches down instead, over pages we never held, up
 * to the window: one request per 64 pages, not one per block. Cut short
 * by anything else (the stencil's halo row, against our own part of the
 * grid at the start of a sweep), it does not: the pages below are a
 * neighbour's, and were fetched for nothing (62 per stencil run). */
static void reach_below(struct run *u, uint32_t max)
{
  uint32_t below = 0;
  while (u->count + below < max && u->count + below < DSM__RUN_MAX) {
    int64_t q = rides_at(u->pg, -1 - (int64_t)below, u->home);
    if (q < 0 || !never_held(dsm__page((uint32_t)q)))
      break;
    below++;
  }
  if (!below)
    return;
  memmove(u->pages + below, u->pages, u->count * sizeof *u->pages);
  for (uint32_t k = 0; k < below; k++)
    u->pages[k] = u->pg - below + k;
  u->count += below;
  u->fault_k = below;
  DSM__STAT_ADD(fetch_below, below);
}

/* The run: the page, then further pages of the stream (the same segment
 * and home, out of date here too). */
static void plan_run(struct run *u, dsm__page_t *p)
{
  struct stream *s = u->s = prefetch_window(u->pg, never_held(p), &u->back);
  /* A new stream with more than a page: a cold run (prefetch_window). */
  u->cold_run = !u->back && s->stride == 1 && s->window > 1 && s->next == u->pg &&
                s->lo == u->pg && never_held(p);
  uint32_t max = s->window;
  int64_t step = u->back ? -1 : s->stride;
  u->pages[0] = u->pg;
  u->count = 1;
  while (u->count < max && u->count < DSM__RUN_MAX) {
    int64_t q = rides_at(u->pg, step * (int64_t)u->count, u->home);
    if (q < 0)
      break;
    u->pages[u->count++] = (uint32_t)q;
  }
  if (u->back)      /* the run ends at the faulting page: ask in address order */
    for (uint32_t k = 0; k < u->count / 2; k++) {
      uint32_t t = u->pages[k];
      u->pages[k] = u->pages[u->count - 1 - k];
      u->pages[u->count - 1 - k] = t;
    }
  u->fault_k = u->back ? u->count - 1 : 0;
  if (u->cold_run && u->count < max && run_began_at(u->pg + u->count))
    reach_below(u, max);
}

/* The request (page_msg.h), and what the run's pages and the stream say
 * before the wait. */
static void make_request(struct run *u, dsm__buf_t *req)
{
  /* A read that will most likely be followed by a write asks as a write
   * does: the home may then give the page with its data (first_touch.c). */
  u->will_write = u->write || dsm__write_ahead_read_will_write(u->pg);
  dsm__page_req_begin(req, dsm__epoch, u->count, u->will_write, u->back, u->fault_k);
  for (uint32_t k = 0; k < u->count; k++) {
    const dsm__page_t *q = dsm__page(u->pages[k]);
    dsm__page_req_page(req, u->pages[k], q->need, dsm__rank, q->own_last);
  }
  stream_fetched(u->pages[0], u->count);
  /* Which pages of a cold run are held back (above); said before the wait,
   * as another thread may move the streams meanwhile. */
  memset(u->hold, 0, sizeof u->hold);
  u->s->held = u->cold_run ? cold_run_begin(u->pages[0], u->count, u->fault_k, u->hold) : 0;
  u->s->used = 0;
  DSM__DEBUG("fetch %u pages from %u (stride %d) from rank %u", u->count, u->pages[0],
             (int)(u->back ? 1 : u->s->stride), u->home);
  /* Several threads: the others may run the protocol until the reply (not
   * with one-sided reads, which have one landing area). Meanwhile an
   * acquire may add a need to a page of the run, or a pushed or carried
   * copy make it valid; the reply's copy of such a page is not installed. */
  if (u->shared_wait)
    for (uint32_t k = 0; k < u->count; k++)
      dsm__page(u->pages[k])->fetching = 1;
  u->ahead = (struct ahead){ u->pages[0], u->count, u->s->held * 2 > u->count, 0 };
  u->fresh_run = !dsm__os_on();
  for (uint32_t k = 0; u->fresh_run && k < u->count; k++)
    u->fresh_run = !dsm__page(u->pages[k])->pv && u->pages[k] == u->pages[0] + k;
  u->fresh_ahead = u->fresh_run && !ahead_empty[!!u->write];
}

/* Send the request and wait for the reply, without dsm__mu (and, when the
 * other threads may run meanwhile, without the gate). */
static void exchange(struct run *u, const dsm__buf_t *req, dsm__call_t *call)
{
  *call = (dsm__call_t){ u->home, DSM__MSG_PAGE, req->p, req->len, NULL, 0 };
  pthread_mutex_unlock(&dsm__mu);
  unsigned gate = u->shared_wait ? dsm__gate_drop() : 0;
  if (u->fresh_ahead)
    dsm__tp_call_overlap(u->home, DSM__MSG_PAGE, req->p, req->len, &call->reply,
                         &call->reply_len, fetch_ahead, &u->ahead);
  else
    dsm__os_fetch(call, 1);
  dsm__gate_take(gate);
  pthread_mutex_lock(&dsm__mu);
  if (!dsm__page_reply_read(u->ans, call->reply, call->reply_len, u->count, u->fault_k, u->home,
                            dsm__nprocs))
    dsm__fatal(DSM__EXIT_FATAL, "malformed PAGE reply from rank %u", u->home);
  for (uint32_t k = 0; k < u->count; k++)
    u->data[k] = u->ans[k].data;
}

/* The memory made ahead for pages that get no bytes (given to us empty,
 * skipped, moved on) goes back to being a hole; nothing here wrote them,
 * and they are inaccessible until the flush in install. (Before a gift is
 * taken: it finds the hole and has nothing to clear.) Never held here,
 * they cannot have become valid meanwhile (no push or carried diff comes
 * for a page we never fetched, and another thread's fetch of one waits
 * for ours); a page that did keeps its bytes all the same. */
static void unreserve_empties(struct run *u)
{
  uint32_t empties = 0;
  for (uint32_t k = 0; k < u->count;) {
    uint32_t e = k;
    while (e < u->count && (u->ans[e].kind == DSM__PAGE_GIVEN || u->ans[e].kind == DSM__PAGE_SKIPPED ||
                            u->ans[e].kind == DSM__PAGE_MOVED) && !dsm__page(u->pages[e])->valid)
      e++;
    empties += e - k;
    if (e > k && u->fresh_ahead) {
      dsm__pages_unreserve(u->pages[k], e - k);
      DSM__STAT_ADD(fetch_ahead_unused, e - k);
    }
    k = e + 1;
  }
  if (u->fresh_run)
    ahead_empty[!!u->write] = empties * 2 > u->count;
}

/* Pages given with their data go in through the file, as fresh copies do
 * (install), and are not mapped ahead: they are writable at once. They
 * are ours whatever happened meanwhile, and nobody else can have written
 * them. */
static void write_gifts(struct run *u)
{
  for (uint32_t k = 0; k < u->count;) {
    uint32_t e = k + 1;
    if (u->ans[k].kind == DSM__PAGE_GIVEN_DATA) {
      while (e < u->count && u->ans[e].kind == DSM__PAGE_GIVEN_DATA &&
             u->pages[e] == u->pages[e - 1] + 1)
        e++;
      dsm__pages_write_fresh(u->pages[k], e - k, u->data + k);
    }
    k = e;
  }
}

/* Which copies go in (take): with several threads, another may have made
 * a page valid, or an acquire added a need to it, meanwhile. A page given
 * to us is ours whatever happened meanwhile (its old home has let go of
 * it); one that moved on is asked of its new home when it faults again. */
static void judge_answers(struct run *u)
{
  for (uint32_t k = 0; k < u->count; k++) {
    uint32_t pg = u->pages[k], kind = u->ans[k].kind;
    dsm__page_t *q = dsm__page(pg);
    if (u->shared_wait)
      q->fetching = 0;
    u->take[k] = 0;
    if (kind == DSM__PAGE_GIVEN || kind == DSM__PAGE_GIVEN_DATA) {
      dsm__pushed_drop(pg);
      dsm__first_touch_take(pg, q, u->ans[k].word, kind == DSM__PAGE_GIVEN_DATA);
      if (!u->write && u->will_write && kind == DSM__PAGE_GIVEN_DATA)
        DSM__STAT_INC(homes_received_reading);
      continue;
    }
    if (kind == DSM__PAGE_SKIPPED)
      continue;                   /* still out of date: a touch asks again */
    if (kind == DSM__PAGE_MOVED) {
      /* Unless another thread's answer moved it already. Named as ours:
       * the gift is in another thread's answer, which will say so. */
      if (q->home == u->home && u->ans[k].word != dsm__rank)
        q->home = (uint16_t)u->ans[k].word;
      continue;
    }
    uint32_t pv[DSM__MAX_PROCS];
    memcpy(pv, u->ans[k].pv, dsm__nprocs * 4);
    if (u->shared_wait &&
        (q->valid || q->prot != DSM__PROT_NONE || !dsm__need_met(q, pv))) {
      DSM__STAT_INC(fetches_overtaken);
      continue;
    }
    /* Only this thread adds needs, so what we asked for still stands. */
    if (!dsm__need_met(q, pv))
      dsm__fatal(DSM__EXIT_FATAL, "internal error: rank %u sent page %u without a write it "
                 "must hold", u->home, pg);
    u->take[k] = 1;
  }
  /* A page of a cold run that is not installed (given to us, skipped,
   * moved on, or overtaken) is not held back either: counted as held, it
   * would make the run look untouched and end its stream. */
  for (uint32_t k = 0; k < u->count; k++)
    if (u->hold[k] && !u->take[k]) {
      u->hold[k] = 0;
      if (u->s->held) u->s->held--;
      if (last_run.lo == u->pages[0] && last_run.held) last_run.held--;
    }
}

/* One copy from the home goes in: valid, and readable, writable at once
 * (write_ahead.c) or held back (a cold run's). fresh: its bytes are in
 * already (install). */
static void install_copy(struct run *u, uint32_t k, int fresh)
{
  uint32_t pg = u->pages[k];
  dsm__page_t *q = dsm__page(pg);
  uint32_t pv[DSM__MAX_PROCS];
  memcpy(pv, u->ans[k].pv, dsm__nprocs * 4);
  if (!fresh) {
    if (u->data[k])
      memcpy(dsm__page_sys(pg), u->data[k], DSM__PAGE);
    else
      memset(dsm__page_sys(pg), 0, DSM__PAGE);   /* our copy may hold an older life's bytes */
  }
  dsm__prof_in(pg, u->data[k] ? DSM__PAGE : 4, DSM__PROF_FETCHED);
  dsm__copy_now_valid(pg, q, pv);
  q->pushed = 0;
  q->push_idle = 0;
  dsm__pushed_drop(pg);
  if (u->hold[k]) {
    q->pushed = DSM__PUSHED_RUN;     /* inaccessible until touched */
    DSM__STAT_INC(fetch_held);
  } else if (!dsm__write_ahead_on_read(pg)) {
    dsm__prot_queue(pg, DSM__PROT_READ);
  }
}

/* The copies judged to go in. A run of pages we never held lands in
 * memory the kernel has not given us yet (region.c, fresh memory): written
 * through the file, and mapped in the application view when most of it is
 * held (fetch_ahead). Only a run of consecutive pages (in address order,
 * so consecutive in the file too): the stream's stride is not to be
 * trusted here, since with several threads another may have moved the
 * stream while this one waited (a strided run written as a contiguous one
 * overwrote the pages between its own). */
static void install(struct run *u)
{
  int fresh = 1;
  for (uint32_t k = 0; fresh && k < u->count; k++)
    fresh = u->take[k] && !dsm__page(u->pages[k])->pv && u->pages[k] == u->pages[0] + k;
  if (fresh) {
    dsm__pages_write_fresh(u->pages[0], u->count, u->data);
    if (u->ahead.map && !u->ahead.premapped)
      dsm__pages_premap(u->pages[0], u->count);
  }
  uint32_t installed = 0;
  for (uint32_t k = 0; k < u->count; k++)
    if (u->take[k]) {
      install_copy(u, k, fresh);
      installed++;
    }
  dsm__prot_flush();
  DSM__STAT_ADD(pages_fetched, installed);
  for (uint32_t k = 0; k < u->count; k++)
    dsm__page_check(u->pages[k], "a fault's fetch");
}

void dsm__fetch_page(uint32_t pg, int write)
{
  /* The gate may be let go only by a fault that is the one protocol step
   * in progress on this thread (not one taken inside a synchronisation). */
  int alone = dsm__threads > 1 && dsm__gate_depth() == 1;
  pthread_mutex_lock(&dsm__mu);
  dsm__page_t *p = dsm__page(pg);
  if (served_here(pg, p, alone))
    return;
  struct run u = { .pg = pg, .home = p->home, .write = write };
  u.shared_wait = alone && !dsm__os_on();
  plan_run(&u, p);
  dsm__buf_t req = { 0 };
  make_request(&u, &req);
  dsm__call_t call;
  exchange(&u, &req, &call);
  unreserve_empties(&u);
  write_gifts(&u);
  judge_answers(&u);
  install(&u);
  if (u.shared_wait)
    pthread_cond_broadcast(&fetched_cv);
  pthread_mutex_unlock(&dsm__mu);
  free(call.reply);
  dsm__buf_free(&req);
}
