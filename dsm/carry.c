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
  uint32_t writer, idx, page, len;
  uint32_t *base;          /* nprocs entries */
  uint8_t *diff;
} entry_t;

struct dsm__carry {
  entry_t *e;              /* oldest first */
  size_t n, cap, bytes;
};

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
  if (!*cp) {
    *cp = calloc(1, sizeof **cp);
    if (!*cp) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  }
  entry_t e = { dsm__rank, idx, pg, (uint32_t)len, malloc(dsm__nprocs * 4), malloc(len ? len : 1) };
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
  free(c);
  *cp = NULL;
}

/* Wire: count:u32, then per entry writer idx page len:u32 base[nprocs] diff. */
void dsm__carry_encode(dsm__buf_t *b, dsm__carry_t **cp)
{
  dsm__carry_t *c = *cp;
  dsm__buf_u32(b, c ? (uint32_t)c->n : 0);
  if (!c)
    return;
  for (size_t i = 0; i < c->n; i++) {
    entry_t *e = &c->e[i];
    dsm__buf_u32(b, e->writer);
    dsm__buf_u32(b, e->idx);
    dsm__buf_u32(b, e->page);
    dsm__buf_u32(b, e->len);
    dsm__buf_put(b, e->base, dsm__nprocs * 4);
    dsm__buf_put(b, e->diff, e->len);
  }
  dsm__carry_free(cp);   /* it goes with the lock */
}

int dsm__carry_decode(dsm__rd_t *r, dsm__carry_t **cp)
{
  dsm__carry_free(cp);
  uint32_t n = dsm__rd_u32(r);
  if (r->bad || n > CARRY_ENTRIES)
    return -1;
  for (uint32_t i = 0; i < n; i++) {
    uint32_t writer = dsm__rd_u32(r), idx = dsm__rd_u32(r), page = dsm__rd_u32(r);
    uint32_t len = dsm__rd_u32(r);
    const void *base = dsm__rd_take(r, dsm__nprocs * 4);
    const void *diff = dsm__rd_take(r, len);
    if (r->bad || writer >= dsm__nprocs || page >= dsm__npages || len > dsm__diff_max(DSM__PAGE))
      return -1;
    if (!*cp) {
      *cp = calloc(1, sizeof **cp);
      if (!*cp) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    }
    entry_t e = { writer, idx, page, len, malloc(dsm__nprocs * 4), malloc(len ? len : 1) };
    if (!e.base || !e.diff) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    memcpy(e.base, base, dsm__nprocs * 4);
    memcpy(e.diff, diff, len);
    push_entry(*cp, e);
  }
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
      dsm__coll_took(touched[i]);
      if (!dsm__write_on_update(touched[i]))
        dsm__prot_queue(touched[i], DSM__PROT_READ);
    }
    dsm__page_check(touched[i], "a diff carried with a lock");
  }
  dsm__prot_flush();
  free(touched);
}
