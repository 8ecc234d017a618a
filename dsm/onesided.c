/*
 * onesided.c — page fetches by RDMA READ, where the page already sits in
 * registered memory at its home; everything else goes by PAGE requests.
 *
 * What a home registers (dsm__tp_expose) and announces to every peer with
 * an EXPOSE message, per chunk of 512 pages that someone asked it for a page
 * of:
 *   - that chunk of its system view, the page contents themselves;
 *   - a meta block: a sequence word per page, then per page the version
 *     vector of the home's copy (which intervals it contains).
 *
 * A home page changes in two ways: the home's program writes it while it is
 * writable (exclusive, or written in the open interval: no message, no
 * fault, nothing to hook), and diffs from other writers are applied to it.
 * Both are bracketed by the page's sequence word, which is odd from just
 * before the page becomes writable (or a diff lands) until just after it is
 * write-protected again (or the diff is in), when the version vector is
 * published and the word turns even. A reader READs the sequence words,
 * then (fenced) the version vectors and the pages, then (fenced) the words
 * again, and keeps the run only if every word was even and unchanged and
 * every vector holds what the reader needs. A run that fails is fetched
 * with a PAGE request, which the home answers when it can.
 *
 * A one-sided reader is a copy its home never hears of, so a registered
 * page never becomes exclusive again (home.c) and gets no pushes.
 *
 * Not done: chunks are registered when first asked for and stay registered
 * until exit (bounded by DSM_VERBS_EXPOSE_MB).
 */
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "diff.h"
#include "dsm_internal.h"
#include "lrc.h"
#include "onesided.h"
#include "page_msg.h"
#include "region.h"

#define CHUNK_SHIFT 9                   /* 512 pages, 2 MiB */
#define CHUNK_PAGES (1u << CHUNK_SHIFT)

enum { EX_PAGES = 1 };

/* This process's own exposures, per chunk. state: 0 not tried, 1 exposed,
 * -1 refused (cap or device): stays with messages. */
typedef struct mine {
  uint8_t *meta;
  int8_t meta_state;
} mine_t;

/* What a peer exposed, per chunk. */
typedef struct theirs {
  dsm__rmem_t meta, pages;
  uint8_t has_pages;
} theirs_t;

static int enabled;
static uint32_t nchunks;
static size_t pv_bytes;            /* one version vector */
static size_t meta_bytes;          /* CHUNK_PAGES sequence words, then CHUNK_PAGES vectors */
static mine_t *mine;
static theirs_t **theirs;          /* [peer][chunk], allocated at the peer's first EXPOSE */
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

/* EXPOSE: kind, chunk, then two (addr, rkey) pairs: the meta block and the
 * pages. One-way, to every peer. */
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
  if (r.bad || r.off != r.len || kind != EX_PAGES || chunk >= nchunks || m->origin == dsm__rank)
    dsm__fatal(DSM__EXIT_FATAL, "malformed EXPOSE from rank %u", m->origin);
  unsigned q = m->origin;
  pthread_mutex_lock(&dsm__mu);
  if (!theirs[q]) {
    theirs[q] = calloc(nchunks, sizeof(theirs_t));
    if (!theirs[q]) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  }
  theirs_t *t = &theirs[q][chunk];
  t->meta = a;
  t->pages = b;
  t->has_pages = 1;
  pthread_mutex_unlock(&dsm__mu);
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

