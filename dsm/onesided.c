/*
 * onesided.c — page and diff fetches by RDMA READ, where the data already
 * sits in registered memory; everything else goes by PAGE and DIFF requests.
 *
 * What a process registers (dsm__tp_expose) and announces to every peer with
 * an EXPOSE message:
 *
 *   As a home, per chunk of 512 pages that someone asked it for a page of:
 *     - that chunk of its system view, the page contents themselves;
 *     - a meta block: a sequence word per page, then per page the version
 *       vector of the home's copy (which intervals it contains).
 *   As a writer:
 *     - a diff log: an append-only arena of records (header, encoded diff),
 *       emptied by garbage collection;
 *     - per chunk it made diffs in, an index: per page NSLOT slots of
 *       (interval, length, offset in the log); interval i goes to slot
 *       i % NSLOT.
 *
 * A page and its version vector change at the home in two ways only: the
 * home's program writes the page while it is writable in the open interval
 * (no message, no fault, nothing to hook), and page validation applies diffs
 * to it. Both are bracketed by the page's sequence word, which is odd from
 * just before the page becomes writable (or the diffs land) until just after
 * it is write-protected again (or validated), when the version vector is
 * published and the word turns even. A reader READs the sequence words, then
 * (fenced) the version vectors and the pages, then (fenced) the words again,
 * and keeps the run only if every word was even and unchanged: nothing it
 * read was being changed meanwhile, whatever order the responder read bytes
 * in. A run that is busy is fetched with a PAGE request, which the home
 * answers with the twin (fault.c).
 *
 * pv[home] in the meta is the home's newest closed interval when the page was
 * last published, not at the moment of the READ as in a PAGE reply. Both say
 * the same: every later interval of the home that wrote the page turned its
 * word odd first, so an even, unchanged word means the copy holds every
 * write of the home so far.
 *
 * Diff records are immutable until garbage collection, which is collective:
 * no process validates a page while another empties its log. A slot can be
 * read half-updated, so records describe themselves: the header names page,
 * interval, length and the log's epoch (collections so far); a record whose
 * header does not match the slot it was found through is asked for by
 * message instead.
 *
 * Not done: chunks are registered when first asked for and stay registered
 * until exit (bounded by DSM_VERBS_EXPOSE_MB); a full diff log stops
 * publishing until the next collection.
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diff.h"
#include "dsm_internal.h"
#include "lrc.h"
#include "onesided.h"
#include "region.h"

#define CHUNK_SHIFT 9                   /* 512 pages, 2 MiB */
#define CHUNK_PAGES (1u << CHUNK_SHIFT)
#define NSLOT       4

enum { EX_PAGES = 1, EX_INDEX, EX_LOG };

typedef struct slot { uint32_t idx, len; uint64_t off; } slot_t;
typedef struct rec { uint32_t pg, idx, len, epoch; } rec_t;

/* This process's own exposures, per chunk. state: 0 not tried, 1 exposed,
 * -1 refused (cap or device): stays with messages. */
typedef struct mine {
  uint8_t *meta;
  slot_t *index;
  int8_t meta_state, index_state;
} mine_t;

/* What a peer exposed, per chunk. */
typedef struct theirs {
  dsm__rmem_t meta, pages, index;
  uint8_t has_pages, has_index;
} theirs_t;

static int enabled;
static uint32_t nchunks;
static size_t pv_bytes;            /* one version vector */
static size_t meta_bytes;          /* CHUNK_PAGES sequence words, then CHUNK_PAGES vectors */
static mine_t *mine;
static theirs_t **theirs;          /* [peer][chunk], allocated at the peer's first EXPOSE */
static dsm__rmem_t *peer_log;      /* [peer] */
static uint64_t *peer_log_size;    /* [peer], 0: no log announced */
static uint8_t *dlog;              /* our diff log */
static size_t dlog_size, dlog_used;
static int log_state;
static uint32_t epoch;             /* garbage collections so far */

/* Diffs are made lazily, so a writer's log may lack most of what readers
 * want (a diff nobody asked for yet); each lookup that finds nothing costs a
 * READ round before the DIFF request. After MISS_STREAK lookups in a row
 * found nothing at a writer, the next `skip` faults ask it by message
 * straight away, and the pause doubles (up to MAX_SKIP) while it keeps
 * missing; one hit resets it. The application thread alone uses this. */
