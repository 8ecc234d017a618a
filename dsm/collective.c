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
 * and the reader waits for those before it acquires (dsm__push_wait).
 *
 * Copies taken. A page that moves to its one writer can be exclusive at
 * once if no one else took a copy in the epoch (every older copy is out of
 * date after the writer's notice): each arrival lists the pages its sender
 * took a copy of, and the manager marks such runs CLEAN.
 *
 * Wire: arrival part: first:u32 last:u32 (own intervals of the epoch), then
 * npush:u32 and pairs reader:u32 sent:u32 (counts that changed), then
 * ntook:u32 and runs first:u32 count:u32 (copies taken).
 * Departure part: npush:u32 and triples home:u32 reader:u32 sent:u32 (read
 * by dsm__coll_depart_pushes), then flags:u32 (1: whole job, 2: every
 * record delivered), with flag 2 the manager's known vector (what everyone
 * holds after it), then nruns:u32 and runs of first:u32 count:u32
 * writer:u32 (| CLEAN).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dsm_internal.h"
#include "lrc.h"

#define MULTI 0xffffffffu
#define CLEAN 0x80000000u      /* in a departure run's writer word */

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
struct told { uint32_t home, reader, sent; };
static struct told *told;
static size_t ntold, told_cap;

static void map_clear(void)
{
  ntold = 0;
  map_reset(&writers);
  map_reset(&takers);
  map_reset(&gifts);
}

/* ---- copies taken ---------------------------------------------------------------------- */

/* Pages this process took a copy of from elsewhere (a fetch, a pushed
 * copy, a diff carried with a lock) since the last collective of the whole
 * job. Only such a copy can hold every write of the epoch's one writer and
 * so stay valid after its notices; the manager lets a moving home turn
 * exclusive at once only if no one but the writer took one. Duplicates are
 * dropped when the list is sent. Under dsm__mu. */
static uint32_t *took;
static size_t ntook, took_cap;

static int by_u32(const void *a, const void *b);
static void took_unique(void);

void dsm__coll_took(uint32_t pg)
{
  if (ntook && took[ntook - 1] == pg)
    return;
  if (ntook == took_cap) {
    /* A process that takes part in no collective for long (locks only)
     * must not grow the list with every fetch: when it is full, duplicates
     * go first, so it holds at most one entry per page. */
    if (ntook >= 1024)
      took_unique();
    if (!took_cap || ntook * 2 > took_cap) {
      took_cap = took_cap ? 2 * took_cap : 256;
      took = realloc(took, took_cap * sizeof *took);
      if (!took) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    }
  }
  took[ntook++] = pg;
}

