/*
 * pushed.c — copies a home pushed to us: received, kept, installed.
 *
 * Pushed copies (home.c explains subscriptions) wait in a table until an
 * acquire finds that one satisfies every need of its page. It is then
 * installed, readable at once if the pushes of that page have proved
 * useful, else inaccessible, so that its first use is a fault served
 * locally (fetch.c) without a message. That fault is how we learn the
 * push was useful (a probe), and it buys the next installs readable at
 * once: PUSH_TRUST after the first probe that found its copy used, four
 * times as many plus three after each further one in a row, up to
 * PUSH_TRUST_MAX; a probe copy that went out of date untouched starts the
 * count again. DSM__PUSH_IDLE_UNSUB pushed copies in a row that went out
 * of date untouched mean we no longer read the page, and we unsubscribe.
 * So a page read every epoch costs one local fault in PUSH_TRUST_MAX + 1
 * epochs once proved (fft3d's transpose reads every page pushed to it,
 * 4,000 a step, 39 steps: one probe fault in 8 was 20,000 faults per
 * process, ~20 us each on a paravirtualised guest; with trust 7, 15, 31,
 * 63 it was still 12,400, now 8,300), and one we stopped reading is
 * unsubscribed within PUSH_TRUST_MAX + DSM__PUSH_IDLE_UNSUB + 1.
 *
 * The other copies come from fetch.c, which asks here first at a fault.
 */
#include <stdlib.h>
#include <string.h>

#include "coll_msg.h"
#include "dsm_internal.h"
#include "profile.h"
#include "lrc.h"
#include "page_state.h"
#include "net/transport.h"

#define PUSH_TRUST 7
#define PUSH_TRUST_MAX 127

/* A PUSH message's bytes, kept as they came (the transport's reassembly
 * block, dsm__tp_keep) while any of its pages waits to be installed: a
 * copy per page was a third of the receiving side's work for fft3d's 16 MiB
 * pushes. */
struct pushblk {
  uint8_t *mem;
  uint32_t refs;       /* pushed copies pointing into mem */
  uint32_t count;      /* pages the message carried */
};

/* A pushed copy, newest per page; pv and data point into blk->mem. */
struct pushed {
  struct pushed *next;
  uint32_t pg, home, seq;
  const uint32_t *pv;
  const uint8_t *data;
  struct pushblk *blk;
};

#define PUSH_BUCKETS 8192
static struct pushed *push_tab[PUSH_BUCKETS];
static size_t npushed;
/* Buckets that may hold copies (a bit stays set after its bucket empties
 * until the next install passes it): an acquire looks at those only. Every
 * acquire after a push used to walk all 8,192 buckets, 64 KiB of
 * pointers: 4 us of each of the stencil's barriers, for two pages. */
static uint64_t push_used[PUSH_BUCKETS / 64];

/* [home]: PUSH messages received, and how many a synchronisation said were
 * sent (dsm__pushed_expect). Each message is delivered once, in any order. */
static uint32_t *push_got, *push_want;
static int push_waiting;
static dsm__tp_event_t push_ev = DSM__TP_EVENT_INIT;

static unsigned push_bucket(uint32_t pg)
{
  return (pg * 2654435761u) % PUSH_BUCKETS;
}

/* The first bucket from b on whose bit is set, or PUSH_BUCKETS. */
static unsigned push_next_used(unsigned b)
{
  for (unsigned w = b / 64; w < PUSH_BUCKETS / 64; w++) {
    uint64_t bits = push_used[w] & (w == b / 64 ? ~0ull << (b % 64) : ~0ull);
    if (bits)
      return w * 64 + (unsigned)__builtin_ctzll(bits);
  }
  return PUSH_BUCKETS;
}

static struct pushed **push_slot(uint32_t pg)
{
  struct pushed **pp = &push_tab[push_bucket(pg)];
  while (*pp && (*pp)->pg != pg) pp = &(*pp)->next;
  return pp;
}

static void blk_unref(struct pushblk *b)
{
  if (--b->refs == 0) {
    dsm__stats_consistency(-(int64_t)(sizeof *b + (size_t)b->count * (4 + 4 * dsm__nprocs + DSM__PAGE)));
    free(b->mem);
    free(b);
  }
}

static void push_drop(struct pushed **pp)
{
  struct pushed *x = *pp;
  *pp = x->next;
  blk_unref(x->blk);
  free(x);
  npushed--;
  dsm__stats_consistency(-(int64_t)sizeof *x);
}

/* A block that only a few waiting copies still hold would keep a whole
 * message's memory alive for them: they move to blocks of their own. */
