/*
 * carry.c — diffs that travel with a lock (migratory data).
 *
 * Under home-based LRC a page written under a lock reaches the next holder
 * in two steps: the releaser sends its diff home, and the next holder,
 * faulting on the page, fetches the whole page from the home — a round trip
 * per page per handoff, which a homeless protocol pays as well (it fetches
 * the diff from the previous holder). The lock can do better: it goes from
 * holder to holder anyway, so it carries the diffs its holders made under
 * it. The next holder applies them to its out-of-date copies before it runs
 * (dsm__carry_apply), and a copy that then holds every need is valid again
 * with no fault and no message.
 *
 * A carried diff is (writer, interval, page, base, bytes), where base is the
 * version vector of the copy the writer's twin was taken from. It applies
 * to a copy that already holds everything the base held: the diff carries
 * exactly the writer's bytes, so the result holds the base's writes and the
 * writer's, i.e. the copy's version with the writer's entry moved to the
 * interval. Diffs are applied in the order the lock's holders made them,
 * which is happens-before order. A copy that does not hold the base (it
 * missed an earlier holder whose entry was dropped), a cold page, and the
 * home's own copy (its DIFF messages do that, in order) are left alone; they
 * are fetched as usual.
 *
 * The load is bounded (CARRY_ENTRIES entries, CARRY_BYTES of diffs; the
 * oldest go first), so a lock that protects much data costs its grants at
 * most that much.
 *
 * A grant sends only what its receiver does not have. The entries of a
 * lock are numbered (seq) in the order they were made, and the lock
 * carries, for each process, the number up to which it holds every entry
 * of the window: `seen`. A process that passes the lock on keeps its
 * window (it is not freed), so when the lock comes back it takes from the
 * grant the entries made since it last had it and rebuilds the rest of the
 * window from what it kept. Entries it made itself are always below its
 * `seen`. Before this (2026-12-07), every grant carried the whole window:
 * tsp's lock moved 11 KB per grant at 16 processes, 9.4 of the run's 12.4
 * MB, most of it entries the receiver had had before. An entry the
 * receiver should hold but does not (it never can lose one, but a window
 * rebuilt from nothing is still correct) only costs it a fetch: a diff
 * applies only to a copy holding its base, and pages it does not bring up
 * to date are fetched from their homes as usual.
 */
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "dsm_internal.h"
#include "profile.h"
#include "lrc.h"
#include "page_state.h"

#define CARRY_BYTES   (64u << 10)
#define CARRY_ENTRIES 256u

typedef struct entry {
  uint32_t seq;            /* its number among the lock's entries */
  uint32_t writer, idx, page, len;
  uint32_t *base;          /* nprocs entries */
  uint8_t *diff;
} entry_t;

struct dsm__carry {
  entry_t *e;              /* oldest first */
  size_t n, cap, bytes;
  uint32_t next_seq;       /* the number the next entry gets */
  uint32_t *seen;          /* [nprocs]: each holds every entry of the window below this */
};

static dsm__carry_t *carry_new(void)
{
  dsm__carry_t *c = calloc(1, sizeof *c);
  if (!c || !(c->seen = calloc(dsm__nprocs, sizeof *c->seen)))
    dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  return c;
}

static void entry_free(entry_t *e)
{
  free(e->base);
  free(e->diff);
}

static void drop_oldest(dsm__carry_t *c)
{
  c->bytes -= c->e[0].len;
  entry_free(&c->e[0]);
  memmove(c->e, c->e + 1, (c->n - 1) * sizeof *c->e);
  c->n--;
}

static void push_entry(dsm__carry_t *c, entry_t e)
{
  if (e.len > CARRY_BYTES) {
    entry_free(&e);
    return;
  }
  while (c->n && (c->n >= CARRY_ENTRIES || c->bytes + e.len > CARRY_BYTES))
    drop_oldest(c);
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 16;
    c->e = realloc(c->e, c->cap * sizeof *c->e);
    if (!c->e) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  }
  c->e[c->n++] = e;
  c->bytes += e.len;
}

void dsm__carry_add(dsm__carry_t **cp, uint32_t pg, uint32_t idx, const uint32_t *base,
                    const uint8_t *diff, size_t len)
{
  if (len > CARRY_BYTES)
    return;                  /* too big to carry: never numbered, so no gap */
  if (!*cp)
    *cp = carry_new();
  entry_t e = { (*cp)->next_seq++, dsm__rank, idx, pg, (uint32_t)len, malloc(dsm__nprocs * 4),
                malloc(len ? len : 1) };
  if (!e.base || !e.diff) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  if (base) memcpy(e.base, base, dsm__nprocs * 4); else memset(e.base, 0, dsm__nprocs * 4);
  memcpy(e.diff, diff, len);
  push_entry(*cp, e);
}

void dsm__carry_free(dsm__carry_t **cp)
{
  dsm__carry_t *c = *cp;
  if (!c)
    return;
  for (size_t i = 0; i < c->n; i++)
    entry_free(&c->e[i]);
  free(c->e);
  free(c->seen);
  free(c);
  *cp = NULL;
}

/* Wire: next first from:u32 (the window's next number, its oldest, and
 * where the entries sent begin: the receiver's `seen`, or first), seen
 * (nprocs u32), count:u32, then per entry seq writer idx page len:u32
 * base[nprocs] diff. */