static int by_u32(const void *a, const void *b)
{
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* Sort the list and drop duplicates. */
static void took_unique(void)
{
  if (ntook < 2)             /* (took is NULL while empty: qsort's base must not be) */
    return;
  qsort(took, ntook, sizeof *took, by_u32);
  size_t m = 0;
  for (size_t i = 0; i < ntook; i++)
    if (!m || took[i] != took[m - 1])
      took[m++] = took[i];
  ntook = m;
}

/* nruns:u32, then runs first:u32 count:u32 of the pages taken. */
static void took_encode(dsm__buf_t *b)
{
  took_unique();
  size_t at = b->len;
  uint32_t nruns = 0;
  dsm__buf_u32(b, 0);
  for (size_t i = 0; i < ntook;) {
    size_t j = i + 1;
    while (j < ntook && took[j] <= took[j - 1] + 1)
      j++;
    dsm__buf_u32(b, took[i]);
    dsm__buf_u32(b, took[j - 1] - took[i] + 1);
    nruns++;
    i = j;
  }
  memcpy(b->p + at, &nruns, 4);
  /* What the next arrival sends again, unless a collective of the whole
   * job clears it first. */
  took_unique();
}

void dsm__coll_arrive_encode(dsm__buf_t *b, unsigned ride_to)
{
  dsm__buf_u32(b, epoch_first);
  dsm__buf_u32(b, dsm__vt[dsm__rank]);
  dsm__push_told_encode(b);
  took_encode(b);
  dsm__first_touch_encode(b);
  dsm__push_ride_put(b, ride_to);   /* nothing rides to ourselves */
}

static void bad_arrival(unsigned rank) __attribute__((noreturn));
static void bad_arrival(unsigned rank)
{
  dsm__fatal(DSM__EXIT_FATAL, "malformed collective arrival from rank %u", rank);
}

void dsm__coll_note(unsigned rank, const uint8_t *data, size_t len)
{
  dsm__rd_t r = dsm__rd(data, len);
  uint32_t first = dsm__rd_u32(&r), last = dsm__rd_u32(&r);
  if (r.bad || rank >= dsm__nprocs || last > dsm__known[rank])
    bad_arrival(rank);
  if (first <= dsm__gc_vt[rank])
    first = dsm__gc_vt[rank] + 1;
  for (uint32_t i = first; i <= last; i++) {
    const dsm__interval_t *iv = dsm__interval_get(rank, i);
    DSM__ASSERT(iv);
    for (uint32_t k = 0; k < iv->npages; k++)
      map_put(&writers, iv->pages[k], rank);
  }
  uint32_t npush = dsm__rd_u32(&r);
  if (r.bad || npush > dsm__nprocs)
    bad_arrival(rank);
  for (uint32_t i = 0; i < npush; i++) {
    uint32_t reader = dsm__rd_u32(&r), sent = dsm__rd_u32(&r);
    if (r.bad || reader >= dsm__nprocs)
      bad_arrival(rank);
    if (ntold == told_cap) {
      told_cap = told_cap ? 2 * told_cap : 64;
      told = realloc(told, told_cap * sizeof *told);
      if (!told) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    }
    told[ntold++] = (struct told){ rank, reader, sent };
  }
  uint32_t nruns = dsm__rd_u32(&r);
  if (r.bad || nruns > dsm__npages)
    bad_arrival(rank);
  for (uint32_t i = 0; i < nruns; i++) {
    uint32_t tfirst = dsm__rd_u32(&r), count = dsm__rd_u32(&r);
    if (r.bad || tfirst >= dsm__npages || count > dsm__npages - tfirst)
      bad_arrival(rank);
    for (uint32_t pg = tfirst; pg < tfirst + count; pg++)
      map_put(&takers, pg, rank);
  }
  nruns = dsm__rd_u32(&r);
  if (r.bad || nruns > dsm__npages)
    bad_arrival(rank);
  for (uint32_t i = 0; i < nruns; i++) {
    uint32_t gfirst = dsm__rd_u32(&r), count = dsm__rd_u32(&r), gen = dsm__rd_u32(&r);
    if (r.bad || gfirst >= dsm__npages || count > dsm__npages - gfirst || gen == 0 ||
        gen > UINT16_MAX)
      bad_arrival(rank);
    for (uint32_t pg = gfirst; pg < gfirst + count; pg++)
      gift_put(pg, gen, rank);
  }
  /* The pushes riding in an arrival are for the process that takes it. Our
   * own arrival carries some only in a tie of a barrier of two, and those
   * went to the other process with it (sync/barrier.c). */
  if (rank == dsm__rank) {
    uint32_t rlen = dsm__rd_u32(&r);
    (void)dsm__rd_take(&r, rlen);
  } else if (dsm__push_ride_take(rank, &r) < 0) {
    bad_arrival(rank);
  }
  if (r.bad || r.off != r.len)
    bad_arrival(rank);
}

struct run { uint32_t first, count, writer; };

static int by_first(const void *a, const void *b)
{
  const struct run *x = a, *y = b;
  return x->first < y->first ? -1 : x->first > y->first;
}

/* Append nruns:u32 and the runs (n of one page each, malloc'd or NULL),
 * sorted, with neighbours of the same writer merged; frees them. */
static void runs_put(dsm__buf_t *b, struct run *runs, size_t n)
{
  if (n)
    qsort(runs, n, sizeof *runs, by_first);
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    if (m && runs[m - 1].first + runs[m - 1].count == runs[i].first &&
        runs[m - 1].writer == runs[i].writer)
      runs[m - 1].count++;
    else
      runs[m++] = runs[i];
  }
  dsm__buf_u32(b, (uint32_t)m);
  for (size_t i = 0; i < m; i++) {
    dsm__buf_u32(b, runs[i].first);
    dsm__buf_u32(b, runs[i].count);
    dsm__buf_u32(b, runs[i].writer);
  }
  free(runs);
}