#define MISS_STREAK 4
#define MAX_SKIP    64
typedef struct probe { uint32_t streak, skip, pause; } probe_t;
static probe_t *probes;            /* [peer] */

static size_t round_page(size_t n) { return (n + DSM__PAGE - 1) & ~(size_t)(DSM__PAGE - 1); }
static uint64_t *seq_at(uint8_t *meta, uint32_t k) { return (uint64_t *)(meta + 8 * (size_t)k); }
static uint32_t *pv_at(uint8_t *meta, uint32_t k)
{
  return (uint32_t *)(meta + 8 * (size_t)CHUNK_PAGES + pv_bytes * k);
}

static void *xmalloc(size_t n)
{
  void *p = malloc(n ? n : 1);
  if (!p) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  return p;
}

/* ---- announcements --------------------------------------------------------------- */

/* EXPOSE: kind, chunk, then two (addr, rkey) pairs; for EX_LOG the second
 * address is the log's size. One-way, to every peer. */
static void announce(uint32_t kind, uint32_t chunk, const dsm__rmem_t *a, uint64_t b_addr,
                     uint32_t b_rkey)
{
  dsm__buf_t m = { 0 };
  dsm__buf_u32(&m, kind);
  dsm__buf_u32(&m, chunk);
  dsm__buf_u64(&m, a->addr);
  dsm__buf_u32(&m, a->rkey);
  dsm__buf_u64(&m, b_addr);
  dsm__buf_u32(&m, b_rkey);
  for (unsigned q = 0; q < dsm__nprocs; q++)
    if (q != dsm__rank)
      dsm__tp_send(q, DSM__MSG_EXPOSE, m.p, m.len);
  dsm__buf_free(&m);
}

static void on_expose(const dsm__msg_t *m)
{
  dsm__rd_t r = dsm__rd(m->data, m->len);
  uint32_t kind = dsm__rd_u32(&r), chunk = dsm__rd_u32(&r);
  dsm__rmem_t a, b;
  a.addr = dsm__rd_u64(&r);
  a.rkey = dsm__rd_u32(&r);
  b.addr = dsm__rd_u64(&r);
  b.rkey = dsm__rd_u32(&r);
  if (r.bad || r.off != r.len || kind < EX_PAGES || kind > EX_LOG || chunk >= nchunks ||
      m->origin == dsm__rank)
    dsm__fatal(DSM__EXIT_FATAL, "malformed EXPOSE from rank %u", m->origin);
  unsigned q = m->origin;
  pthread_mutex_lock(&dsm__mu);
  if (kind == EX_LOG) {
    peer_log[q] = a;
    peer_log_size[q] = b.addr;
  } else {
    if (!theirs[q]) {
      theirs[q] = calloc(nchunks, sizeof(theirs_t));
      if (!theirs[q]) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    }
    theirs_t *t = &theirs[q][chunk];
    if (kind == EX_PAGES) {
      t->meta = a;
      t->pages = b;
      t->has_pages = 1;
    } else {
      t->index = a;
      t->has_index = 1;
    }
  }
  pthread_mutex_unlock(&dsm__mu);
  dsm__tp_reply(dsm__reqh(m), NULL, 0);
}

/* ---- the home's side ------------------------------------------------------------ */

static void publish_pv(uint8_t *meta, uint32_t k, uint32_t pg)
{
  const dsm__page_t *p = dsm__page(pg);
  uint32_t *pv = pv_at(meta, k);
  if (p->pv)
    memcpy(pv, p->pv, pv_bytes);
  else
    memset(pv, 0, pv_bytes);
  pv[dsm__rank] = dsm__vt[dsm__rank];
}

/* The meta block of pg's chunk when pg is ours and exposed, else NULL. */
static uint8_t *home_meta(uint32_t pg)
{
  if (!enabled)
    return NULL;
  mine_t *c = &mine[pg >> CHUNK_SHIFT];
  if (c->meta_state != 1 || dsm__page_home(pg) != (int)dsm__rank)
    return NULL;
  return c->meta;
}

void dsm__os_home_begin(uint32_t pg)
{
  uint8_t *meta = home_meta(pg);
  if (!meta)
    return;
  uint64_t *s = seq_at(meta, pg & (CHUNK_PAGES - 1));
  uint64_t v = *s;          /* only this process writes it, under dsm__mu */
  if (!(v & 1))
    __atomic_store_n(s, v + 1, __ATOMIC_RELAXED);
  /* The odd word is visible before any store to the page that follows. */
  __atomic_thread_fence(__ATOMIC_RELEASE);
}

