/*
 * diff_send.c — the writer's side of DIFF: what a release sends to the homes
 * of the pages it wrote that are homed elsewhere.
 *
 * A release (interval.c) hands each such page over with the version its
 * twin was taken from. Normally the diff is made at once and queued
 * (dsm__diff_queue; a lock release also carries it). A collective's release
 * does better: the page keeps its twin and only its number waits in a list
 * per home (dsm__diff_defer). Nothing writes the page meanwhile: it is
 * write-protected, the application thread is inside the collective, and the
 * service thread writes home pages and pushed copies only.
 *
 * At the end of the release (dsm__diff_send_release) each list is turned
 * into one DIFF per home and sent, unless it holds more than
 * HOLD_OVER_PAGES pages: then it waits for the departure, which may move
 * those pages here (one writer in the epoch, collective.c). After the
 * departure is applied (dsm__diff_send_held) a page that moved here needs no
 * diff at all: its twin is dropped without a byte compared; the others are
 * encoded and sent. In the first sweep of a stencil that is every page of a
 * process's half: 4 MiB of diffs per process at the bench size that used to
 * be made, copied into a message and thrown away.
 *
 * Small lists go at once because a page that several processes write stays
 * where it is, and its readers wait at the home for every writer's diff.
 *
 * DIFF message: seq, epoch, idx, count, then per page: pg, len,
 * base[nprocs], diff[len]. One interval (idx) per message; the home applies
 * a writer's messages in seq order (home.c).
 */
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "dsm_internal.h"
#include "profile.h"
#include "lrc.h"
#include "net/transport.h"

#define HOLD_OVER_PAGES 16
/* A DIFF message is cut here: its size must not follow the program's data
 * (a transport message is at most 64 MiB, and NAS MG at class A wrote more
 * than that of pages homed elsewhere in one interval: issue 52). The home
 * applies the pieces in order like any of the writer's messages. */
#define DIFF_MSG_BYTES (4u << 20)

static dsm__buf_t *out;          /* [home]: DIFF being built */
static uint32_t *out_count;      /* [home]: pages in it */
static uint32_t *out_seq;        /* [home]: DIFF messages sent so far */
static uint32_t **dfr;          /* [home]: pages whose diff is not made yet */
static uint32_t **dfr_base;      /* [home]: their bases, nprocs each */
static uint32_t *dfr_idx;        /* [home]: their interval (one per list) */
static size_t *dfr_n, *dfr_cap;
static int holding;              /* inside a collective's release */

void dsm__diff_send_init(void)
{
  unsigned n = dsm__nprocs;
  out = dsm__xcalloc(n, sizeof *out);
  out_count = dsm__xcalloc(n, sizeof *out_count);
  out_seq = dsm__xcalloc(n, sizeof *out_seq);
  dfr = dsm__xcalloc(n, sizeof *dfr);
  dfr_base = dsm__xcalloc(n, sizeof *dfr_base);
  dfr_idx = dsm__xcalloc(n, sizeof *dfr_idx);
  dfr_n = dsm__xcalloc(n, sizeof *dfr_n);
  dfr_cap = dsm__xcalloc(n, sizeof *dfr_cap);
}

static void send_out(unsigned h)
{
  dsm__buf_t *b = &out[h];
  if (!b->len)
    return;
  uint32_t seq = ++out_seq[h];
  memcpy(b->p, &seq, 4);
  memcpy(b->p + 12, &out_count[h], 4);
  dsm__tp_send(h, DSM__MSG_DIFF, b->p, b->len);
  b->len = 0;
  out_count[h] = 0;
}

static uint32_t out_idx(unsigned h)
{
  uint32_t idx = 0;
  if (out[h].len)
    memcpy(&idx, out[h].p + 8, 4);
  return idx;
}

