/*
 * collective.c — what barriers and joins carry for the protocol.
 *
 * A collective (a barrier, or the join that ends a parallel region) is the
 * one moment a single process, its manager, sees what every member wrote
 * since the last one: each arrival names the process's own intervals of
 * the epoch, whose records the manager holds by then. From them the manager
 * finds the pages that exactly one process wrote in the epoch, and every
 * departure carries that list. Each process then, for each such page:
 *   - if the writer is not the page's home, moves the home to the writer
 *     (home.c: dsm__home_take / dsm__home_give): a page with one writer per
 *     epoch lives where it is written, so the writer takes no twin, makes
 *     no diff and sends nothing for it (the stencil of issue 13: each
 *     process's rows move to it after the first sweep, exclusive at once
 *     when nobody else took a copy in the epoch);
 *   - if the writer is the home (us), lets the page become exclusive again
 *     when nobody took a copy since our last write (dsm__home_exclusive).
 * Every process applies the same list at the same collective, so home
 * tables agree within an epoch; dsm__epoch counts the collectives applied,
 * and a request from a process already past one waits at a process that is
 * not (home.c).
 *
 * Only collectives of the whole job move homes (a team of fewer processes
 * leaves the others' tables as they are). After a barrier of the whole job
 * every process holds every interval record up to it; records are discarded
 * one such barrier later (gc.c), because a peer that has not yet taken the
 * last departure may still lack the newest ones, and a sender omits what it
 * discarded.
 *
 * Pushes (home.c) made at the release that arrives race the departure: the
 * push goes straight from home to reader, the departure through the
 * manager, and it often wins; an acquire that ran before the push came
 * would fetch the page it brings. So each arrival says how many PUSH
 * messages the process has sent to each reader, the departure relays it,
 * and the reader waits for those before it acquires (dsm__pushed_wait).
 *
 * Copies taken. A page that moves to its one writer can be exclusive at
 * once if no one else took a copy in the epoch (every older copy is out of
 * date after the writer's notice): each arrival lists the pages its sender
 * took a copy of, and the manager marks such runs CLEAN.
 *
 * Wire: the arrival part and the departure part, their encoders and
 * decoders, are in coll_msg.c (coll_msg.h says what they carry). Here
 * arrivals are applied and departures gathered and applied.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "coll_msg.h"
#include "dsm_internal.h"
#include "lrc.h"

#define MULTI 0xffffffffu

static uint32_t epoch_first = 1;    /* our first interval of the current epoch */
static uint32_t prev_upto[DSM__MAX_PROCS];  /* records everyone held at the last full barrier */

/* Manager: page -> one rank + 1, or MULTI when several. Open addressing.
 * `writers`: who wrote each page in the epoch; `takers`: who took a copy of
 * it from elsewhere. `slots` lists the slots in use, so that a collective
 * visits and clears only those: a table keeps its capacity (4,096 slots at
 * least) from epoch to epoch, and walking and clearing three of them cost
 * every barrier of the stencil, which names a few pages, ~3 us. */
struct pmap { uint32_t *key, *val, *slots; size_t cap, used; };
static struct pmap writers, takers, gifts;

