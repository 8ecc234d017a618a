/*
 * standin_test.c — the verbs stand-in between two real processes.
 *
 * The parent (A) and a forked child (B) each open the stand-in device and
 * connect RC queue pairs, exchanging QPN, PSN, GID, buffer address and rkey
 * over a socketpair, the way a real program exchanges them out of band.
 * Checked: SEND/RECV in order with the right wr_id/opcode/byte_len; the
 * completion channel fires only when armed; RDMA READ is served while B's
 * program is blocked in read(); receiver-not-ready; bad rkey; out-of-range
 * READ; bad lkey; wrong PSN; a peer that dies.
 */
#include <errno.h>
#include <fcntl.h>
#include <infiniband/verbs.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *who = "A";
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "standin_test[%s]: %s:%d: %s\n", who, \
    __FILE__, __LINE__, #c); exit(1); } } while (0)

static int sp;                   /* socketpair end to the other process */
static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_comp_channel *ch;
static struct ibv_cq *cq;
static struct ibv_mr *mr;
static uint8_t *buf;
#define BUF (1 << 20)

struct info { uint32_t qpn, psn; uint8_t gid[16]; uint64_t addr; uint32_t rkey; };
static struct info peer;

static void xfer(void *out, void *in, size_t n)
{
  CHECK(write(sp, out, n) == (ssize_t)n);
  size_t got = 0;
  while (got < n) {
    ssize_t r = read(sp, (char *)in + got, n - got);
    CHECK(r > 0);
    got += (size_t)r;
  }
}

static void sync_peer(void)
{
  char a = 's', b;
  xfer(&a, &b, 1);
}

/* One connected RC queue pair; psn_skew makes the responder expect a wrong PSN. */
static struct ibv_qp *connect_qp(int psn_skew)
{
  struct ibv_qp_init_attr qa = { .send_cq = cq, .recv_cq = cq, .qp_type = IBV_QPT_RC,
                                 .cap = { 16, 16, 1, 1, 0 } };
  struct ibv_qp *qp = ibv_create_qp(pd, &qa);
  CHECK(qp);
  struct ibv_qp_attr a = { .qp_state = IBV_QPS_INIT, .port_num = 1,
                           .qp_access_flags = IBV_ACCESS_REMOTE_READ | IBV_ACCESS_LOCAL_WRITE };
  /* A missing mask bit is refused, as on hardware. */
  CHECK(ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PORT) != 0);
  CHECK(!ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS));
  struct info me = { qp->qp_num, (uint32_t)rand() & 0xffffff, { 0 }, (uintptr_t)buf, mr->rkey };
  union ibv_gid g;
  CHECK(!ibv_query_gid(ctx, 1, 0, &g));
  memcpy(me.gid, g.raw, 16);
  xfer(&me, &peer, sizeof me);
  struct ibv_qp_attr r = { .qp_state = IBV_QPS_RTR, .path_mtu = IBV_MTU_4096,
                           .dest_qp_num = peer.qpn, .rq_psn = peer.psn + (uint32_t)psn_skew,
                           .max_dest_rd_atomic = 4, .min_rnr_timer = 12 };
  r.ah_attr.is_global = 1;
  memcpy(r.ah_attr.grh.dgid.raw, peer.gid, 16);
  r.ah_attr.port_num = 1;
  int rtr = IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN |
            IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER;
  CHECK(!ibv_modify_qp(qp, &r, rtr));
  struct ibv_qp_attr s = { .qp_state = IBV_QPS_RTS, .sq_psn = me.psn, .timeout = 14,
                           .retry_cnt = 7, .rnr_retry = 0, .max_rd_atomic = 4 };
  CHECK(!ibv_modify_qp(qp, &s, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT |
                       IBV_QP_RETRY_CNT | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC));
  sync_peer();
  return qp;
}

