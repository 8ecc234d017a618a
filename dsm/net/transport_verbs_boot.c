/*
 * transport_verbs_boot.c — bringing the verbs backend up and down.
 *
 * Before joining the rendezvous each rank opens the device (so a missing
 * device fails in milliseconds), creates one protection domain, one
 * completion channel, one CQ, and one RC queue pair per peer, moves each
 * to INIT and posts its receive buffers. Then, after UDP's own bootstrap,
 * two rounds through rank 0 (HELLO requests, answered when all ranks have
 * sent theirs): every rank's LID, GID and per-peer queue pair numbers and
 * PSNs, after which each queue pair goes to RTR and RTS; and an empty round,
 * so that nobody SENDs before every queue pair of the job can receive.
 *
 * Shutdown waits until nothing this rank started is still in the network,
 * joins UDP's collective EXIT, then tears down in reverse.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dsm_internal.h"
#include "transport_verbs.h"

/* What each rank publishes: its port's LID and GID, and for every peer the
 * number and first PSN of the queue pair it created for that peer. */
struct conn_hdr {
  uint32_t phase, lid;
  uint8_t gid[16];
};

static dsm__reqh_t *ag_h[2];
static uint8_t *ag_data[2];
static unsigned ag_count[2];
static size_t ag_len;

/* Rank 0's handler for the exchange: UDP passes it the HELLOs that come
 * after its own bootstrap (a rank sends ours only once it has the address
 * table). RC traffic starts only after the second phase. */
static void on_conn(const dsm__msg_t *m)
{
  pthread_mutex_lock(&V.core.mu);
  struct conn_hdr ch;
  if (m->len != ag_len)
    dsm__fatal(DSM__EXIT_FATAL, "verbs bootstrap: rank %u sent a %zu-byte record, expected %zu "
               "(mixed transports in one job?)", m->origin, m->len, ag_len);
  if (V.self == 0 && m->origin != 0) {
    memcpy(&ch, m->data, sizeof ch);
    if (ch.phase < 2 && ag_count[ch.phase] < V.nprocs - 1) {
      memcpy(ag_data[ch.phase] + (size_t)m->origin * ag_len, m->data, ag_len);
      ag_h[ch.phase][ag_count[ch.phase]++] = dsm__reqh(m);
      dsm__verbs_ctl_changed();
    }
  }
  pthread_mutex_unlock(&V.core.mu);
}

/* Every rank's record, in rank order (malloc()ed, nprocs * ag_len bytes). */
static uint8_t *allgather(unsigned phase, const uint8_t *mine)
{
  if (V.self != 0) {
    void *table;
    size_t len;
    dsm__udp_call(0, DSM__MSG_HELLO, mine, ag_len, &table, &len);
    if (len != ag_len * V.nprocs)
      dsm__fatal(DSM__EXIT_FATAL, "verbs bootstrap: table of %zu bytes for %u ranks", len, V.nprocs);
    return table;
  }
  pthread_mutex_lock(&V.core.mu);
  memcpy(ag_data[phase], mine, ag_len);
  while (ag_count[phase] < V.nprocs - 1) {
    V.ctl_waiting++;
    pthread_cond_wait(&V.ctl_cv, &V.core.mu);
    V.ctl_waiting--;
  }
  pthread_mutex_unlock(&V.core.mu);
  for (unsigned i = 0; i < V.nprocs - 1; i++)
    dsm__udp_reply(ag_h[phase][i], ag_data[phase], ag_len * V.nprocs);
  return dsm__tp_dup(ag_data[phase], ag_len * V.nprocs);
}

static void modify(struct ibv_qp *qp, struct ibv_qp_attr *a, int mask, const char *to, unsigned p)
{
  int e = IBV.modify_qp(qp, a, mask);
  if (e)
    dsm__fatal(DSM__EXIT_FATAL, "queue pair to rank %u: transition to %s failed: %s", p, to,
               strerror(e));
}

/* The settings (docs/verbs.md, "Settings"). */
static void read_env(void)
{
  V.nrecv = (unsigned)dsm__env_long("DSM_VERBS_CREDITS", 32, 4, 4096);
  V.nsend = V.nrecv + 4;
  V.slot_sz = (size_t)dsm__env_long("DSM_VERBS_BUF", 8192, 256, 1 << 20);
  V.use_read = (int)dsm__env_long("DSM_VERBS_READ", 1, 0, 1);
  V.pin_cap = (size_t)dsm__env_long("DSM_VERBS_PIN_MB", 256, 0, 1 << 20) << 20;
  V.sq_depth = V.nsend + V.nread;
}