static size_t slot_of(uint32_t pg, size_t cap)
{
  return ((uint64_t)pg * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
}

static void map_grow(struct pmap *m)
{
  struct pmap o = *m;
  m->cap = o.cap ? 2 * o.cap : 4096;
  m->key = dsm__xcalloc(m->cap, sizeof *m->key);
  m->val = dsm__xcalloc(m->cap, sizeof *m->val);
  m->slots = dsm__xcalloc(m->cap / 2, sizeof *m->slots);
  m->used = 0;
  for (size_t i = 0; i < o.used; i++) {
    uint32_t j = o.slots[i];
    size_t s = slot_of(o.key[j], m->cap);
    while (m->val[s]) s = (s + 1) & (m->cap - 1);
    m->key[s] = o.key[j];
    m->val[s] = o.val[j];
    m->slots[m->used++] = (uint32_t)s;
  }
  free(o.key);
  free(o.val);
  free(o.slots);
}

/* The value of pg, taken for it if pg is new (then 0: the caller stores a
 * value that is not). */
static uint32_t *map_slot(struct pmap *m, uint32_t pg)
{
  if (2 * (m->used + 1) > m->cap)
    map_grow(m);
  size_t s = slot_of(pg, m->cap);
  while (m->val[s] && m->key[s] != pg) s = (s + 1) & (m->cap - 1);
  if (!m->val[s]) {
    m->key[s] = pg;
    m->slots[m->used++] = (uint32_t)s;
  }
  return &m->val[s];
}

static void map_put(struct pmap *m, uint32_t pg, uint32_t rank)
{
  uint32_t *v = map_slot(m, pg);
  if (!*v)
    *v = rank + 1;
  else if (*v != rank + 1)
    *v = MULTI;
}

/* The rank + 1 recorded for pg, MULTI, or 0 if none. */
static uint32_t map_get(const struct pmap *m, uint32_t pg)
{
  if (!m->used)
    return 0;
  size_t s = slot_of(pg, m->cap);
  while (m->val[s]) {
    if (m->key[s] == pg)
      return m->val[s];
    s = (s + 1) & (m->cap - 1);
  }
  return 0;
}

static void map_reset(struct pmap *m)
{
  if (m->cap > 4096 && m->used * 8 < m->cap) {
    /* One big epoch (a cold read of a large array) must not keep a large
     * table for every later collective. */
    free(m->key);
    free(m->val);
    free(m->slots);
    *m = (struct pmap){ 0 };
  } else {
    for (size_t i = 0; i < m->used; i++)
      m->val[m->slots[i]] = 0;
  }
  m->used = 0;
}

/* Manager: a page given at a first touch (first_touch.c) is named by each
 * process it was given to in the epoch; its home is the one with the
 * newest gift. Kept as gen << 9 | (rank + 1) (ranks are below 512). */
static void gift_put(uint32_t pg, uint32_t gen, uint32_t rank)
{
  uint32_t *v = map_slot(&gifts, pg);
  if (*v && (*v >> 9) == gen)
    dsm__fatal(DSM__EXIT_FATAL, "internal error: page %u was given twice with generation %u",
               pg, gen);
  if ((*v >> 9) < gen)
    *v = gen << 9 | (rank + 1);
}

/* Manager: push counts named by this collective's arrivals. */
static dsm__coll_told_t *told;
static size_t ntold, told_cap;

static void map_clear(void)
{
  ntold = 0;
  map_reset(&writers);
  map_reset(&takers);
  map_reset(&gifts);
}

void dsm__coll_arrive_encode(dsm__buf_t *b, unsigned ride_to)
{
  dsm__coll_told_t pairs[DSM__MAX_PROCS];
  dsm__coll_arrive_in_t in = { .first = epoch_first, .last = dsm__vt[dsm__rank], .told = pairs };
  in.ntold = dsm__home_pushes_told(pairs);
  /* Sorted, each page once; kept: the next arrival sends it again, unless
   * a collective of the whole job clears it first. */
  in.ntook = dsm__took_sorted(&in.took);
  in.ngifts = dsm__first_touch_gifts(&in.gifts);
  dsm__coll_arrive_put(b, &in);
  dsm__home_ride_put(b, ride_to);   /* nothing rides to ourselves */
}

static void bad_arrival(unsigned rank) __attribute__((noreturn));
static void bad_arrival(unsigned rank)
{
  dsm__fatal(DSM__EXIT_FATAL, "malformed collective arrival from rank %u", rank);
}

/* The pages rank wrote in its intervals first..last of the epoch (their
 * records are in the store: they came with the arrival). */
static void note_writers(unsigned rank, uint32_t first, uint32_t last)
{
  if (first <= dsm__gc_vt[rank])
    first = dsm__gc_vt[rank] + 1;
  for (uint32_t i = first; i <= last; i++) {
    const dsm__interval_t *iv = dsm__interval_get(rank, i);
    DSM__ASSERT(iv);
    for (uint32_t k = 0; k < iv->npages; k++)
      map_put(&writers, iv->pages[k], rank);
  }
}

static void note_told(unsigned rank, const dsm__coll_arrival_t *a)
{
  for (uint32_t i = 0; i < a->ntold; i++) {
    uint32_t e[2];
    dsm__coll_entry(a->told, i, 2, e);
    if (ntold == told_cap) {
      told_cap = told_cap ? 2 * told_cap : 64;
      told = realloc(told, told_cap * sizeof *told);
      if (!told) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    }
    told[ntold++] = (dsm__coll_told_t){ rank, e[0], e[1] };
  }
}

static void note_runs(unsigned rank, const dsm__coll_arrival_t *a)
{
  for (uint32_t i = 0; i < a->ntook; i++) {
    uint32_t e[2];
    dsm__coll_entry(a->took, i, 2, e);
    for (uint32_t pg = e[0]; pg < e[0] + e[1]; pg++)
      map_put(&takers, pg, rank);
  }
  for (uint32_t i = 0; i < a->ngifts; i++) {
    uint32_t e[3];
    dsm__coll_entry(a->gifts, i, 3, e);
    for (uint32_t pg = e[0]; pg < e[0] + e[1]; pg++)
      gift_put(pg, e[2], rank);
  }
}

void dsm__coll_note(unsigned rank, const uint8_t *data, size_t len)
{
  dsm__coll_arrival_t a;
  if (rank >= dsm__nprocs ||
      !dsm__coll_arrival_read(&a, data, len, dsm__nprocs, dsm__npages, dsm__known[rank]))
    bad_arrival(rank);
  note_writers(rank, a.first, a.last);
  note_told(rank, &a);
  note_runs(rank, &a);
  /* The pushes riding in an arrival are for the process that takes it. Our
   * own arrival carries some only in a tie of a barrier of two, and those
   * went to the other process with it (sync/barrier.c). A malformed PUSH
   * is refused by its own decoder, which stores nothing then. */
  if (rank != dsm__rank && dsm__pushed_ride_take(rank, &a.ride) < 0)
    bad_arrival(rank);
}

/* Manager: the departure's gifts, each page with its home now (NULL
 * when there are none, as in most collectives) ... */
static dsm__coll_page_t *gift_pages(size_t *n)
{
  *n = 0;
  if (!gifts.used)
    return NULL;
  dsm__coll_page_t *out = dsm__xcalloc(gifts.used, sizeof *out);
  for (size_t k = 0; k < gifts.used; k++) {
    uint32_t i = gifts.slots[k];
    out[(*n)++] = (dsm__coll_page_t){ gifts.key[i], (gifts.val[i] & 511) - 1 };
  }
  return out;
}

/* ... and its pages with one writer, each with the writer. */
static dsm__coll_page_t *writer_pages(size_t *n)
{
  *n = 0;
  if (!writers.used)
    return NULL;
  dsm__coll_page_t *out = dsm__xcalloc(writers.used, sizeof *out);
  for (size_t k = 0; k < writers.used; k++) {
    uint32_t i = writers.slots[k], w = writers.val[i];
    if (!w || w == MULTI)
      continue;
    /* CLEAN: no one but the writer took a copy in the epoch. */
    uint32_t t = map_get(&takers, writers.key[i]);
    out[(*n)++] = (dsm__coll_page_t){ writers.key[i],
                                      (w - 1) | (t == 0 || t == w ? DSM__COLL_CLEAN : 0) };
  }
  return out;
}

void dsm__coll_depart_encode(dsm__buf_t *b, int full, int all_records)
{
  dsm__coll_depart_in_t in = {
    .told = told, .ntold = ntold, .known = dsm__known, .nprocs = dsm__nprocs,
    .flags = (full ? DSM__COLL_FULL : 0) | (all_records ? DSM__COLL_RECORDS : 0),
  };
  /* Pages given at a first touch (first_touch.c), and pages with one
   * writer: only a collective of the whole job moves homes. */
  if (full) {
    in.gifts = gift_pages(&in.ngifts);
    in.writers = writer_pages(&in.nwriters);
  }
  dsm__coll_depart_put(b, &in);
  free(in.gifts);
  free(in.writers);
  map_clear();
}

void dsm__coll_depart_pushes(const dsm__coll_depart_t *d)
{
  for (uint32_t i = 0; i < d->ntold; i++) {
    uint32_t e[3];      /* home, reader, sent */
    dsm__coll_entry(d->told, i, 3, e);
    if (e[1] == dsm__rank)
      dsm__pushed_expect(e[0], e[2]);
  }
}

void dsm__coll_release(unsigned team)
{
  dsm__diff_send_hold();
  dsm__home_ride_begin(team);
  dsm__release();
}

/* Pages given at a first touch in the epoch, and their homes now. */
static void depart_gifts(const dsm__coll_depart_t *d)
{
  for (uint32_t i = 0; i < d->ngifts; i++) {
    uint32_t e[3];      /* first, count, to */
    dsm__coll_entry(d->gifts, i, 3, e);
    uint32_t first = e[0], count = e[1], to = e[2];
    for (uint32_t pg = first; pg < first + count; pg++) {
      dsm__page_t *p = dsm__page(pg);
      /* The giver and the new home set it at the gift; a process that was
       * answered MOVED since, too. */
      if ((to == dsm__rank) != (p->home == dsm__rank))
        dsm__fatal(DSM__EXIT_FATAL, "internal error: page %u was given to rank %u, but "
                   "our table says rank %u", pg, to, p->home);
      p->home = (uint16_t)to;
    }
    DSM__DEBUG("epoch %u: pages %u-%u were given to rank %u", dsm__epoch, first,
               first + count - 1, to);
  }
}

/* Pages with one writer in the epoch: their homes move to it. */
static void depart_moves(const dsm__coll_depart_t *d)
{
  for (uint32_t i = 0; i < d->nruns; i++) {
    uint32_t e[3];      /* first, count, writer | CLEAN */
    dsm__coll_entry(d->runs, i, 3, e);
    int clean = !!(e[2] & DSM__COLL_CLEAN);
    uint32_t first = e[0], count = e[1], writer = e[2] & ~DSM__COLL_CLEAN;
    for (uint32_t pg = first; pg < first + count; pg++) {
      dsm__page_t *p = dsm__page(pg);
      if (p->home == writer) {
        if (writer == dsm__rank)
          dsm__home_exclusive(pg, p);
      } else if (writer == dsm__rank) {
        dsm__home_take(pg, p, clean);
      } else if (p->home == dsm__rank) {
        dsm__home_give(pg, p, writer);
      } else {
        p->home = (uint16_t)writer;
        /* Our copy, if valid, was made before the writer's write, whose
         * notice makes it out of date; nothing else changes. */
      }
      /* An exclusive home must hear of every copy: a diff of the epoch
       * carried with a lock later on would revive ours behind its back. */
      if (clean && writer != dsm__rank)
        p->carry_off = 1;
    }
  }
}

/* A collective of the whole job ended the epoch. */
static void epoch_end(const dsm__coll_depart_t *d)
{
  dsm__epoch++;
  dsm__took_clear();
  dsm__first_touch_epoch_end();
  epoch_first = dsm__vt[dsm__rank] + 1;
  dsm__diff_recv_retry();
  if (d->flags & DSM__COLL_RECORDS) {
    /* Everyone has taken the previous barrier's departure by now (they
     * arrived at this one), so they hold everything up to prev_upto; not
     * necessarily this one's yet. */
    if (dsm__gc_wanted())
      dsm__gc_run(prev_upto);
    memcpy(prev_upto, d->known, dsm__nprocs * sizeof *prev_upto);
  }
}

void dsm__coll_depart_apply(const dsm__coll_depart_t *d)
{
  depart_gifts(d);
  depart_moves(d);
  dsm__prot_flush();
  if (d->flags & DSM__COLL_FULL)
    epoch_end(d);
  dsm__diff_send_held();
  dsm__home_ride_end();
}

void dsm__coll_lag(void)
{
  static long ms = -1;
  if (ms < 0) {
    /* DSM_TEST_LAG=rank:ms, a test knob: that rank takes ms milliseconds
     * before it applies each departure, so peers that already applied it
     * reach it while it is still in the previous epoch. */
    const char *v = getenv("DSM_TEST_LAG");
    unsigned r = 0;
    long m = 0;
    ms = 0;
    if (v && *v) {
      if (sscanf(v, "%u:%ld", &r, &m) != 2 || m < 0 || m > 60000)
        dsm__fatal(DSM__EXIT_FATAL, "DSM_TEST_LAG='%s' is not rank:milliseconds", v);
      if (r == dsm__rank)
        ms = m;
    }
  }
  if (ms > 0)
    usleep((useconds_t)ms * 1000);
}
