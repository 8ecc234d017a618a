/*
 * fault.c — access detection and page validation.
 *
 * The application view's protections say what this process may do with a
 * page: PROT_NONE when it holds no up-to-date copy, read-only when it may
 * read but a write must be noticed, read-write while it is being written in
 * the open interval. libsigsegv delivers the faults; the handler runs on an
 * alternate signal stack because the master's own stack is shared memory and
 * may be the page that faulted.
 *
 * Validating a page takes one parallel round of requests: the whole page from
 * its home when there is no base copy here (a cold miss), and the diffs of
 * every pending write notice from their writers. Diffs are applied in an
 * order consistent with happens-before (by the sum of the interval's vector
 * time). The page contents are always written through the system view.
 *
 * Locking: dsm__mu is never held while waiting for the network, and the
 * service thread never waits for anything the application thread holds.
 */
#include <errno.h>
#include <signal.h>
#include <sigsegv.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "diff.h"
#include "dsm_internal.h"
#include "lrc.h"
#include "onesided.h"
#include "transport.h"

static void *xmalloc(size_t n)
{
  void *p = malloc(n ? n : 1);
  if (!p) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  return p;
}

/* ---- own diffs ------------------------------------------------------------- */

void dsm__diff_from_twin(uint32_t pg, dsm__page_t *p)
{
  if (!p->twin)
    return;
  /* A twin of the open interval is diffed only after the interval closes
   * (dsm__release); one diff per interval is what find_diff relies on. */
  DSM__ASSERT(!p->dirty);
  /* Only used under dsm__mu, so one buffer serves everyone. */
  static uint8_t tmp[5 * DSM__PAGE / 2 + 64];
  DSM__ASSERT(dsm__diff_max(DSM__PAGE) <= sizeof tmp);
  size_t len = dsm__diff_encode(p->twin, dsm__page_sys(pg), DSM__PAGE, tmp);
  dsm__diffrec_t *d = xmalloc(sizeof *d + len);
  d->idx = p->twin_idx;
  d->len = (uint32_t)len;
  memcpy(d->data, tmp, len);
  d->next = p->diffs;
  p->diffs = d;
  free(p->twin);
  p->twin = NULL;
  dsm__stats_consistency((int64_t)(sizeof *d + len) - DSM__PAGE);
  DSM__STAT_INC(diffs_created);
  DSM__STAT_ADD(diff_bytes_created, len);
  dsm__os_diff_made(pg, d->idx, d->data, d->len);
}

static const dsm__diffrec_t *find_diff(uint32_t pg, dsm__page_t *p, uint32_t idx)
{
  if (p->twin && p->twin_idx == idx && !p->dirty)
    dsm__diff_from_twin(pg, p);
  for (const dsm__diffrec_t *d = p->diffs; d; d = d->next)
    if (d->idx == idx)
      return d;
  return NULL;
}

/* ---- serving requests (service thread) ------------------------------------- */

/* DIFF request: page, count, idx[count]. Reply: per idx, len and bytes. */
static void on_diff(const dsm__msg_t *m)
{
  dsm__rd_t r = dsm__rd(m->data, m->len);
  uint32_t pg = dsm__rd_u32(&r), count = dsm__rd_u32(&r);
  const uint32_t *idx = dsm__rd_take(&r, (size_t)count * 4);
  if (r.bad || pg >= dsm__npages)
    dsm__fatal(DSM__EXIT_FATAL, "malformed DIFF request from rank %u", m->origin);
  dsm__buf_t b = { 0 };
  pthread_mutex_lock(&dsm__mu);
  dsm__page_t *p = dsm__page(pg);
  for (uint32_t k = 0; k < count; k++) {
    const dsm__diffrec_t *d = find_diff(pg, p, idx[k]);
    if (!d)
      dsm__fatal(DSM__EXIT_FATAL, "internal error: rank %u asked for my diff of page %u "
                 "in interval %u, which I do not have", m->origin, pg, idx[k]);
    dsm__buf_u32(&b, d->idx);
    dsm__buf_u32(&b, d->len);
    dsm__buf_put(&b, d->data, d->len);
  }
  pthread_mutex_unlock(&dsm__mu);
  dsm__tp_reply(dsm__reqh(m), b.p, b.len);
  dsm__buf_free(&b);
}

/* PAGE request: first page, count. Reply: per page, the version vector of our
 * copy (which intervals it contains) and the bytes. Only the home serves, and
 * its copy is never cold.
 * A page written in our open interval is served as its twin: the state after
 * our closed intervals, which is exactly what the version vector claims. The
 * live page would leak writes of the open interval, and those are not
 * repaired by its diff later: a diff carries only bytes that differ from the
 * twin, so a byte changed and changed back within the interval (a swap in a
 * sort) would keep the stale intermediate value at the reader for good.
 * While the page is dirty nothing but our own writes changes it (an acquire
 * closes the interval before it may invalidate the page). */