/* The device, its port and the address peers reach it by. */
struct dev {
  const char *name;
  long port;
  int use_gid, gid_index;
  struct ibv_port_attr pa;
  union ibv_gid gid;
};

static void open_device(struct dev *d)
{
  d->port = dsm__env_long("DSM_VERBS_PORT", 1, 1, 255);
  d->gid_index = (int)dsm__env_long("DSM_VERBS_GID_INDEX", -1, -1, 255);
  dsm__verbs_load();
  int ndev = 0;
  struct ibv_device **devs = IBV.get_device_list(&ndev);
  if (!devs || ndev <= 0)
    dsm__fatal(DSM__EXIT_FATAL, "no RDMA device found (libibverbs lists 0 devices): the verbs "
               "transport needs an InfiniBand or RoCE adapter (or Soft-RoCE, see docs/verbs.md); "
               "run with --transport udp instead");
  const char *want = getenv("DSM_VERBS_DEVICE");
  struct ibv_device *dev = NULL;
  for (int i = 0; i < ndev && !dev; i++)
    if (!want || !*want || !strcmp(IBV.get_device_name(devs[i]), want))
      dev = devs[i];
  if (!dev)
    dsm__fatal(DSM__EXIT_FATAL, "no RDMA device named '%s' (DSM_VERBS_DEVICE)", want);
  const char *devname = d->name = IBV.get_device_name(dev);
  V.ctx = IBV.open_device(dev);
  if (!V.ctx)
    dsm__fatal(DSM__EXIT_FATAL, "cannot open RDMA device %s: %s", devname, strerror(errno));
  IBV.free_device_list(devs);
  /* Outstanding READs per queue pair are bounded by what the device takes
   * (often 16, sometimes 4). */
  struct ibv_device_attr da;
  if (!IBV.query_device(V.ctx, &da)) {
    if (da.max_qp_rd_atom > 0 && (unsigned)da.max_qp_rd_atom < V.nread)
      V.nread = (unsigned)da.max_qp_rd_atom;
    if (da.max_qp_init_rd_atom > 0 && (unsigned)da.max_qp_init_rd_atom < V.nread)
      V.nread = (unsigned)da.max_qp_init_rd_atom;
    V.sq_depth = V.nsend + V.nread;
  }
  long port = d->port;
  int gid_index = d->gid_index;
  struct ibv_port_attr pa;
  if (dsm__verbs_query_port(V.ctx, (uint8_t)port, &pa))
    dsm__fatal(DSM__EXIT_FATAL, "cannot query port %ld of RDMA device %s", port, devname);
  if (pa.state != IBV_PORT_ACTIVE)
    dsm__fatal(DSM__EXIT_FATAL, "port %ld of RDMA device %s is not active (state %d)", port,
               devname, pa.state);
  /* RoCE has no LIDs: peers are addressed by GID. On InfiniBand the GID is
   * used only if asked for (DSM_VERBS_GID_INDEX, routing between subnets). */
  int use_gid = pa.link_layer == IBV_LINK_LAYER_ETHERNET || gid_index >= 0;
  if (gid_index < 0) gid_index = 0;
  union ibv_gid gid;
  memset(&gid, 0, sizeof gid);
  if (use_gid && IBV.query_gid(V.ctx, (uint8_t)port, gid_index, &gid))
    dsm__fatal(DSM__EXIT_FATAL, "cannot read GID %d of port %ld of %s", gid_index, port, devname);
  d->pa = pa;
  d->gid = gid;
  d->use_gid = use_gid;
  d->gid_index = gid_index;
}

/* Protection domain, completion channel and queue, the message arena, the
 * landing arena, and one queue pair per peer in INIT with its receives
 * posted. */
