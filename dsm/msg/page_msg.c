/*
 * page_msg.c — the PAGE message's encoders and decoders (page_msg.h says
 * what it carries). The decoders check every length and every number that
 * indexes an array before they return, so that the code that acts on a
 * request or a reply never meets a malformed one half-way through.
 */
#include <string.h>

#include "page_msg.h"
#include "lrc.h"

void dsm__page_req_begin(dsm__buf_t *b, uint32_t epoch, uint32_t count, int write, int back,
                         uint32_t fault_k)
{
  int mid = fault_k && !back;
  dsm__buf_u32(b, epoch);
  dsm__buf_u32(b, count | (write ? DSM__PAGE_REQ_WRITE : 0) | (back ? DSM__PAGE_REQ_BACK : 0) |
                      (mid ? DSM__PAGE_REQ_MID : 0));
  if (mid)
    dsm__buf_u32(b, fault_k);
}

void dsm__page_req_page(dsm__buf_t *b, uint32_t pg, const struct dsm__need *need,
                        unsigned own_rank, uint32_t own_idx)
{
  dsm__buf_u32(b, pg);
  size_t at = b->len;
  uint32_t n = 0;
  dsm__buf_u32(b, 0);
  for (const dsm__need_t *x = need; x; x = x->next, n++) {
    dsm__buf_u32(b, x->proc);
    dsm__buf_u32(b, x->idx);
  }
  if (own_idx) {
    dsm__buf_u32(b, own_rank);
    dsm__buf_u32(b, own_idx);
    n++;
  }
  memcpy(b->p + at, &n, 4);
}

int dsm__page_req_read(dsm__page_req_t *q, const void *data, size_t len, unsigned nprocs,
                       uint32_t npages)
{
  dsm__rd_t r = dsm__rd(data, len);
  q->epoch = dsm__rd_u32(&r);
  uint32_t word = dsm__rd_u32(&r);
  int mid = !!(word & DSM__PAGE_REQ_MID);
  q->write = !!(word & DSM__PAGE_REQ_WRITE);
  q->back = !!(word & DSM__PAGE_REQ_BACK);
  q->count = word & ~DSM__PAGE_REQ_FLAGS;
  if (r.bad || q->count == 0 || q->count > DSM__RUN_MAX || (mid && q->back))
    return 0;
  q->fault_k = q->back ? q->count - 1 : 0;
  if (mid)
    q->fault_k = dsm__rd_u32(&r);
  if (r.bad || q->fault_k >= q->count)
    return 0;
  for (uint32_t k = 0; k < q->count; k++) {
    q->pages[k] = dsm__rd_u32(&r);
    q->nneed[k] = dsm__rd_u32(&r);
    if (r.bad || q->pages[k] >= npages || q->nneed[k] > nprocs)
      return 0;
    q->needs[k] = dsm__rd_take(&r, (size_t)q->nneed[k] * 8);
    if (r.bad)
      return 0;
    for (uint32_t n = 0; n < q->nneed[k]; n++) {
      uint32_t proc;
      memcpy(&proc, q->needs[k] + 8 * n, 4);
      if (proc >= nprocs)
        return 0;
    }
  }
  return r.off == r.len;
}

unsigned dsm__page_req_need(const dsm__page_req_t *q, uint32_t k, uint32_t n, uint32_t *idx)
{
  uint32_t proc;
  memcpy(&proc, q->needs[k] + 8 * n, 4);
  memcpy(idx, q->needs[k] + 8 * n + 4, 4);
  return proc;
}

int dsm__page_req_met(const dsm__page_req_t *q, uint32_t k, const uint32_t *pv)
{
  for (uint32_t n = 0; n < q->nneed[k]; n++) {
    uint32_t idx;
    unsigned proc = dsm__page_req_need(q, k, n, &idx);
    if (!pv || pv[proc] < idx)
      return 0;
  }
  return 1;
}

void dsm__page_reply_init(dsm__page_reply_t *r, unsigned nprocs)
{
  r->n = 0;
  r->nprocs = nprocs;
}

void dsm__page_reply_add(dsm__page_reply_t *r, const uint32_t *pv, uint32_t kind,
                         const uint32_t *word, const void *bytes)
{
  static const uint32_t zeros[DSM__MAX_PROCS];
  static const uint32_t kinds[DSM__PAGE_KINDS] = { 0, 1, 2, 3, 4, 5 };
  r->bufs[r->n] = pv ? pv : zeros;
  r->lens[r->n++] = r->nprocs * 4;
  r->bufs[r->n] = &kinds[kind];
  r->lens[r->n++] = 4;
  if (kind == DSM__PAGE_MOVED || kind == DSM__PAGE_GIVEN || kind == DSM__PAGE_GIVEN_DATA) {
    r->bufs[r->n] = word;
    r->lens[r->n++] = 4;
  }
  if (kind == DSM__PAGE_FULL || kind == DSM__PAGE_GIVEN_DATA) {
    r->bufs[r->n] = bytes;
    r->lens[r->n++] = DSM__PAGE;
  }
}

/* The word after a kind: a rank other than the one that answered (MOVED),
 * or a gift's generation, which the page table keeps in 16 bits. */
static int word_ok(uint32_t kind, uint32_t word, unsigned home, unsigned nprocs)
{
  if (kind == DSM__PAGE_MOVED)
    return word < nprocs && word != home;
  return word != 0 && word <= UINT16_MAX;
}

int dsm__page_reply_read(dsm__page_ans_t *ans, const void *rep, size_t len, uint32_t count,
                         uint32_t fault_k, unsigned home, unsigned nprocs)
{
  dsm__rd_t r = dsm__rd(rep, len);
  for (uint32_t k = 0; k < count; k++) {
    dsm__page_ans_t *a = &ans[k];
    a->pv = dsm__rd_take(&r, (size_t)nprocs * 4);
    a->kind = dsm__rd_u32(&r);
    a->word = 0;
    a->data = NULL;
    if (r.bad || a->kind >= DSM__PAGE_KINDS || (a->kind == DSM__PAGE_SKIPPED && k == fault_k))
      return 0;
    if (a->kind == DSM__PAGE_MOVED || a->kind == DSM__PAGE_GIVEN ||
        a->kind == DSM__PAGE_GIVEN_DATA) {
      a->word = dsm__rd_u32(&r);
      if (r.bad || !word_ok(a->kind, a->word, home, nprocs))
        return 0;
    }
    if (a->kind == DSM__PAGE_FULL || a->kind == DSM__PAGE_GIVEN_DATA) {
      a->data = dsm__rd_take(&r, DSM__PAGE);
      if (r.bad)
        return 0;
    }
  }
  return r.off == r.len;
}