void dsm__os_home_end(uint32_t pg)
{
  uint8_t *meta = home_meta(pg);
  if (!meta)
    return;
  /* Still writable (a caller that ends a bracket it did not open while the
   * open interval writes the page): it stays busy until the release. */
  if (dsm__page(pg)->prot == DSM__PROT_WRITE)
    return;
  uint32_t k = pg & (CHUNK_PAGES - 1);
  uint64_t *s = seq_at(meta, k);
  uint64_t v = *s;
  if (!(v & 1)) {
    __atomic_store_n(s, ++v, __ATOMIC_RELAXED);
    __atomic_thread_fence(__ATOMIC_RELEASE);
  }
  publish_pv(meta, k, pg);
  /* Vector and page contents are visible before the even word. */
  __atomic_store_n(s, v + 1, __ATOMIC_RELEASE);
}

void dsm__os_home_served(uint32_t pg)
{
  if (!enabled)
    return;
  uint32_t c = pg >> CHUNK_SHIFT;
  mine_t *m = &mine[c];
  if (m->meta_state)
    return;
  m->meta_state = -1;       /* unless everything below works */
  uint8_t *meta = aligned_alloc(DSM__PAGE, round_page(meta_bytes));
  if (!meta)
    return;
  uint32_t first = c << CHUNK_SHIFT;
  uint32_t n = dsm__npages - first < CHUNK_PAGES ? dsm__npages - first : CHUNK_PAGES;
  for (uint32_t k = 0; k < CHUNK_PAGES; k++) {
    /* A page of another home (or past the end) stays odd: never read here. */
    if (k >= n || dsm__page_home(first + k) != (int)dsm__rank) {
      *seq_at(meta, k) = 1;
      memset(pv_at(meta, k), 0, pv_bytes);
      continue;
    }
    publish_pv(meta, k, first + k);
    *seq_at(meta, k) = dsm__page(first + k)->prot == DSM__PROT_WRITE ? 1 : 2;
  }
  dsm__rmem_t rm, rp;
  if (dsm__tp_expose(meta, meta_bytes, &rm) < 0) {
    free(meta);
    return;
  }
  /* Kept (registered until exit) when the pages cannot be registered: no
   * READ of it can come, since nothing is announced, and state -1 means no
   * hook touches it. */
  m->meta = meta;
  if (dsm__tp_expose(dsm__page_sys(first), (size_t)n * DSM__PAGE, &rp) < 0)
    return;
  m->meta_state = 1;
  DSM__STAT_ADD(os_exposed_bytes, meta_bytes + (size_t)n * DSM__PAGE);
  announce(EX_PAGES, c, &rm, rp.addr, rp.rkey);
}

/* ---- the writer's side ------------------------------------------------------------ */

void dsm__os_diff_made(uint32_t pg, uint32_t idx, const uint8_t *diff, uint32_t len)
{
  if (!enabled)
    return;
  if (!log_state) {
    log_state = -1;
    dlog_size = (size_t)dsm__env_long("DSM_VERBS_DIFFLOG_MB", 16, 1, 1 << 16) << 20;
    dlog = aligned_alloc(DSM__PAGE, dlog_size);
    dsm__rmem_t r;
    if (dlog && dsm__tp_expose(dlog, dlog_size, &r) == 0) {
      log_state = 1;
      DSM__STAT_ADD(os_exposed_bytes, dlog_size);
      announce(EX_LOG, 0, &r, dlog_size, 0);
    }
  }
  if (log_state != 1)
    return;
  uint32_t c = pg >> CHUNK_SHIFT;
  mine_t *m = &mine[c];
  if (!m->index_state) {
    m->index_state = -1;
    size_t isz = (size_t)CHUNK_PAGES * NSLOT * sizeof(slot_t);
    slot_t *index = aligned_alloc(DSM__PAGE, isz);
    dsm__rmem_t r;
    if (index) {
      memset(index, 0, isz);    /* interval 0 never exists: every slot empty */
      if (dsm__tp_expose(index, isz, &r) == 0) {
        m->index = index;
        m->index_state = 1;
        DSM__STAT_ADD(os_exposed_bytes, isz);
        announce(EX_INDEX, c, &r, 0, 0);
      } else {
        free(index);
      }
    }
  }
  if (m->index_state != 1)
    return;
  size_t need = (sizeof(rec_t) + len + 7) & ~(size_t)7;
  if (dlog_used + need > dlog_size)
    return;                     /* full until the next collection */
  rec_t h = { pg, idx, len, epoch };
  memcpy(dlog + dlog_used, &h, sizeof h);
  memcpy(dlog + dlog_used + sizeof h, diff, len);
  slot_t *s = &m->index[(size_t)(pg & (CHUNK_PAGES - 1)) * NSLOT + idx % NSLOT];
  /* The record before the slot that leads to it. */
  __atomic_thread_fence(__ATOMIC_RELEASE);
  __atomic_store_n(&s->off, (uint64_t)dlog_used, __ATOMIC_RELAXED);
  __atomic_store_n(&s->len, len, __ATOMIC_RELAXED);
  __atomic_store_n(&s->idx, idx, __ATOMIC_RELEASE);
  dlog_used += need;
  DSM__STAT_INC(os_diffs_published);
}

