/*
 * lrc_state.c — what lazy release consistency knows in this process: vector
 * time, each copy's version and the write notices it does not satisfy yet,
 * twins, the pages written in the open interval, and the copies taken from
 * elsewhere since the last collective.
 *
 * The bottom of the protocol (docs/hacking.md draws the layers): the
 * fault path, the homes, releases and acquires, collectives and every
 * policy read and change this state, and it calls none of them back. That
 * is what keeps the protocol's files from calling each other in a circle.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "dsm_internal.h"
#include "lrc_state.h"

uint32_t *dsm__vt, *dsm__known, *dsm__gc_vt, *dsm__seen;
uint32_t dsm__epoch;
uint32_t *dsm__dirty;
size_t dsm__ndirty;
static size_t dirty_cap;

void dsm__lrc_state_init(void)
{
  dsm__vt = dsm__xcalloc(dsm__nprocs, sizeof(uint32_t));
  dsm__known = dsm__xcalloc(dsm__nprocs, sizeof(uint32_t));
  dsm__gc_vt = dsm__xcalloc(dsm__nprocs, sizeof(uint32_t));
  dsm__seen = dsm__xcalloc(dsm__nprocs, sizeof(uint32_t));
}

/* ---- twins ----------------------------------------------------------------------- */

/* Twins come and go with every interval. Fresh memory costs a kernel page
 * fault per page at its first touch (tens of microseconds on a
 * paravirtualised guest: more than the fault that asked for the twin), so
 * twins are carved from chunks that one mmap populates, and a freed twin
 * goes back on a free list, never to the system: the pool is as large as
 * the most pages this process has had written at once. Under dsm__mu. */
#define TWIN_CHUNK 64
static uint8_t **twin_pool;
static size_t ntwin_pool, twin_pool_cap, twins_made;

static void twin_pool_room(size_t n)
{
  twin_pool = dsm__grow_mapped(twin_pool, &twin_pool_cap, n, sizeof *twin_pool);
}

uint8_t *dsm__twin_alloc(void)
{
  if (!ntwin_pool) {
    uint8_t *c = mmap(NULL, (size_t)TWIN_CHUNK * DSM__PAGE, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (c == MAP_FAILED) dsm__fatal(DSM__EXIT_FATAL, "out of private memory (twins)");
    twins_made += TWIN_CHUNK;
    twin_pool_room(twins_made);
    for (size_t i = TWIN_CHUNK; i-- > 0;)
      twin_pool[ntwin_pool++] = c + i * DSM__PAGE;
  }
  dsm__stats_consistency(DSM__PAGE);
  return twin_pool[--ntwin_pool];
}

void dsm__twin_free(uint8_t *t)
{
  if (!t)
    return;
  dsm__stats_consistency(-(int64_t)DSM__PAGE);
  DSM__ASSERT(ntwin_pool < twins_made);
  twin_pool[ntwin_pool++] = t;
}

/* ---- needs ----------------------------------------------------------------------- */

uint32_t *dsm__page_pv(dsm__page_t *p)
{
  if (!p->pv) {
    p->pv = calloc(dsm__nprocs, sizeof(uint32_t));
    /* Bounded by the page count, like the page table: not counted as
     * consistency data. */
    if (!p->pv) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  }
  return p->pv;
}

void dsm__need_add(uint32_t pg, dsm__page_t *p, uint32_t proc, uint32_t idx)
{
  for (dsm__need_t *n = p->need; n; n = n->next)
    if (n->proc == proc) {
      if (idx > n->idx) n->idx = idx;
      return;
    }
  dsm__need_t *n = dsm__xcalloc(1, sizeof *n);
  n->proc = proc;
  n->idx = idx;
  n->next = p->need;
  p->need = n;
  dsm__stats_consistency((int64_t)sizeof *n);
}

void dsm__need_clear(dsm__page_t *p)
{
  for (dsm__need_t *n = p->need, *next; n; n = next) {
    next = n->next;
    free(n);
    dsm__stats_consistency(-(int64_t)sizeof *n);
  }
  p->need = NULL;
}

int dsm__need_met(const dsm__page_t *p, const uint32_t *pv)
{
  for (const dsm__need_t *n = p->need; n; n = n->next)
    if (!pv || pv[n->proc] < n->idx)
      return 0;
  /* Our own diff of the page may still be on its way to the home: a copy
   * without it would take our writes back. */
  if (p->own_last && (!pv || pv[dsm__rank] < p->own_last))
    return 0;
  return 1;
}

/* ---- what this process may have seen ---------------------------------------------- */

void dsm__seen_pv(const uint32_t *pv)
{
  for (uint32_t q = 0; q < dsm__nprocs; q++)
    if (pv[q] > dsm__seen[q])
      dsm__seen[q] = pv[q];
}

unsigned dsm__seen_unknown(uint32_t *need)
{
  unsigned n = 0;
  for (uint32_t q = 0; q < dsm__nprocs; q++) {
    need[q] = q != dsm__rank && dsm__seen[q] > dsm__known[q] ? dsm__seen[q] : 0;
    n += need[q] != 0;
  }
  return n;
}

/* ---- the written set -------------------------------------------------------------- */

void dsm__dirty_add(uint32_t pg)
{
  if (dsm__ndirty == dirty_cap)
    dsm__dirty = dsm__grow_mapped(dsm__dirty, &dirty_cap, dsm__ndirty + 1, sizeof *dsm__dirty);
  dsm__dirty[dsm__ndirty++] = pg;
}

/* ---- a copy made valid ---------------------------------------------------------------- */

void dsm__copy_now_valid(uint32_t pg, dsm__page_t *p, const uint32_t *pv)
{
  dsm__took_add(pg);
  p->carry_off = 0;        /* a copy from the home: the home knows of it */
  memcpy(dsm__page_pv(p), pv, dsm__nprocs * 4);
  dsm__seen_pv(pv);
  dsm__need_clear(p);
  p->valid = 1;
}

/* ---- copies taken ---------------------------------------------------------------------- */

/* Pages this process took a copy of from elsewhere (a fetch, a pushed
 * copy, a diff carried with a lock) since the last collective of the whole
 * job. Only such a copy can hold every write of the epoch's one writer and
 * so stay valid after its notices; the manager lets a moving home turn
 * exclusive at once only if no one but the writer took one (collective.c).
 * Under dsm__mu. */
static uint32_t *took;
static size_t ntook, took_cap;

static int by_u32(const void *a, const void *b);
static void took_unique(void);

void dsm__took_add(uint32_t pg)
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

size_t dsm__took_sorted(const uint32_t **pages)
{
  took_unique();
  *pages = took;
  return ntook;
}

void dsm__took_clear(void) { ntook = 0; }