void dsm__carry_encode(dsm__buf_t *b, dsm__carry_t **cp, unsigned to)
{
  dsm__carry_t *c = *cp;
  if (!c)
    c = *cp = carry_new();
  c->seen[dsm__rank] = c->next_seq;      /* we hold the whole window */
  uint32_t first = c->n ? c->e[0].seq : c->next_seq;
  uint32_t from_seq = c->seen[to] > first ? c->seen[to] : first;
  size_t from = 0;
  while (from < c->n && c->e[from].seq < from_seq)
    from++;
  dsm__buf_u32(b, c->next_seq);
  dsm__buf_u32(b, first);
  dsm__buf_u32(b, from_seq);
  dsm__buf_put(b, c->seen, dsm__nprocs * 4);
  dsm__buf_u32(b, (uint32_t)(c->n - from));
  for (size_t i = from; i < c->n; i++) {
    entry_t *e = &c->e[i];
    dsm__buf_u32(b, e->seq);
    dsm__buf_u32(b, e->writer);
    dsm__buf_u32(b, e->idx);
    dsm__buf_u32(b, e->page);
    dsm__buf_u32(b, e->len);
    dsm__buf_put(b, e->base, dsm__nprocs * 4);
    dsm__buf_put(b, e->diff, e->len);
  }
  DSM__STAT_ADD(diffs_carried_kept, from);
}

/* What we kept of the window when we last passed the lock on: the entries
 * numbered from first (the window's oldest now) and below upto (where the
 * grant's entries begin). */
static void keep_window(dsm__carry_t *c, uint32_t first, uint32_t upto)
{
  size_t keep = 0;
  for (size_t i = 0; i < c->n; i++) {
    if (c->e[i].seq >= first && c->e[i].seq < upto)
      c->e[keep++] = c->e[i];
    else {
      c->bytes -= c->e[i].len;
      entry_free(&c->e[i]);
    }
  }
  c->n = keep;
}

int dsm__carry_decode(dsm__rd_t *r, dsm__carry_t **cp)
{
  uint32_t next = dsm__rd_u32(r), first = dsm__rd_u32(r), from = dsm__rd_u32(r);
  const void *seen = dsm__rd_take(r, dsm__nprocs * 4);
  uint32_t n = dsm__rd_u32(r);
  if (r->bad || n > CARRY_ENTRIES || first > from || from > next || n > next - from)
    return -1;
  if (!*cp)
    *cp = carry_new();
  dsm__carry_t *c = *cp;
  memcpy(c->seen, seen, dsm__nprocs * 4);
  keep_window(c, first, from);
  c->next_seq = next;
  uint32_t want = from;                   /* the least number the next entry may have */
  for (uint32_t i = 0; i < n; i++) {
    uint32_t seq = dsm__rd_u32(r), writer = dsm__rd_u32(r), idx = dsm__rd_u32(r);
    uint32_t page = dsm__rd_u32(r), len = dsm__rd_u32(r);
    const void *base = dsm__rd_take(r, dsm__nprocs * 4);
    const void *diff = dsm__rd_take(r, len);
    if (r->bad || seq < want || seq >= next || writer >= dsm__nprocs ||
        page >= dsm__npages || len > dsm__diff_max(DSM__PAGE))
      return -1;
    want = seq + 1;
    entry_t e = { seq, writer, idx, page, len, malloc(dsm__nprocs * 4), malloc(len ? len : 1) };
    if (!e.base || !e.diff) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    memcpy(e.base, base, dsm__nprocs * 4);
    memcpy(e.diff, diff, len);
    push_entry(c, e);
  }
  c->seen[dsm__rank] = next;
  return 0;
}

/* DSM_CARRY=0 turns carried diffs off (for measuring what they bring). */
static int carry_on(void)
{
  static int on = -1;
  if (on < 0)
    on = (int)dsm__env_long("DSM_CARRY", 1, 0, 1);
  return on;
}

void dsm__carry_apply(dsm__carry_t *c)
{
  if (!c || !carry_on())
    return;
  uint32_t *touched = NULL;
  size_t ntouched = 0;
  for (size_t i = 0; i < c->n; i++) {
    entry_t *e = &c->e[i];
    dsm__page_t *p = dsm__page(e->page);
    if (p->home == dsm__rank || p->valid || p->pushed || p->dirty || !p->pv || p->carry_off ||
        p->pv[e->writer] >= e->idx)
      continue;
    int holds_base = 1;
    for (unsigned q = 0; q < dsm__nprocs && holds_base; q++)
      holds_base = p->pv[q] >= e->base[q];
    if (!holds_base)
      continue;
    if (dsm__diff_apply(dsm__page_sys(e->page), DSM__PAGE, e->diff, e->len) < 0)
      dsm__fatal(DSM__EXIT_FATAL, "malformed diff of page %u carried with a lock", e->page);
    p->pv[e->writer] = e->idx;
    DSM__DEBUG("carry: page %u gets (%u,%u), %u bytes", e->page, e->writer, e->idx, e->len);
    touched = realloc(touched, (ntouched + 1) * sizeof *touched);
    if (!touched) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    touched[ntouched++] = e->page;
    DSM__STAT_INC(diffs_carried);
    dsm__prof_in(e->page, e->len, DSM__PROF_FETCHED);
  }
  for (size_t i = 0; i < ntouched; i++) {
    dsm__page_t *p = dsm__page(touched[i]);
    if (!p->valid && dsm__need_met(p, p->pv)) {
      dsm__need_clear(p);
      p->valid = 1;
      dsm__took_add(touched[i]);
      if (!dsm__write_ahead_on_update(touched[i]))
        dsm__prot_queue(touched[i], DSM__PROT_READ);
    }
    dsm__page_check(touched[i], "a diff carried with a lock");
  }
  dsm__prot_flush();
  free(touched);
}