static void create_resources(const struct dev *d)
{
  const char *devname = d->name;
  unsigned size = V.nprocs;
  V.pd = IBV.alloc_pd(V.ctx);
  V.chan = IBV.create_comp_channel(V.ctx);
  if (!V.pd || !V.chan)
    dsm__fatal(DSM__EXIT_FATAL, "RDMA device %s: cannot allocate a protection domain or a "
               "completion channel", devname);
  /* The service thread polls the channel's fd, and reads an event only when
   * poll says one is there; non-blocking so a spurious wake-up cannot hang. */
  fcntl(V.chan->fd, F_SETFL, fcntl(V.chan->fd, F_GETFL) | O_NONBLOCK);
  /* Room for every receive and every send queue entry of every peer: the CQ
   * can never overrun. */
  int cqe = (int)((size - 1) * (V.nrecv + V.sq_depth) + 16);
  V.cq = IBV.create_cq(V.ctx, cqe, NULL, V.chan, 0);
  if (!V.cq)
    dsm__fatal(DSM__EXIT_FATAL, "RDMA device %s: cannot create a completion queue of %d entries",
               devname, cqe);
  size_t arena_len = (size_t)size * (V.nrecv + V.nsend) * V.slot_sz;
  V.arena = aligned_alloc(4096, (arena_len + 4095) & ~(size_t)4095);
  DSM__ASSERT(V.arena);
  memset(V.arena, 0, arena_len);
  V.arena_mr = IBV.reg_mr(V.pd, V.arena, arena_len, IBV_ACCESS_LOCAL_WRITE);
  if (!V.arena_mr)
    dsm__fatal(DSM__EXIT_FATAL, "cannot register %zu bytes of message buffers with %s: %s "
               "(ulimit -l?)", arena_len, devname, strerror(errno));
  dsm__verbs_read_init(devname);
  V.peers = calloc(size, sizeof *V.peers);
  DSM__ASSERT(V.peers);
  uint32_t seed = (uint32_t)(dsm__now_ns() ^ ((uint64_t)getpid() << 16) ^ V.self);
  for (unsigned p = 0; p < size; p++) {
    if (p == V.self) continue;
    struct peer *pe = &V.peers[p];
    struct ibv_qp_init_attr qa = {
      .send_cq = V.cq, .recv_cq = V.cq, .qp_type = IBV_QPT_RC, .sq_sig_all = 0,
      .cap = { .max_send_wr = V.sq_depth, .max_recv_wr = V.nrecv, .max_send_sge = 1,
               .max_recv_sge = 1 },
    };
    pe->qp = IBV.create_qp(V.pd, &qa);
    if (!pe->qp)
      dsm__fatal(DSM__EXIT_FATAL, "RDMA device %s: cannot create a queue pair for rank %u: %s",
                 devname, p, strerror(errno));
    struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .pkey_index = 0,
                             .port_num = (uint8_t)d->port,
                             .qp_access_flags = IBV_ACCESS_REMOTE_READ | IBV_ACCESS_LOCAL_WRITE };
    modify(pe->qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS,
           "INIT", p);
    seed = seed * 1103515245u + 12345u;
    pe->psn = (seed >> 8) & 0xffffff;
    pe->free_slots = calloc(V.nsend, sizeof *pe->free_slots);
    DSM__ASSERT(pe->free_slots);
    for (unsigned i = 0; i < V.nsend; i++)
      pe->free_slots[pe->nfree++] = i;
    /* Receives may be posted in INIT: every buffer is in place before the
     * peer learns our queue pair number. */
    for (unsigned i = 0; i < V.nrecv; i++)
      dsm__verbs_post_recv(p, i);
    pe->credits = V.nrecv;
  }
}

/* Every queue pair from INIT through RTR to RTS, toward the peer's queue
 * pair for us as the exchanged table gives it. */
static void connect_all(const struct dev *d, const uint8_t *table)
{
  long port = d->port;
  for (unsigned p = 0; p < V.nprocs; p++) {
    if (p == V.self) continue;
    struct conn_hdr pc;
    uint32_t qpn, psn;
    memcpy(&pc, table + p * ag_len, sizeof pc);
    memcpy(&qpn, table + p * ag_len + sizeof pc + 8 * V.self, 4);
    memcpy(&psn, table + p * ag_len + sizeof pc + 8 * V.self + 4, 4);
    struct ibv_qp_attr a = {
      .qp_state = IBV_QPS_RTR, .path_mtu = d->pa.active_mtu, .dest_qp_num = qpn, .rq_psn = psn,
      .max_dest_rd_atomic = (uint8_t)V.nread, .min_rnr_timer = 12,
      .ah_attr = { .dlid = (uint16_t)pc.lid, .sl = 0, .src_path_bits = 0,
                   .port_num = (uint8_t)port },
    };
    if (d->use_gid) {
      a.ah_attr.is_global = 1;
      memcpy(a.ah_attr.grh.dgid.raw, pc.gid, 16);
      a.ah_attr.grh.sgid_index = (uint8_t)d->gid_index;
      a.ah_attr.grh.hop_limit = 64;
    }
    modify(V.peers[p].qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN |
           IBV_QP_RQ_PSN | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER, "RTR", p);
    /* rnr_retry 0: credits make RNR impossible, so one is a bug to report
     * at once, not to retry quietly. */
    struct ibv_qp_attr b = { .qp_state = IBV_QPS_RTS, .sq_psn = V.peers[p].psn, .timeout = 14,
                             .retry_cnt = 7, .rnr_retry = 0, .max_rd_atomic = (uint8_t)V.nread };
    modify(V.peers[p].qp, &b, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT |
           IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC, "RTS", p);
  }
}