void dsm__coll_depart_encode(dsm__buf_t *b, int full, int all_records)
{
  dsm__buf_u32(b, (uint32_t)ntold);
  for (size_t i = 0; i < ntold; i++) {
    dsm__buf_u32(b, told[i].home);
    dsm__buf_u32(b, told[i].reader);
    dsm__buf_u32(b, told[i].sent);
  }
  dsm__buf_u32(b, (full ? 1u : 0u) | (all_records ? 2u : 0u));
  if (all_records)
    dsm__vt_encode(b, dsm__known);
  /* Pages given at a first touch (first_touch.c): named before the moves
   * of the epoch's writers, which may move them on. */
  size_t n = 0;
  struct run *runs = NULL;
  if (full && gifts.used) {
    runs = dsm__xcalloc(gifts.used, sizeof *runs);
    for (size_t k = 0; k < gifts.used; k++) {
      uint32_t i = gifts.slots[k];
      runs[n++] = (struct run){ gifts.key[i], 1, (gifts.val[i] & 511) - 1 };
    }
  }
  runs_put(b, runs, n);
  n = 0;
  runs = NULL;
  if (full && writers.used) {
    runs = dsm__xcalloc(writers.used, sizeof *runs);
    for (size_t k = 0; k < writers.used; k++) {
      uint32_t i = writers.slots[k], w = writers.val[i];
      if (!w || w == MULTI)
        continue;
      /* CLEAN: no one but the writer took a copy in the epoch. */
      uint32_t t = map_get(&takers, writers.key[i]);
      runs[n++] = (struct run){ writers.key[i], 1, (w - 1) | (t == 0 || t == w ? CLEAN : 0) };
    }
  }
  runs_put(b, runs, n);
  map_clear();
}

int dsm__coll_depart_pushes(dsm__rd_t *r)
{
  uint32_t n = dsm__rd_u32(r);
  if (r->bad || n > (uint32_t)dsm__nprocs * dsm__nprocs)
    return -1;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t home = dsm__rd_u32(r), reader = dsm__rd_u32(r), sent = dsm__rd_u32(r);
    if (r->bad || home >= dsm__nprocs || reader >= dsm__nprocs)
      return -1;
    if (reader == dsm__rank)
      dsm__push_expect(home, sent);
  }
  return 0;
}

void dsm__coll_release(unsigned team)
{
  dsm__home_hold_diffs();
  dsm__push_ride_begin(team);
  dsm__release();
}

int dsm__coll_depart_apply(dsm__rd_t *r)
{
  uint32_t flags = dsm__rd_u32(r);
  uint32_t upto[DSM__MAX_PROCS];
  if ((flags & 2) && dsm__vt_decode(r, upto) < 0)
    return -1;
  uint32_t n = dsm__rd_u32(r);
  if (r->bad)
    return -1;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t first = dsm__rd_u32(r), count = dsm__rd_u32(r), to = dsm__rd_u32(r);
    if (r->bad || to >= dsm__nprocs || first >= dsm__npages || count > dsm__npages - first ||
        !(flags & 1))
      return -1;
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
  n = dsm__rd_u32(r);
  if (r->bad)
    return -1;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t first = dsm__rd_u32(r), count = dsm__rd_u32(r), writer = dsm__rd_u32(r);
    int clean = !!(writer & CLEAN);
    writer &= ~CLEAN;
    if (r->bad || writer >= dsm__nprocs || first >= dsm__npages || count > dsm__npages - first ||
        !(flags & 1))
      return -1;
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
  dsm__prot_flush();
  if (flags & 1) {
    dsm__epoch++;
    ntook = 0;
    dsm__first_touch_epoch_end();
    epoch_first = dsm__vt[dsm__rank] + 1;
    dsm__home_retry();
    if (flags & 2) {
      /* Everyone has taken the previous barrier's departure by now (they
       * arrived at this one), so they hold everything up to prev_upto; not
       * necessarily this one's yet. */
      if (dsm__gc_wanted())
        dsm__gc_run(prev_upto);
      memcpy(prev_upto, upto, dsm__nprocs * sizeof *upto);
    }
  }
  dsm__home_send_held();
  dsm__push_ride_end();
  return 0;
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