static void on_page(const dsm__msg_t *m)
{
  dsm__rd_t r = dsm__rd(m->data, m->len);
  uint32_t pg0 = dsm__rd_u32(&r), count = dsm__rd_u32(&r);
  if (r.bad || count == 0 || count > 64 || pg0 >= dsm__npages || count > dsm__npages - pg0)
    dsm__fatal(DSM__EXIT_FATAL, "malformed PAGE request from rank %u", m->origin);
  size_t one = dsm__nprocs * 4 + DSM__PAGE;
  uint8_t *out = xmalloc(one * count);
  pthread_mutex_lock(&dsm__mu);
  for (uint32_t k = 0; k < count; k++) {
    uint32_t pg = pg0 + k;
    dsm__page_t *p = dsm__page(pg);
    DSM__ASSERT(!p->cold);
    uint32_t *pv = (uint32_t *)(out + one * k);
    for (unsigned q = 0; q < dsm__nprocs; q++)
      pv[q] = p->pv ? p->pv[q] : 0;
    pv[dsm__rank] = dsm__vt[dsm__rank];
    const uint8_t *src = p->dirty ? p->twin : dsm__page_sys(pg);
    DSM__ASSERT(src);
    memcpy(out + one * k + dsm__nprocs * 4, src, DSM__PAGE);
  }
  /* Asked once: from now on peers may read the chunk one-sided. */
  dsm__os_home_served(pg0);
  dsm__os_home_served(pg0 + count - 1);
  pthread_mutex_unlock(&dsm__mu);
  dsm__tp_reply(dsm__reqh(m), out, one * count);
  free(out);
}

/* ---- validation (application thread) --------------------------------------- */

typedef struct pending { const dsm__interval_t *iv; const uint8_t *diff; uint32_t len; } pending_t;

static int by_happens_before(const void *a, const void *b)
{
  const pending_t *x = a, *y = b;
  if (x->iv->vtsum != y->iv->vtsum) return x->iv->vtsum < y->iv->vtsum ? -1 : 1;
  return x->iv->proc < y->iv->proc ? -1 : x->iv->proc > y->iv->proc;
}

static uint32_t *page_pv(dsm__page_t *p)
{
  if (!p->pv) {
    p->pv = calloc(dsm__nprocs, sizeof(uint32_t));
    /* Bounded by the page count, like the page table: not counted as
     * consistency data. */
    if (!p->pv) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  }
  return p->pv;
}

/* How many pages after pg can ride along in one cold fetch: consecutive,
 * same home, cold here, and with no notices but the home's (so the home's
 * copy is all they need). */
static uint32_t cold_run(uint32_t pg, int home)
{
  static uint32_t max;
  if (!max)
    max = (uint32_t)dsm__env_long("DSM_PREFETCH", 16, 1, 64);
  uint32_t n = 1;
  while (n < max && pg + n < dsm__npages) {
    long a = dsm__page_of((void *)(dsm__page_addr(pg) + (uintptr_t)n * DSM__PAGE));
    if (a != (long)(pg + n) || dsm__page_home(pg + n) != home) break;
    dsm__page_t *q = dsm__page(pg + n);
    if (!q->cold || q->prot != DSM__PROT_NONE) break;
    int others = 0;     /* the home's own notices are covered by its copy */
    for (dsm__notice_t *x = q->notices; x; x = x->next)
      others |= (int)x->iv->proc != home;
    if (others) break;
    n++;
  }
  return n;
}

/* A page that rode along in a cold fetch: its notices were all the home's,
 * and the home's copy contains them. */
static void free_home_notices(dsm__page_t *p)
{
  for (dsm__notice_t *n = p->notices, *next; n; n = next) {
    next = n->next;
    free(n);
    dsm__stats_consistency(-(int64_t)sizeof *n);
  }
  p->notices = NULL;
}