void dsm__verbs_init(unsigned rank, unsigned size)
{
  V.self = rank;
  V.nprocs = size;
  dsm__tp_core_init(&V.core, rank, size, NULL);
  read_env();
  /* The device first: without one, fail at once, before any rendezvous. */
  struct dev d;
  memset(&d, 0, sizeof d);
  open_device(&d);
  create_resources(&d);

  /* The rendezvous: UDP's bootstrap, then our records through rank 0. */
  /* Ready before UDP's bootstrap ends: a peer sends its record as soon as
   * it has the address table, possibly before our dsm__udp_init returns. */
  ag_len = sizeof(struct conn_hdr) + 8 * (size_t)size;
  for (int ph = 0; ph < 2; ph++) {
    ag_h[ph] = calloc(size, sizeof *ag_h[ph]);
    ag_data[ph] = calloc(size, ag_len);
    DSM__ASSERT(ag_h[ph] && ag_data[ph]);
  }
  dsm__udp_hello_chain(on_conn);
  dsm__udp_init(rank, size);
  if (size > 1) {
    uint8_t *mine = calloc(1, ag_len);
    DSM__ASSERT(mine);
    struct conn_hdr ch = { 0, d.pa.lid, { 0 } };
    memcpy(ch.gid, d.gid.raw, 16);
    memcpy(mine, &ch, sizeof ch);
    for (unsigned p = 0; p < size; p++) {
      uint32_t qpn = p == V.self ? 0 : V.peers[p].qp->qp_num, psn = p == V.self ? 0 : V.peers[p].psn;
      memcpy(mine + sizeof ch + 8 * p, &qpn, 4);
      memcpy(mine + sizeof ch + 8 * p + 4, &psn, 4);
    }
    uint8_t *table = allgather(0, mine);
    connect_all(&d, table);
    free(table);
    /* Second round: nobody SENDs before every peer's queue pair is ready to
     * receive (a SEND to a queue pair still in INIT would be dropped). */
    ((struct conn_hdr *)mine)->phase = 1;
    free(allgather(1, mine));
    free(mine);
  }
  dsm__verbs_service_start();
  DSM__DEBUG("verbs transport up on %s port %ld (%s, mtu %d): %u credits of %zu bytes per peer, "
             "RDMA READ %s", d.name, d.port, d.use_gid ? "GID" : "LID", 128 << d.pa.active_mtu,
             V.nrecv, V.slot_sz, V.use_read ? "on" : "off");
}

void dsm__verbs_shutdown(void)
{
  if (!V.core.svc_running)
    return;
  pthread_mutex_lock(&V.core.mu);
  /* Our one-ways handled, our pinned copies fetched, our queues empty:
   * nothing we started is still in the network. */
  for (;;) {
    int busy = V.oneways_out || V.npins;
    for (unsigned p = 0; p < V.nprocs && !busy; p++)
      busy = p != V.self && (V.peers[p].qhead || V.peers[p].rdq_head || V.peers[p].sq_out);
    if (!busy)
      break;
    V.ctl_waiting++;
    pthread_cond_wait(&V.ctl_cv, &V.core.mu);
    V.ctl_waiting--;
  }
  V.exiting = 1;
  pthread_mutex_unlock(&V.core.mu);
  dsm__udp_shutdown();
  dsm__verbs_service_stop();
  for (unsigned p = 0; p < V.nprocs; p++)
    if (p != V.self && V.peers[p].qp)
      IBV.destroy_qp(V.peers[p].qp);
  IBV.destroy_cq(V.cq);
  IBV.destroy_comp_channel(V.chan);
  dsm__verbs_read_exit();
  IBV.dereg_mr(V.arena_mr);
  IBV.dealloc_pd(V.pd);
  IBV.close_device(V.ctx);
}

