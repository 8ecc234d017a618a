/*
 * transport_verbs_read.c — one-sided reads (transport.h): memory a process
 * registers for its peers to READ, and rounds of READs into it.
 *
 * READs land in one registered arena and are copied out, so callers may
 * read into any memory without registering it; one round uses the arena at
 * a time (landing_mu), and a round larger than the arena runs as batches,
 * one after the other, so a fenced READ still follows every earlier READ of
 * the round. What onesided.c builds on this, and why it is safe, is in
 * docs/verbs.md.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"
#include "transport_verbs.h"

/* Memory registered for peers to read, released at shutdown. */
struct exposed {
  struct exposed *next;
  struct ibv_mr *mr;
};

static pthread_mutex_t landing_mu = PTHREAD_MUTEX_INITIALIZER;
static uint8_t *landing;
static size_t landing_sz;
static struct ibv_mr *landing_mr;
static struct exposed *exposed;
static size_t expose_cap, exposed_bytes;

void dsm__verbs_read_init(const char *devname)
{
  expose_cap = (size_t)dsm__env_long("DSM_VERBS_EXPOSE_MB", 1024, 0, 1 << 22) << 20;
  landing_sz = (size_t)dsm__env_long("DSM_VERBS_LANDING_KB", 1024, 64, 1 << 20) << 10;
  landing = aligned_alloc(4096, landing_sz);
  DSM__ASSERT(landing);
  landing_mr = IBV.reg_mr(V.pd, landing, landing_sz, IBV_ACCESS_LOCAL_WRITE);
  if (!landing_mr)
    dsm__fatal(DSM__EXIT_FATAL, "cannot register the %zu-byte landing buffer for RDMA READ "
               "with %s: %s (ulimit -l?)", landing_sz, devname, strerror(errno));
}

void dsm__verbs_read_exit(void)
{
  for (struct exposed *e = exposed, *next; e; e = next) {
    next = e->next;
    IBV.dereg_mr(e->mr);
    free(e);
  }
  exposed = NULL;
  IBV.dereg_mr(landing_mr);
  free(landing);
}

/* DSM_VERBS_READ=0 turns off every RDMA READ, one-sided fetches included. */
int dsm__verbs_can_read(void)
{
  return V.use_read;
}

int dsm__verbs_expose(void *addr, size_t len, dsm__rmem_t *out)
{
  if (!V.use_read)
    return -1;
  pthread_mutex_lock(&V.core.mu);
  int room = exposed_bytes + len <= expose_cap;
  if (room)
    exposed_bytes += len;     /* claimed now: registration may take a while */
  pthread_mutex_unlock(&V.core.mu);
  if (!room)
    return -1;
  /* Remote READ only: a peer can never write here. Registration pins the
   * pages (and faults in untouched ones of a memfd). */
  struct ibv_mr *mr = IBV.reg_mr(V.pd, addr, len, IBV_ACCESS_REMOTE_READ);
  struct exposed *e = mr ? calloc(1, sizeof *e) : NULL;
  pthread_mutex_lock(&V.core.mu);
  if (!e) {
    exposed_bytes -= len;
    pthread_mutex_unlock(&V.core.mu);
    if (mr) IBV.dereg_mr(mr);
    DSM__DEBUG("cannot register %zu bytes for one-sided reads: %s", len, strerror(errno));
    return -1;
  }
  e->mr = mr;
  e->next = exposed;
  exposed = e;
  pthread_mutex_unlock(&V.core.mu);
  out->addr = (uintptr_t)addr;
  out->rkey = mr->rkey;
  return 0;
}

static size_t landing_room(size_t len)
{
  return (len + 63) & ~(size_t)63;
}

/* One batch that fits the landing arena (landing_mu held, mu not). */
static void read_batch(dsm__read_t *rs, unsigned n)
{
  struct dsm__tp_waiter me;
  dsm__tp_waiter_init(&me);
  struct rbatch b = { n, &me };
  size_t off = 0;
  pthread_mutex_lock(&V.core.mu);
  DSM__ASSERT(V.core.svc_running);
  for (unsigned i = 0; i < n; i++) {
    DSM__ASSERT(rs[i].dst < V.nprocs && rs[i].dst != V.self && rs[i].len > 0);
    struct rd *r = calloc(1, sizeof *r);
    DSM__ASSERT(r);
    r->peer = rs[i].dst;
    r->raddr = rs[i].raddr;
    r->rkey = rs[i].rkey;
    r->len = rs[i].len;
    r->buf = landing + off;
    r->mr = landing_mr;
    r->batch = &b;
    r->fence = rs[i].fence;
    off += landing_room(rs[i].len);
    dsm__verbs_queue_read(r);
  }
  for (unsigned i = 0; i < n; i++)
    dsm__verbs_pump(rs[i].dst);
  uint64_t t0 = dsm__now_ns();
  while (b.left) {
    struct pollfd fd;
    dsm__tp_sleep(&V.core, &me, &fd, 1, UINT64_MAX);
  }
  dsm__blocked_since(t0);
  pthread_mutex_unlock(&V.core.mu);
  off = 0;
  for (unsigned i = 0; i < n; i++) {
    memcpy(rs[i].buf, landing + off, rs[i].len);
    off += landing_room(rs[i].len);
  }
}

void dsm__verbs_read_many(dsm__read_t *rs, unsigned n)
{
  DSM__ASSERT(!V.core.svc_running || !pthread_equal(pthread_self(), V.core.svc));
  pthread_mutex_lock(&landing_mu);
  for (unsigned i = 0; i < n;) {
    unsigned k = 0;
    size_t used = 0;
    while (i + k < n && used + landing_room(rs[i + k].len) <= landing_sz) {
      used += landing_room(rs[i + k].len);
      k++;
    }
    if (!k)
      dsm__fatal(DSM__EXIT_FATAL, "internal error: a one-sided read of %zu bytes exceeds the "
                 "%zu-byte landing arena", rs[i].len, landing_sz);
    read_batch(rs + i, k);
    i += k;
  }
  pthread_mutex_unlock(&landing_mu);
}