int dsm__os_home_registered(uint32_t pg)
{
  return enabled && mine[pg >> CHUNK_SHIFT].meta_state == 1;
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
  /* Still writable (exclusive, or written in the open interval): it stays
   * busy until it is write-protected. */
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

/* ---- the reader's side ------------------------------------------------------------ */

/* What one PAGE call of the round becomes. */
typedef struct job {
  int onesided;             /* read one-sided (else by message as it is) */
  uint32_t pg, count;       /* first page, pages */
  uint64_t *seq1, *seq2;    /* sequence words before and after */
  uint8_t *pvs, *pages;     /* what was read between them */
} job_t;

static void add_read(dsm__read_t *rs, unsigned *n, unsigned dst, const dsm__rmem_t *m,
                     uint64_t off, void *buf, size_t len, int fence)
{
  rs[*n] = (dsm__read_t){ dst, m->addr + off, m->rkey, buf, len, fence };
  (*n)++;
}

/* The pages a PAGE request names must be consecutive to be read in one run. */
static int consecutive(const dsm__call_t *c, uint32_t *pg, uint32_t *count)
{
  dsm__page_req_t q;
  if (!dsm__page_req_read(&q, c->req, c->req_len, dsm__nprocs, dsm__npages))
    return 0;
  for (uint32_t k = 1; k < q.count; k++)
    if (q.pages[k] != q.pages[0] + k)
      return 0;
  *pg = q.pages[0];
  *count = q.count;
  return 1;
}

/* Plan a one-sided attempt for call c (dsm__mu held). */
static void plan(job_t *j, const dsm__call_t *c, dsm__read_t *rs, unsigned *nr)
{
  uint32_t pg = 0, count = 0;
  if (c->type != DSM__MSG_PAGE || c->dst == dsm__rank || !consecutive(c, &pg, &count) ||
      pg >= dsm__npages)
    return;
  uint32_t ch = pg >> CHUNK_SHIFT, k = pg & (CHUNK_PAGES - 1);
  const theirs_t *t = theirs[c->dst] ? &theirs[c->dst][ch] : NULL;
  if (!t || !t->has_pages || k + count > CHUNK_PAGES)
    return;
  j->onesided = 1;
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
}

/* A page run read one-sided: the PAGE reply it stands for, or -1 when a page
 * was changing at its home or lacks a write the request needs. */
static int finish_pages(job_t *j, dsm__call_t *c)
{
  for (uint32_t k = 0; k < j->count; k++)
    if ((j->seq1[k] & 1) || j->seq1[k] != j->seq2[k])
      return -1;
  dsm__page_req_t q;
  if (!dsm__page_req_read(&q, c->req, c->req_len, dsm__nprocs, dsm__npages) ||
      q.count != j->count)
    return -1;
  for (uint32_t k = 0; k < j->count; k++)
    if (!dsm__page_req_met(&q, k, (const uint32_t *)(j->pvs + pv_bytes * k)))
      return -1;
  /* The reply a PAGE message would have brought (home.c), every page FULL. */
  size_t one = pv_bytes + 4 + DSM__PAGE;
  uint8_t *out = xmalloc(one * j->count);
  const uint32_t full = DSM__PAGE_FULL;
  for (uint32_t k = 0; k < j->count; k++) {
    memcpy(out + one * k, j->pvs + pv_bytes * k, pv_bytes);
    memcpy(out + one * k + pv_bytes, &full, 4);
    memcpy(out + one * k + pv_bytes + 4, j->pages + (size_t)DSM__PAGE * k, DSM__PAGE);
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
}

int dsm__os_on(void) { return enabled; }

void dsm__os_fetch(dsm__call_t *calls, unsigned n)
{
  if (!enabled || !n) {
    dsm__tp_call_many(calls, n);
    return;
  }
  job_t *jobs = calloc(n, sizeof *jobs);
  dsm__read_t *rs = calloc(4 * (size_t)n, sizeof *rs);
  dsm__call_t *rest = calloc(n, sizeof *rest);
  unsigned *rest_of = calloc(n, sizeof *rest_of);
  if (!jobs || !rs || !rest || !rest_of)
    dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  unsigned nr = 0;
  pthread_mutex_lock(&dsm__mu);
  for (unsigned i = 0; i < n; i++)
    plan(&jobs[i], &calls[i], rs, &nr);
  pthread_mutex_unlock(&dsm__mu);

  dsm__tp_read_many(rs, nr);

  /* By message, whatever could not be read. */
  unsigned nrest = 0;
  for (unsigned i = 0; i < n; i++) {
    job_t *j = &jobs[i];
    if (j->onesided) {
      if (finish_pages(j, &calls[i]) == 0) {
        DSM__STAT_ADD(os_pages, j->count);
        continue;
      }
      DSM__STAT_INC(os_page_busy);
    }
    rest[nrest] = (dsm__call_t){ calls[i].dst, calls[i].type, calls[i].req, calls[i].req_len,
                                 NULL, 0 };
    rest_of[nrest++] = i;
  }
  dsm__tp_call_many(rest, nrest);
  for (unsigned r = 0; r < nrest; r++) {
    calls[rest_of[r]].reply = rest[r].reply;
    calls[rest_of[r]].reply_len = rest[r].reply_len;
  }
  for (unsigned i = 0; i < n; i++)
    free_job(&jobs[i]);
  free(jobs);
  free(rs);
  free(rest);
  free(rest_of);
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
  if (!mine || !theirs)
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
  DSM__DEBUG("one-sided page fetches %s", enabled ? "on" : "off");
}