static void push_compact(struct pushed *x)
{
  struct pushblk *b = x->blk;
  if (b->count < 16 || b->refs * 4 >= b->count)
    return;
  size_t one = 4 + dsm__nprocs * 4 + DSM__PAGE;
  struct pushblk *nb = dsm__xcalloc(1, sizeof *nb);
  nb->mem = dsm__xcalloc(1, one);
  nb->refs = nb->count = 1;
  memcpy(nb->mem + 4, x->pv, dsm__nprocs * 4);
  memcpy(nb->mem + 4 + dsm__nprocs * 4, x->data, DSM__PAGE);
  dsm__stats_consistency((int64_t)(sizeof *nb + one));
  x->pv = (const uint32_t *)(nb->mem + 4);
  x->data = nb->mem + 4 + dsm__nprocs * 4;
  x->blk = nb;
  blk_unref(b);
}

/* PUSH: seq, count, then per page: pg, pv[nprocs], bytes. With dsm__mu
 * held. mem: data as a malloc'd block that is ours now, or NULL (data is
 * copied then). -1: malformed. */
static int push_take(unsigned h, const void *data, size_t len, void *mem)
{
  dsm__rd_t r = dsm__rd(data, len);
  uint32_t seq = dsm__rd_u32(&r), count = dsm__rd_u32(&r);
  size_t one = 4 + dsm__nprocs * 4 + DSM__PAGE;
  if (r.bad || h >= dsm__nprocs || count > (r.len - r.off) / one || r.len - r.off != one * count) {
    free(mem);
    return -1;
  }
  for (uint32_t k = 0; k < count; k++) {
    uint32_t pg;
    memcpy(&pg, (const uint8_t *)data + 8 + k * one, 4);
    if (pg >= dsm__npages) {
      free(mem);
      return -1;
    }
  }
  if (!mem) {
    mem = malloc(len);
    if (!mem) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    memcpy(mem, data, len);
  }
  struct pushblk *b = dsm__xcalloc(1, sizeof *b);
  b->mem = mem;
  b->count = count;
  b->refs = 1;     /* ours until the loop is done */
  dsm__stats_consistency((int64_t)(sizeof *b + (size_t)count * one));
  const uint8_t *body = b->mem + 8;
  for (uint32_t k = 0; k < count; k++, body += one) {
    uint32_t pg;
    memcpy(&pg, body, 4);
    struct pushed **pp = push_slot(pg), *x = *pp;
    /* One-way messages can overtake each other: keep the newest. */
    if (x && x->home == h && x->seq > seq)
      continue;
    if (!x) {
      x = dsm__xcalloc(1, sizeof *x);
      x->pg = pg;
      *pp = x;
      npushed++;
      push_used[push_bucket(pg) / 64] |= 1ull << (push_bucket(pg) % 64);
      dsm__stats_consistency((int64_t)sizeof *x);
    } else {
      blk_unref(x->blk);
    }
    x->home = h;
    x->seq = seq;
    x->pv = (const uint32_t *)(body + 4);
    x->data = body + 4 + dsm__nprocs * 4;
    x->blk = b;
    b->refs++;
    dsm__prof_in(pg, DSM__PAGE, DSM__PROF_PUSHED);
  }
  blk_unref(b);
  push_got[h]++;
  if (push_waiting && push_got[h] >= push_want[h])
    dsm__tp_event_fire(&push_ev);
  return 0;
}

static void on_push(const dsm__msg_t *m)
{
  pthread_mutex_lock(&dsm__mu);
  if (push_take(m->origin, m->data, m->len, dsm__tp_keep(m)) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "malformed PUSH from rank %u", m->origin);
  pthread_mutex_unlock(&dsm__mu);
}

int dsm__pushed_ride_take(unsigned from, const dsm__coll_ride_t *ride)
{
  if (!ride->len)
    return 0;
  DSM__ASSERT(from != dsm__rank);     /* nobody pushes to itself */
  return push_take(from, ride->push, ride->len, NULL);
}

void dsm__pushed_expect(unsigned src, uint32_t seq)
{
  if (src < dsm__nprocs && seq > push_want[src])
    push_want[src] = seq;
}

static int push_missing(void)
{
  for (unsigned q = 0; q < dsm__nprocs; q++)
    if (push_got[q] < push_want[q])
      return 1;
  return 0;
}

void dsm__pushed_wait(void)
{
  /* DSM_PUSH_WAIT=0: acquire without waiting (tests use it to make pushes
   * race the faults they would have prevented). */
  static int on = -1;
  if (on < 0)
    on = (int)dsm__env_long("DSM_PUSH_WAIT", 1, 0, 1);
  if (!on)
    return;
  pthread_mutex_lock(&dsm__mu);
  if (push_missing()) {
    uint64_t t0 = dsm__now_ns();
    DSM__STAT_INC(push_waits);
    push_waiting = 1;
    while (push_missing()) {
      pthread_mutex_unlock(&dsm__mu);
      dsm__tp_event_wait(&push_ev);
      pthread_mutex_lock(&dsm__mu);
    }
    push_waiting = 0;
    dsm__blocked_since(t0);
  }
  pthread_mutex_unlock(&dsm__mu);
}