void dsm__page_validate(uint32_t pg)
{
  pthread_mutex_lock(&dsm__mu);
  dsm__page_t *p = dsm__page(pg);
  if (p->prot != DSM__PROT_NONE) {   /* someone else's fault already fixed it */
    pthread_mutex_unlock(&dsm__mu);
    return;
  }
  /* Our own writes must be diffed before anyone else's land on the page. */
  dsm__diff_from_twin(pg, p);

  int home = dsm__page_home(pg);
  int cold = p->cold;
  DSM__DEBUG("validate page %u (home %d%s)", pg, home, cold ? ", cold" : "");
  uint32_t ncold = cold ? cold_run(pg, home) : 0;

  /* Group pending notices by writer. A cold fetch from the home brings the
   * home's own closed intervals, so those are not asked for. */
  unsigned nwriters = 0;
  unsigned *writer_of = calloc(dsm__nprocs, sizeof(unsigned));   /* 1-based call slot */
  dsm__buf_t *reqs = calloc(dsm__nprocs + 1, sizeof(dsm__buf_t));
  dsm__call_t *calls = calloc(dsm__nprocs + 1, sizeof(dsm__call_t));
  unsigned *call_writer = calloc(dsm__nprocs + 1, sizeof(unsigned));
  if (!writer_of || !reqs || !calls || !call_writer)
    dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  unsigned ncalls = 0;
  if (cold) {
    dsm__buf_u32(&reqs[0], pg);
    dsm__buf_u32(&reqs[0], ncold);
    calls[0].dst = (unsigned)home;
    calls[0].type = DSM__MSG_PAGE;
    ncalls = 1;
  }
  for (dsm__notice_t *n = p->notices; n; n = n->next) {
    uint32_t q = n->iv->proc;
    if (cold && (int)q == home)
      continue;
    if (!writer_of[q]) {
      writer_of[q] = ++nwriters;
      unsigned c = ncalls++;
      call_writer[c] = q;
      dsm__buf_u32(&reqs[c], pg);
      dsm__buf_u32(&reqs[c], 0);   /* count, patched below */
    }
  }
  for (unsigned c = cold ? 1 : 0; c < ncalls; c++) {
    uint32_t q = call_writer[c], count = 0;
    for (dsm__notice_t *n = p->notices; n; n = n->next)
      if (n->iv->proc == q) {
        dsm__buf_u32(&reqs[c], n->iv->idx);
        count++;
      }
    memcpy(reqs[c].p + 4, &count, 4);
    calls[c].dst = q;
    calls[c].type = DSM__MSG_DIFF;
  }
  for (unsigned c = 0; c < ncalls; c++) {
    calls[c].req = reqs[c].p;
    calls[c].req_len = reqs[c].len;
  }
  pthread_mutex_unlock(&dsm__mu);

  if (ncalls)
    dsm__os_fetch(calls, ncalls);

  pthread_mutex_lock(&dsm__mu);
  /* At its home the page changes below: readers of its memory must wait. */
  dsm__os_home_begin(pg);
  /* Only this thread changes notices and invalidates pages, so the state we
   * planned from still holds. */
  uint32_t *pv = page_pv(p);
  if (cold) {
    size_t one = dsm__nprocs * 4 + DSM__PAGE;
    if (calls[0].reply_len != one * ncold)
      dsm__fatal(DSM__EXIT_FATAL, "malformed PAGE reply from rank %d", home);
    for (uint32_t k = 0; k < ncold; k++) {
      const uint8_t *src = (const uint8_t *)calls[0].reply + one * k;
      dsm__page_t *pk = dsm__page(pg + k);
      uint32_t *pvk = page_pv(pk);
      memcpy(pvk, src, dsm__nprocs * 4);
      memcpy(dsm__page_sys(pg + k), src + dsm__nprocs * 4, DSM__PAGE);
      pk->cold = 0;
      if (k > 0) {
        free_home_notices(pk);
        dsm__set_prot(pg + k, DSM__PROT_READ);
      }
    }
    DSM__STAT_ADD(pages_fetched, ncold);
  }
  /* Collect the diffs our copy lacks, then apply them in order. */
  size_t npend = 0, cap = 16;
  pending_t *pend = xmalloc(cap * sizeof *pend);
  for (unsigned c = cold ? 1 : 0; c < ncalls; c++) {
    dsm__rd_t r = dsm__rd(calls[c].reply, calls[c].reply_len);
    uint32_t q = call_writer[c];
    while (r.off < r.len) {
      uint32_t idx = dsm__rd_u32(&r), len = dsm__rd_u32(&r);
      const uint8_t *data = dsm__rd_take(&r, len);
      const dsm__interval_t *iv = dsm__interval_get(q, idx);
      if (r.bad || !iv)
        dsm__fatal(DSM__EXIT_FATAL, "malformed DIFF reply from rank %u", q);
      if (idx <= pv[q])
        continue;   /* the base copy already contains it */
      if (npend == cap) pend = realloc(pend, (cap *= 2) * sizeof *pend);
      pend[npend++] = (pending_t){ iv, data, len };
    }
  }
  qsort(pend, npend, sizeof *pend, by_happens_before);
  uint8_t *sys = dsm__page_sys(pg);
  for (size_t i = 0; i < npend; i++) {
    if (dsm__diff_apply(sys, DSM__PAGE, pend[i].diff, pend[i].len) < 0)
      dsm__fatal(DSM__EXIT_FATAL, "malformed diff from rank %u for page %u", pend[i].iv->proc, pg);
    if (pend[i].iv->idx > pv[pend[i].iv->proc])
      pv[pend[i].iv->proc] = pend[i].iv->idx;
    DSM__STAT_INC(diffs_applied);
    DSM__STAT_ADD(diff_bytes_applied, pend[i].len);
  }
  /* Every notice is now satisfied. */
  for (dsm__notice_t *n = p->notices, *next; n; n = next) {
    next = n->next;
    if (n->iv->idx > pv[n->iv->proc] && !(cold && (int)n->iv->proc == home))
      dsm__fatal(DSM__EXIT_FATAL, "internal error: notice (%u,%u) of page %u not satisfied",
                 n->iv->proc, n->iv->idx, pg);
    free(n);
    dsm__stats_consistency(-(int64_t)sizeof *n);
  }
  p->notices = NULL;
  p->cold = 0;
  dsm__set_prot(pg, DSM__PROT_READ);
  dsm__os_home_end(pg);
  pthread_mutex_unlock(&dsm__mu);

  free(pend);
  for (unsigned c = 0; c < ncalls; c++) {
    free(calls[c].reply);
    dsm__buf_free(&reqs[c]);
  }
  free(calls);
  free(reqs);
  free(writer_of);
  free(call_writer);
}

