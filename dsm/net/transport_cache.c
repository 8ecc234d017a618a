/*
 * transport_cache.c — the requests a process received and what became of
 * them (transport_core.h): the reply cache.
 *
 * Over UDP the origin retransmits until the reply arrives, so the receiver
 * must recognise a request it has seen and answer it again from here, never
 * run the handler twice. Entries live until the origin reports (in each
 * request's `low`) that it has every answer below some rid; a per-origin
 * list in rid order makes that pruning pop from the head. Over verbs this
 * is only the list of requests not answered yet, which is what catches a
 * request answered twice in both backends.
 *
 * Called with the owning backend's mu held.
 */
#include <stdlib.h>

#include "dsm_internal.h"
#include "transport_core.h"

void dsm__tp_cache_init(struct dsm__tp_cache *c, unsigned nprocs, void (*drop_tx)(void *tx))
{
  c->nprocs = nprocs;
  c->head = calloc(nprocs, sizeof *c->head);
  c->tail = calloc(nprocs, sizeof *c->tail);
  c->low_seen = calloc(nprocs, sizeof *c->low_seen);
  DSM__ASSERT(c->head && c->tail && c->low_seen);
  c->cap = 256u << 20;
  c->drop_tx = drop_tx;
}

struct dsm__tp_centry *dsm__tp_cache_find(struct dsm__tp_cache *c, unsigned origin, uint64_t rid)
{
  for (struct dsm__tp_centry *e = c->bucket[dsm__tp_hash(origin, rid)]; e; e = e->hnext)
    if (e->origin == origin && e->rid == rid)
      return e;
  return NULL;
}

void dsm__tp_cache_drop_payload(struct dsm__tp_cache *c, struct dsm__tp_centry *e)
{
  if (e->tx)
    c->drop_tx(e->tx);
  c->bytes -= e->len;
  free(e->payload);
  e->payload = NULL;
  e->len = 0;
}

void dsm__tp_cache_keep(struct dsm__tp_cache *c, struct dsm__tp_centry *e, uint8_t *payload,
                        size_t len)
{
  e->payload = payload;
  e->len = len;
  c->bytes += len;
}

void dsm__tp_cache_remove(struct dsm__tp_cache *c, struct dsm__tp_centry *e)
{
  dsm__tp_cache_drop_payload(c, e);
  struct dsm__tp_centry **pp = &c->bucket[dsm__tp_hash(e->origin, e->rid)];
  while (*pp != e) pp = &(*pp)->hnext;
  *pp = e->hnext;
  if (e->prev) e->prev->next = e->next; else c->head[e->origin] = e->next;
  if (e->next) e->next->prev = e->prev; else c->tail[e->origin] = e->prev;
  free(e);
}

struct dsm__tp_centry *dsm__tp_cache_add(struct dsm__tp_cache *c, unsigned origin, uint64_t rid,
                                         unsigned type, unsigned from, int oneway)
{
  struct dsm__tp_centry *e = calloc(1, sizeof *e);
  DSM__ASSERT(e);
  e->origin = origin; e->rid = rid; e->type = type; e->from = from; e->oneway = oneway;
  e->state = DSM__TP_PENDING;
  e->t_arrive = dsm__now_ns();
  unsigned b = dsm__tp_hash(origin, rid);
  e->hnext = c->bucket[b];
  c->bucket[b] = e;
  /* Keep the per-origin list sorted by rid so pruning pops from the head;
   * requests arrive nearly in order, so the walk from the tail is short. */
  struct dsm__tp_centry *after = c->tail[origin];
  while (after && after->rid > rid) after = after->prev;
  e->prev = after;
  e->next = after ? after->next : c->head[origin];
  if (e->next) e->next->prev = e; else c->tail[origin] = e;
  if (after) after->next = e; else c->head[origin] = e;
  return e;
}

/* Entries below the origin's lowest outstanding rid can never be asked
 * about again (the origin has its answers), so they go. */
void dsm__tp_cache_prune(struct dsm__tp_cache *c, unsigned origin, uint64_t low)
{
  if (low > c->low_seen[origin])
    c->low_seen[origin] = low;
  while (c->head[origin] && c->head[origin]->rid < c->low_seen[origin] &&
         c->head[origin]->state != DSM__TP_PENDING)
    dsm__tp_cache_remove(c, c->head[origin]);
}

/* Memory cap: if an origin keeps very old requests outstanding, drop the
 * bodies of the oldest answered replies. A duplicate of such a request is
 * then ignored (the origin eventually reports the peer silent), which is
 * better than running out of memory; it does not happen in a sane protocol. */
void dsm__tp_cache_enforce_cap(struct dsm__tp_cache *c)
{
  for (unsigned o = 0; o < c->nprocs && c->bytes > c->cap; o++)
    for (struct dsm__tp_centry *e = c->head[o]; e && c->bytes > c->cap; e = e->next)
      if (e->state == DSM__TP_ANSWERED && e->payload) {
        DSM__DEBUG("reply cache over %zu bytes: dropping reply to rank %u rid %llu",
                   c->cap, o, (unsigned long long)e->rid);
        dsm__tp_cache_drop_payload(c, e);
        e->state = DSM__TP_DROPPED;
      }
}

struct dsm__tp_centry *dsm__tp_cache_settle(struct dsm__tp_cache *c, dsm__reqh_t h, int forward)
{
  struct dsm__tp_centry *e = dsm__tp_cache_find(c, h.origin, h.rid);
  if (!e || e->state != DSM__TP_PENDING)
    dsm__fatal(DSM__EXIT_FATAL, forward ?
               "internal error: %s request %llu of rank %u forwarded after being answered" :
               "internal error: %s request %llu of rank %u answered twice or never received",
               dsm__msg_name(h.type), (unsigned long long)h.rid, h.origin);
  return e;
}