/* Can pushed copy x replace our copy of p? It must hold every need, and
 * must not be older than the copy we had in any writer: our needs only name
 * what is missing, and a push made before our last fetch can lack writes
 * that fetch brought (and whose notices it satisfied). */
static int push_fits(const dsm__page_t *p, const struct pushed *x)
{
  if (!dsm__need_met(p, x->pv))
    return 0;
  if (p->pv)
    for (unsigned q = 0; q < dsm__nprocs; q++)
      if (x->pv[q] < p->pv[q])
        return 0;
  return 1;
}

int dsm__pushed_take(uint32_t pg, dsm__page_t *p)
{
  struct pushed **pp = push_slot(pg), *x = *pp;
  if (!x)
    return 0;
  if (p->home == dsm__rank || p->valid) {
    push_drop(pp);
    return 0;
  }
  if (!push_fits(p, x))
    return 0;
  memcpy(dsm__page_sys(pg), x->data, DSM__PAGE);
  dsm__copy_now_valid(pg, p, x->pv);
  push_drop(pp);
  return 1;
}

void dsm__pushed_install(void)
{
  if (!npushed)
    return;
  unsigned *unsub_n = NULL;
  dsm__buf_t *unsub = NULL;
  for (unsigned b = push_next_used(0); b < PUSH_BUCKETS; b = push_next_used(b + 1)) {
    for (struct pushed **pp = &push_tab[b]; *pp;) {
      struct pushed *x = *pp;
      dsm__page_t *p = dsm__page(x->pg);
      if (p->home == dsm__rank || p->valid) {
        push_drop(pp);
        continue;
      }
      if (!push_fits(p, x)) {
        push_compact(x);
        pp = &x->next;
        continue;
      }
      if (p->push_idle >= DSM__PUSH_IDLE_UNSUB) {
        /* The last pushed copies were never read before this one came. */
        if (!unsub) {
          unsub = dsm__xcalloc(dsm__nprocs, sizeof *unsub);
          unsub_n = dsm__xcalloc(dsm__nprocs, sizeof *unsub_n);
        }
        if (!unsub[x->home].len) dsm__buf_u32(&unsub[x->home], 0);
        dsm__buf_u32(&unsub[x->home], x->pg);
        unsub_n[x->home]++;
        p->push_idle = 0;
        p->push_trust = 0;
        p->push_trust_next = 0;
        DSM__STAT_INC(push_unsubs);
        push_drop(pp);
        continue;
      }
      memcpy(dsm__page_sys(x->pg), x->data, DSM__PAGE);
      dsm__copy_now_valid(x->pg, p, x->pv);
      if (p->push_trust) {
        p->push_trust--;
        if (!dsm__write_ahead_on_update(x->pg))
          dsm__prot_queue(x->pg, DSM__PROT_READ);
        DSM__STAT_INC(pushes_installed);
      } else {
        p->pushed = DSM__PUSHED_COPY;   /* inaccessible until its first use (PROT_NONE already) */
      }
      dsm__page_check(x->pg, "a pushed copy installed");
      push_drop(pp);
    }
    if (!push_tab[b])
      push_used[b / 64] &= ~(1ull << (b % 64));
  }
  if (unsub) {
    for (unsigned h = 0; h < dsm__nprocs; h++)
      if (unsub_n[h]) {
        memcpy(unsub[h].p, &unsub_n[h], 4);
        dsm__tp_send(h, DSM__MSG_UNSUB, unsub[h].p, unsub[h].len);
        dsm__buf_free(&unsub[h]);
      }
    free(unsub);
    free(unsub_n);
  }
}


void dsm__pushed_probe_used(dsm__page_t *p)
{
  /* A probe that found its copy used: trust 7, 31, 127. */
  p->pushed = 0;
  p->push_trust = p->push_trust_next ? p->push_trust_next : PUSH_TRUST;
  p->push_trust_next = p->push_trust < PUSH_TRUST_MAX / 4 ? 4 * p->push_trust + 3 : PUSH_TRUST_MAX;
  DSM__STAT_INC(pushes_installed);
}

void dsm__pushed_drop(uint32_t pg)
{
  struct pushed **pp = push_slot(pg);
  if (*pp)
    push_drop(pp);
}

void dsm__pushed_init(void)
{
  push_got = dsm__xcalloc(dsm__nprocs, sizeof *push_got);
  push_want = dsm__xcalloc(dsm__nprocs, sizeof *push_want);
  dsm__tp_handle(DSM__MSG_PUSH, on_push);
}