void dsm__os_gc(void)
{
  if (!enabled)
    return;
  dlog_used = 0;
  epoch++;
}

/* ---- the reader's side ------------------------------------------------------------ */

/* What one call of the round becomes. */
typedef struct job {
  int kind;                 /* 0: by message as it is, 1: page run, 2: diffs */
  uint32_t pg, count;       /* page run: first page, pages; diffs: page, intervals */
  const uint32_t *idx;      /* diffs: the intervals asked for (in the request) */
  uint64_t *seq1, *seq2;    /* page run: sequence words before and after */
  uint8_t *pvs, *pages;     /* page run: what was read between them */
  slot_t slots[NSLOT];      /* diffs: the writer's index entry of the page */
  uint8_t **recs;           /* diffs: record read for idx[i], or NULL */
  dsm__buf_t got;           /* diffs: reply entries read one-sided */
  dsm__buf_t rest;          /* diffs: request for what is still missing */
  uint32_t nrest;
} job_t;

static void add_read(dsm__read_t *rs, unsigned *n, unsigned dst, const dsm__rmem_t *m,
                     uint64_t off, void *buf, size_t len, int fence)
{
  rs[*n] = (dsm__read_t){ dst, m->addr + off, m->rkey, buf, len, fence };
  (*n)++;
}

/* Plan a one-sided attempt for call c (dsm__mu held). */
static void plan(job_t *j, const dsm__call_t *c, dsm__read_t *rs, unsigned *nr)
{
  dsm__rd_t r = dsm__rd(c->req, c->req_len);
  uint32_t pg = dsm__rd_u32(&r), count = dsm__rd_u32(&r);
  if (r.bad || c->dst == dsm__rank || pg >= dsm__npages)
    return;
  uint32_t ch = pg >> CHUNK_SHIFT, k = pg & (CHUNK_PAGES - 1);
  const theirs_t *t = theirs[c->dst] ? &theirs[c->dst][ch] : NULL;
  if (c->type == DSM__MSG_PAGE) {
    if (!t || !t->has_pages || !count || k + count > CHUNK_PAGES)
      return;
    j->kind = 1;
    j->pg = pg;
    j->count = count;
    j->seq1 = xmalloc(8 * (size_t)count);
    j->seq2 = xmalloc(8 * (size_t)count);
    j->pvs = xmalloc(pv_bytes * count);
    j->pages = xmalloc((size_t)DSM__PAGE * count);
    add_read(rs, nr, c->dst, &t->meta, 8 * (uint64_t)k, j->seq1, 8 * (size_t)count, 0);
    add_read(rs, nr, c->dst, &t->meta, 8 * (uint64_t)CHUNK_PAGES + pv_bytes * k, j->pvs,
             pv_bytes * count, 1);
    add_read(rs, nr, c->dst, &t->pages, (uint64_t)k * DSM__PAGE, j->pages,
             (size_t)DSM__PAGE * count, 0);
    add_read(rs, nr, c->dst, &t->meta, 8 * (uint64_t)k, j->seq2, 8 * (size_t)count, 1);
  } else if (c->type == DSM__MSG_DIFF) {
    const uint32_t *idx = dsm__rd_take(&r, (size_t)count * 4);
    if (r.bad || !count || !t || !t->has_index || !peer_log_size[c->dst])
      return;
    if (probes[c->dst].skip) {
      probes[c->dst].skip--;
      DSM__STAT_INC(os_diff_skips);
      return;
    }
    j->kind = 2;
    j->pg = pg;
    j->count = count;
    j->idx = idx;
    add_read(rs, nr, c->dst, &t->index, (uint64_t)k * NSLOT * sizeof(slot_t), j->slots,
             sizeof j->slots, 0);
  }
}