static void put_entry(unsigned h, uint32_t pg, uint32_t idx, const uint32_t *base,
                      const uint8_t *diff, size_t len)
{
  dsm__buf_t *b = &out[h];
  if (b->len && (out_idx(h) != idx || b->len + len + 8 + dsm__nprocs * 4 > DIFF_MSG_BYTES))
    send_out(h);                   /* one idx per message, and a bounded size */
  if (!b->len) {
    dsm__buf_u32(b, 0);            /* seq, set when sent */
    dsm__buf_u32(b, dsm__epoch);
    dsm__buf_u32(b, idx);
    dsm__buf_u32(b, 0);            /* count */
  }
  dsm__buf_u32(b, pg);
  dsm__buf_u32(b, (uint32_t)len);
  if (base)
    dsm__buf_put(b, base, dsm__nprocs * 4);
  else
    memset(dsm__buf_grow(b, dsm__nprocs * 4), 0, dsm__nprocs * 4);
  dsm__buf_put(b, diff, len);
  out_count[h]++;
}

/* Make the deferred diffs for home h and send them with whatever else is
 * queued for h. A page that moved here meanwhile needs none. */
static void settle(unsigned h)
{
  static uint8_t *tmp;
  if (!tmp)
    tmp = dsm__xcalloc(1, dsm__diff_max(DSM__PAGE));
  for (size_t k = 0; k < dfr_n[h]; k++) {
    uint32_t pg = dfr[h][k];
    dsm__page_t *p = dsm__page(pg);
    DSM__ASSERT(p->twin);
    if (p->home == dsm__rank) {
      DSM__STAT_INC(diffs_dropped);
    } else {
      size_t len = dsm__diff_encode(p->twin, dsm__page_current(pg), DSM__PAGE, tmp);
      put_entry(h, pg, dfr_idx[h], dfr_base[h] + k * dsm__nprocs, tmp, len);
      DSM__STAT_INC(diffs_created);
      DSM__STAT_ADD(diff_bytes_created, len);
      dsm__prof_diff_made(pg);
    }
    dsm__twin_free(p->twin);
    p->twin = NULL;
  }
  dfr_n[h] = 0;
  send_out(h);
}

void dsm__diff_queue(uint32_t pg, unsigned home, uint32_t idx, const uint32_t *base,
                     const uint8_t *diff, size_t len)
{
  if (dfr_n[home])
    settle(home);                  /* an earlier interval's: it goes first */
  put_entry(home, pg, idx, base, diff, len);
  DSM__STAT_INC(diffs_created);
  DSM__STAT_ADD(diff_bytes_created, len);
  dsm__prof_diff_made(pg);
}

int dsm__diff_defer(uint32_t pg, dsm__page_t *p, uint32_t idx)
{
  if (!holding)
    return 0;
  unsigned h = p->home;
  if ((dfr_n[h] && dfr_idx[h] != idx) || (out[h].len && out_idx(h) != idx))
    settle(h);
  if (dfr_n[h] == dfr_cap[h]) {
    size_t cap = dfr_cap[h] ? 2 * dfr_cap[h] : 256;
    uint32_t *nd = realloc(dfr[h], cap * sizeof *nd);
    uint32_t *nb = nd ? realloc(dfr_base[h], cap * dsm__nprocs * sizeof *nb) : NULL;
    if (!nd || !nb) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    dfr[h] = nd;
    dfr_base[h] = nb;
    dfr_cap[h] = cap;
  }
  size_t k = dfr_n[h]++;
  dfr[h][k] = pg;
  dfr_idx[h] = idx;
  uint32_t *base = dfr_base[h] + k * dsm__nprocs;
  if (p->pv)
    memcpy(base, p->pv, dsm__nprocs * sizeof *base);
  else
    memset(base, 0, dsm__nprocs * sizeof *base);
  return 1;
}

void dsm__diff_send_release(void)
{
  for (unsigned h = 0; h < dsm__nprocs; h++)
    if (!holding || dfr_n[h] + out_count[h] <= HOLD_OVER_PAGES)
      settle(h);
}

void dsm__diff_send_hold(void)
{
  holding = 1;
}

int dsm__diff_holding(void)
{
  return holding;
}

void dsm__diff_unhold(void)
{
  if (!holding)
    return;
  for (unsigned h = 0; h < dsm__nprocs; h++)
    if (dfr_n[h])
      settle(h);
}

void dsm__diff_send_held(void)
{
  holding = 0;
  for (unsigned h = 0; h < dsm__nprocs; h++)
    settle(h);
}