/* Wait for one completion, sleeping on the completion channel. */
static struct ibv_wc wait_wc(void)
{
  struct ibv_wc wc;
  for (;;) {
    if (ibv_poll_cq(cq, 1, &wc) == 1)
      return wc;
    CHECK(!ibv_req_notify_cq(cq, 0));
    if (ibv_poll_cq(cq, 1, &wc) == 1)
      return wc;
    struct pollfd p = { ch->fd, POLLIN, 0 };
    CHECK(poll(&p, 1, 10000) == 1);
    struct ibv_cq *ecq;
    void *ectx;
    CHECK(!ibv_get_cq_event(ch, &ecq, &ectx));
    CHECK(ecq == cq && ectx == (void *)0x5151);
    ibv_ack_cq_events(ecq, 1);
  }
}

static void post_recv(struct ibv_qp *qp, uint64_t id, size_t off, uint32_t len)
{
  struct ibv_sge s = { (uintptr_t)buf + off, len, mr->lkey };
  struct ibv_recv_wr w = { .wr_id = id, .sg_list = &s, .num_sge = 1 }, *bad;
  CHECK(!ibv_post_recv(qp, &w, &bad));
}

static void post_send(struct ibv_qp *qp, uint64_t id, size_t off, uint32_t len, uint32_t lkey)
{
  struct ibv_sge s = { (uintptr_t)buf + off, len, lkey };
  struct ibv_send_wr w = { .wr_id = id, .sg_list = &s, .num_sge = 1, .opcode = IBV_WR_SEND,
                           .send_flags = IBV_SEND_SIGNALED }, *bad;
  CHECK(!ibv_post_send(qp, &w, &bad));
}

static void post_read_flags(struct ibv_qp *qp, uint64_t id, size_t off, uint32_t len,
                            uint64_t raddr, uint32_t rkey, unsigned flags)
{
  struct ibv_sge s = { (uintptr_t)buf + off, len, mr->lkey };
  struct ibv_send_wr w = { .wr_id = id, .sg_list = &s, .num_sge = 1,
                           .opcode = IBV_WR_RDMA_READ, .send_flags = IBV_SEND_SIGNALED | flags },
                     *bad;
  w.wr.rdma.remote_addr = raddr;
  w.wr.rdma.rkey = rkey;
  CHECK(!ibv_post_send(qp, &w, &bad));
}

static void post_read(struct ibv_qp *qp, uint64_t id, size_t off, uint32_t len, uint64_t raddr,
                      uint32_t rkey)
{
  post_read_flags(qp, id, off, len, raddr, rkey, 0);
}

static void expect(uint64_t id, enum ibv_wc_opcode op, enum ibv_wc_status st, uint32_t len)
{
  struct ibv_wc wc = wait_wc();
  if (wc.wr_id != id || wc.status != st || (st == IBV_WC_SUCCESS && (wc.opcode != op ||
      ((op == IBV_WC_RECV || op == IBV_WC_RDMA_READ) && wc.byte_len != len)))) {
    fprintf(stderr, "standin_test[%s]: got wr_id %llu status %s opcode %d len %u; want wr_id "
            "%llu status %s opcode %d len %u\n", who, (unsigned long long)wc.wr_id,
            ibv_wc_status_str(wc.status), wc.opcode, wc.byte_len, (unsigned long long)id,
            ibv_wc_status_str(st), op, len);
    exit(1);
  }
}