/* A page run read one-sided: the PAGE reply it stands for, or -1 when a page
 * was changing at its home. */
static int finish_pages(job_t *j, dsm__call_t *c)
{
  for (uint32_t k = 0; k < j->count; k++)
    if ((j->seq1[k] & 1) || j->seq1[k] != j->seq2[k])
      return -1;
  size_t one = pv_bytes + DSM__PAGE;
  uint8_t *out = xmalloc(one * j->count);
  for (uint32_t k = 0; k < j->count; k++) {
    memcpy(out + one * k, j->pvs + pv_bytes * k, pv_bytes);
    memcpy(out + one * k + pv_bytes, j->pages + (size_t)DSM__PAGE * k, DSM__PAGE);
  }
  c->reply = out;
  c->reply_len = one * j->count;
  return 0;
}

static void free_job(job_t *j)
{
  free(j->seq1);
  free(j->seq2);
  free(j->pvs);
  free(j->pages);
  if (j->recs)
    for (uint32_t i = 0; i < j->count; i++)
      free(j->recs[i]);
  free(j->recs);
  dsm__buf_free(&j->got);
  dsm__buf_free(&j->rest);
}

void dsm__os_fetch(dsm__call_t *calls, unsigned n)
{
  if (!enabled || !n) {
    dsm__tp_call_many(calls, n);
    return;
  }
  job_t *jobs = calloc(n, sizeof *jobs);
  dsm__read_t *rs = calloc(4 * (size_t)n, sizeof *rs);
  if (!jobs || !rs)
    dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  unsigned nr = 0;
  pthread_mutex_lock(&dsm__mu);
  uint32_t ep = epoch;
  uint64_t *log_size = xmalloc(dsm__nprocs * sizeof *log_size);
  memcpy(log_size, peer_log_size, dsm__nprocs * sizeof *log_size);
  dsm__rmem_t *logs = xmalloc(dsm__nprocs * sizeof *logs);
  memcpy(logs, peer_log, dsm__nprocs * sizeof *logs);
  for (unsigned i = 0; i < n; i++)
    plan(&jobs[i], &calls[i], rs, &nr);
  pthread_mutex_unlock(&dsm__mu);

  /* Round 1: sequence words, vectors and pages; diff index entries. */
  dsm__tp_read_many(rs, nr);

  /* Round 2: the diff records the index entries point at. */
  nr = 0;
  dsm__read_t *rs2 = NULL;
  size_t cap2 = 0;
  for (unsigned i = 0; i < n; i++) {
    job_t *j = &jobs[i];
    if (j->kind == 1) {
      if (finish_pages(j, &calls[i]) == 0) {
        DSM__STAT_ADD(os_pages, j->count);
      } else {
        DSM__STAT_INC(os_page_busy);
        j->kind = 0;
      }
    } else if (j->kind == 2) {
      j->recs = calloc(j->count, sizeof *j->recs);
      if (!j->recs) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
      for (uint32_t k = 0; k < j->count; k++) {
        const slot_t *s = &j->slots[j->idx[k] % NSLOT];
        size_t len = sizeof(rec_t) + (size_t)s->len;
        if (s->idx != j->idx[k] || s->len > dsm__diff_max(DSM__PAGE) ||
            s->off > log_size[calls[i].dst] || len > log_size[calls[i].dst] - s->off)
          continue;
        j->recs[k] = xmalloc(len);
        if (nr == cap2) {
          cap2 = cap2 ? 2 * cap2 : 16;
          rs2 = realloc(rs2, cap2 * sizeof *rs2);
          if (!rs2) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
        }
        add_read(rs2, &nr, calls[i].dst, &logs[calls[i].dst], s->off, j->recs[k], len, 0);
      }
    }
  }
  dsm__tp_read_many(rs2, nr);

  /* Round 3: by message, whatever could not be read. */
  dsm__call_t *rest = calloc(n, sizeof *rest);
  unsigned *rest_of = calloc(n, sizeof *rest_of);
  if (!rest || !rest_of) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  unsigned nrest = 0;
  for (unsigned i = 0; i < n; i++) {
    job_t *j = &jobs[i];
    if (j->kind == 1)
      continue;
    if (j->kind == 2) {
      for (uint32_t k = 0; k < j->count; k++) {
        rec_t h;
        const slot_t *s = &j->slots[j->idx[k] % NSLOT];
        if (j->recs[k]) memcpy(&h, j->recs[k], sizeof h);
        if (j->recs[k] && h.pg == j->pg && h.idx == j->idx[k] && h.len == s->len &&
            h.epoch == ep) {
          dsm__buf_u32(&j->got, h.idx);
          dsm__buf_u32(&j->got, h.len);
          dsm__buf_put(&j->got, j->recs[k] + sizeof h, h.len);
          DSM__STAT_INC(os_diffs);
        } else {
          if (!j->nrest) {
            dsm__buf_u32(&j->rest, j->pg);
            dsm__buf_u32(&j->rest, 0);    /* count, patched below */
          }
          dsm__buf_u32(&j->rest, j->idx[k]);
          j->nrest++;
          DSM__STAT_INC(os_diff_misses);
        }
      }
      probe_t *pr = &probes[calls[i].dst];
      if (j->got.len) {
        pr->streak = 0;
        pr->pause = 1;
      } else if (++pr->streak >= MISS_STREAK) {
        pr->streak = 0;
        pr->skip = pr->pause ? pr->pause : 1;
        pr->pause = pr->skip * 2 < MAX_SKIP ? pr->skip * 2 : MAX_SKIP;
      }
      if (!j->nrest) {
        calls[i].reply = j->got.p;
        calls[i].reply_len = j->got.len;
        j->got = (dsm__buf_t){ 0 };
        continue;
      }
      memcpy(j->rest.p + 4, &j->nrest, 4);
      rest[nrest] = (dsm__call_t){ calls[i].dst, calls[i].type, j->rest.p, j->rest.len, NULL, 0 };
    } else {
      rest[nrest] = (dsm__call_t){ calls[i].dst, calls[i].type, calls[i].req, calls[i].req_len,
                                   NULL, 0 };
    }
    rest_of[nrest++] = i;
  }
  dsm__tp_call_many(rest, nrest);
  for (unsigned r = 0; r < nrest; r++) {
    unsigned i = rest_of[r];
    job_t *j = &jobs[i];
    if (j->kind == 2 && j->got.len) {
      /* What was read, then what was asked for: fault.c orders them. */
      dsm__buf_put(&j->got, rest[r].reply, rest[r].reply_len);
      free(rest[r].reply);
      calls[i].reply = j->got.p;
      calls[i].reply_len = j->got.len;
      j->got = (dsm__buf_t){ 0 };
    } else {
      calls[i].reply = rest[r].reply;
      calls[i].reply_len = rest[r].reply_len;
    }
  }
  for (unsigned i = 0; i < n; i++)
    free_job(&jobs[i]);
  free(jobs);
  free(rs);
  free(rs2);
  free(rest);
  free(rest_of);
  free(log_size);
  free(logs);
}