/* A write to a readable page: take a twin and let the write through. */
static void write_fault(uint32_t pg)
{
  pthread_mutex_lock(&dsm__mu);
  dsm__page_t *p = dsm__page(pg);
  if (p->prot == DSM__PROT_READ) {
    DSM__STAT_INC(write_faults);
    dsm__diff_from_twin(pg, p);        /* an older interval's writes */
    p->twin = xmalloc(DSM__PAGE);
    memcpy(p->twin, dsm__page_sys(pg), DSM__PAGE);
    p->twin_idx = dsm__vt[dsm__rank] + 1;
    dsm__stats_consistency(DSM__PAGE);
    DSM__STAT_INC(twins);
    p->dirty = 1;
    dsm__dirty_add(pg);
    dsm__gc_track(pg, p);
    /* At the home, the page is now written with no further notice until
     * the release: one-sided readers must not take it meanwhile. */
    dsm__os_home_begin(pg);
    dsm__set_prot(pg, DSM__PROT_WRITE);
  }
  pthread_mutex_unlock(&dsm__mu);
}

/* libsigsegv calls this for every fault; 0 means "not ours". libsigsegv does
 * not say whether the access was a read or a write: an invalid page is made
 * readable first, and a write then faults a second time. */
static int on_fault(void *addr, int serious)
{
  long pg = dsm__page_of(addr);
  if (pg < 0) {
    DSM__DEBUG("fault at %p outside shared memory", addr);
    return 0;
  }
  pthread_mutex_lock(&dsm__mu);
  int prot = dsm__page((uint32_t)pg)->prot;
  pthread_mutex_unlock(&dsm__mu);
  if (prot == DSM__PROT_NONE) {
    DSM__STAT_INC(read_faults);
    dsm__page_validate((uint32_t)pg);
  } else if (prot == DSM__PROT_READ) {
    write_fault((uint32_t)pg);
  } else {
    DSM__DEBUG("fault at %p on writable page %ld: not a protocol fault", addr, pg);
    return 0;   /* writable and still faulting: not a protocol fault */
  }
  return 1;
}

void dsm__fault_init(void)
{
  dsm__tp_handle(DSM__MSG_DIFF, on_diff);
  dsm__tp_handle(DSM__MSG_PAGE, on_page);
  if (!dsm__protect)
    return;
  /* The handler must not run on the faulting stack: it may be the master's
   * shared stack, whose page is what faulted. */
  static char altstack[256 * 1024] __attribute__((aligned(16)));
  stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0 };
  if (sigaltstack(&ss, NULL) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "sigaltstack: %s", strerror(errno));
  if (sigsegv_install_handler(on_fault) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "cannot install the page fault handler (libsigsegv)");
  /* libsigsegv installs its handler without SA_ONSTACK unless a stack
   * overflow handler is also installed; add it. */
  int sigs[] = { SIGSEGV, SIGBUS };
  for (unsigned i = 0; i < 2; i++) {
    struct sigaction sa;
    if (sigaction(sigs[i], NULL, &sa) == 0 && sa.sa_handler != SIG_DFL) {
      sa.sa_flags |= SA_ONSTACK;
      sigaction(sigs[i], &sa, NULL);
    }
  }
}