static void side(int is_a)
{
  int n;
  struct ibv_device **l = ibv_get_device_list(&n);
  CHECK(l && n == 1 && !strcmp(ibv_get_device_name(l[0]), "standin0"));
  ctx = ibv_open_device(l[0]);
  CHECK(ctx);
  ibv_free_device_list(l);
  struct ibv_port_attr pa;
  CHECK(!ibv_query_port(ctx, 1, &pa) && pa.state == IBV_PORT_ACTIVE);
  pd = ibv_alloc_pd(ctx);
  ch = ibv_create_comp_channel(ctx);
  cq = ibv_create_cq(ctx, 256, (void *)0x5151, ch, 0);
  buf = calloc(1, BUF);
  mr = ibv_reg_mr(pd, buf, BUF, IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_READ);
  CHECK(pd && ch && cq && buf && mr);

  /* 1. SEND/RECV in order; the channel fires only when armed. */
  struct ibv_qp *qp = connect_qp(0);
  if (!is_a) {
    for (int i = 0; i < 5; i++)
      post_recv(qp, 100 + (uint64_t)i, (size_t)i * 4096, 4096);
    sync_peer();
    for (int i = 0; i < 3; i++) {
      expect(100 + (uint64_t)i, IBV_WC_RECV, IBV_WC_SUCCESS, 100u * (uint32_t)(i + 1));
      for (int k = 0; k < 100 * (i + 1); k++)
        CHECK(buf[(size_t)i * 4096 + (size_t)k] == (uint8_t)(i + k));
    }
    /* Drop events left by wait_wc's arming, then: armed -> the channel fires. */
    fcntl(ch->fd, F_SETFL, fcntl(ch->fd, F_GETFL) | O_NONBLOCK);
    struct ibv_cq *ecq;
    void *ectx;
    while (!ibv_get_cq_event(ch, &ecq, &ectx))
      ibv_ack_cq_events(ecq, 1);
    struct ibv_wc wc;
    CHECK(!ibv_req_notify_cq(cq, 0));
    CHECK(ibv_poll_cq(cq, 1, &wc) == 0);
    sync_peer();                                   /* A sends #4 */
    struct pollfd p = { ch->fd, POLLIN, 0 };
    CHECK(poll(&p, 1, 10000) == 1);
    CHECK(!ibv_get_cq_event(ch, &ecq, &ectx) && ecq == cq);
    ibv_ack_cq_events(ecq, 1);
    CHECK(ibv_poll_cq(cq, 1, &wc) == 1 && wc.wr_id == 103 && wc.status == IBV_WC_SUCCESS);
    /* Not armed: a completion must not make the channel readable. */
    sync_peer();                                   /* A sends #5 */
    sync_peer();                                   /* A saw its completion */
    CHECK(poll(&p, 1, 200) == 0);
    CHECK(ibv_poll_cq(cq, 1, &wc) == 1 && wc.wr_id == 104 && wc.status == IBV_WC_SUCCESS);
    /* READ target: a pattern at 64 KiB, then block in read() while A fetches. */
    for (int k = 0; k < 8192; k++) buf[65536 + k] = (uint8_t)(k * 7);
    post_recv(qp, 105, 8192, 64);                  /* for the SEND behind the fence */
    sync_peer();
    expect(105, IBV_WC_RECV, IBV_WC_SUCCESS, 24);
    sync_peer();                                   /* A done reading */
  } else {
    for (int i = 0; i < 3; i++)
      for (int k = 0; k < 100 * (i + 1); k++)
        buf[(size_t)i * 4096 + (size_t)k] = (uint8_t)(i + k);
    sync_peer();
    for (int i = 0; i < 3; i++)
      post_send(qp, 1 + (uint64_t)i, (size_t)i * 4096, 100u * (uint32_t)(i + 1), mr->lkey);
    for (int i = 0; i < 3; i++)
      expect(1 + (uint64_t)i, IBV_WC_SEND, IBV_WC_SUCCESS, 0);
    sync_peer();
    post_send(qp, 4, 0, 16, mr->lkey);
    expect(4, IBV_WC_SEND, IBV_WC_SUCCESS, 0);
    sync_peer();
    post_send(qp, 41, 0, 16, mr->lkey);
    expect(41, IBV_WC_SEND, IBV_WC_SUCCESS, 0);
    sync_peer();
    sync_peer();                                   /* B wrote the pattern */
    post_read(qp, 5, 200000, 8192, peer.addr + 65536, peer.rkey);
    expect(5, IBV_WC_RDMA_READ, IBV_WC_SUCCESS, 8192);
    for (int k = 0; k < 8192; k++)
      CHECK(buf[200000 + k] == (uint8_t)(k * 7));
    /* A fenced READ, and the SEND after it, wait for the READ before them;
     * all three complete in posting order with their data. */
    memset(buf + 300000, 0, 8192);
    post_read(qp, 51, 300000, 4096, peer.addr + 65536, peer.rkey);
    post_read_flags(qp, 52, 304096, 4096, peer.addr + 65536 + 4096, peer.rkey, IBV_SEND_FENCE);
    post_send(qp, 53, 0, 24, mr->lkey);
    expect(51, IBV_WC_RDMA_READ, IBV_WC_SUCCESS, 4096);
    expect(52, IBV_WC_RDMA_READ, IBV_WC_SUCCESS, 4096);
    expect(53, IBV_WC_SEND, IBV_WC_SUCCESS, 0);
    for (int k = 0; k < 8192; k++)
      CHECK(buf[300000 + k] == (uint8_t)(k * 7));
    /* 2. Receiver not ready: B has no receive posted any more. */
    post_send(qp, 6, 0, 8, mr->lkey);
    expect(6, IBV_WC_SEND, IBV_WC_RNR_RETRY_EXC_ERR, 0);
    post_send(qp, 7, 0, 8, mr->lkey);              /* the queue pair is in error now */
    expect(7, IBV_WC_SEND, IBV_WC_WR_FLUSH_ERR, 0);
    sync_peer();
  }

  /* 3. Bad rkey, then an out-of-range READ with a good rkey. */
  struct ibv_qp *q2 = connect_qp(0);
  struct ibv_qp *q3 = connect_qp(0);
  if (is_a) {
    post_read(q2, 8, 0, 64, peer.addr, peer.rkey ^ 0x10);
    expect(8, IBV_WC_RDMA_READ, IBV_WC_REM_ACCESS_ERR, 0);
    post_read(q3, 9, 0, 64, peer.addr + BUF - 32, peer.rkey);
    expect(9, IBV_WC_RDMA_READ, IBV_WC_REM_ACCESS_ERR, 0);
  }
  sync_peer();

  /* 4. A bad lkey is caught locally. */
  struct ibv_qp *q4 = connect_qp(0);
  if (is_a) {
    post_send(q4, 10, 0, 8, mr->lkey + 1);
    expect(10, IBV_WC_SEND, IBV_WC_LOC_PROT_ERR, 0);
  }
  sync_peer();

  /* 5. B expects the wrong PSN from A: A's SEND never gets through. */
  struct ibv_qp *q5 = connect_qp(is_a ? 0 : 5);
  if (!is_a) {
    post_recv(q5, 200, 0, 64);
    sync_peer();
    sync_peer();
  } else {
    sync_peer();
    post_send(q5, 11, 0, 8, mr->lkey);
    expect(11, IBV_WC_SEND, IBV_WC_RETRY_EXC_ERR, 0);
    sync_peer();
  }

  /* 6. B dies; A's next request fails and the rest is flushed. */
  struct ibv_qp *q6 = connect_qp(0);
  if (!is_a)
    _exit(0);
  int st;
  CHECK(wait(&st) > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0);
  post_recv(q6, 300, 0, 64);
  post_send(q6, 12, 0, 8, mr->lkey);
  post_send(q6, 13, 0, 8, mr->lkey);
  int seen = 0;
  for (int i = 0; i < 3; i++) {
    struct ibv_wc wc = wait_wc();
    if (wc.wr_id == 12) { CHECK(wc.status == IBV_WC_RETRY_EXC_ERR); seen |= 1; }
    else if (wc.wr_id == 13) { CHECK(wc.status == IBV_WC_WR_FLUSH_ERR && (seen & 1)); seen |= 2; }
    else { CHECK(wc.wr_id == 300 && wc.status == IBV_WC_WR_FLUSH_ERR); seen |= 4; }
  }
  CHECK(seen == 7);
  ibv_destroy_qp(qp); ibv_destroy_qp(q2); ibv_destroy_qp(q3); ibv_destroy_qp(q4);
  ibv_destroy_qp(q5); ibv_destroy_qp(q6);
  CHECK(!ibv_dereg_mr(mr));
  CHECK(!ibv_destroy_cq(cq));
  CHECK(!ibv_destroy_comp_channel(ch));
  CHECK(!ibv_dealloc_pd(pd));
  printf("standin_test: SEND/RECV, channel, READ, FENCE, RNR, rkey, range, lkey, PSN, peer death: "
         "ok\n");
}

int main(void)
{
  int s[2];
  CHECK(!socketpair(AF_UNIX, SOCK_STREAM, 0, s));
  srand((unsigned)getpid());
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    who = "B";
    sp = s[1];
    close(s[0]);
    srand((unsigned)getpid());
    side(0);
    return 0;
  }
  sp = s[0];
  close(s[1]);
  side(1);
  return 0;
}