/* ---- start-up --------------------------------------------------------------------- */

void dsm__os_init(void)
{
  if (dsm__nprocs < 2)
    return;
  /* Tables first and the handler now: a peer may announce as soon as the
   * transport is up, before dsm__os_start. */
  nchunks = (dsm__npages + CHUNK_PAGES - 1) >> CHUNK_SHIFT;
  pv_bytes = 4 * (size_t)dsm__nprocs;
  meta_bytes = 8 * (size_t)CHUNK_PAGES + pv_bytes * CHUNK_PAGES;
  mine = calloc(nchunks, sizeof *mine);
  theirs = calloc(dsm__nprocs, sizeof *theirs);
  peer_log = calloc(dsm__nprocs, sizeof *peer_log);
  peer_log_size = calloc(dsm__nprocs, sizeof *peer_log_size);
  probes = calloc(dsm__nprocs, sizeof *probes);
  if (!mine || !theirs || !peer_log || !peer_log_size || !probes)
    dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  dsm__tp_handle(DSM__MSG_EXPOSE, on_expose);
}

void dsm__os_start(void)
{
  if (dsm__nprocs < 2)
    return;
  pthread_mutex_lock(&dsm__mu);
  enabled = dsm__tp_can_read() && dsm__env_long("DSM_ONESIDED", 1, 0, 1);
  pthread_mutex_unlock(&dsm__mu);
  DSM__DEBUG("one-sided page and diff fetches %s", enabled ? "on" : "off");
}
