/*
 * transport_udp_boot.c — joining and leaving the job.
 *
 * Bootstrap: every rank learns the master's address and the job key, from
 * dsmrun's environment (DSM_MASTER, DSM_KEY) or, under mpirun or srun, from
 * rank 0 through PMIx (boot_pmix.h). Each rank > 0 sends a HELLO request to
 * the master, whose MAC proves it belongs to the job, with the port of its
 * reply socket; the
 * master records the datagram's source as that rank's address, and when all
 * have said hello it answers every HELLO with the address table (8 bytes
 * per rank: IPv4 address, service port, reply port).
 *
 * Shutdown is collective: every rank waits until its one-ways are
 * acknowledged, then sends EXIT to the master, which answers all of them
 * once all have arrived and lingers to answer EXITs whose reply was lost.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "boot_pmix.h"
#include "dsm_internal.h"
#include "transport_udp.h"

/* The master's bookkeeping: the HELLOs and EXITs it answers all at once. */
static dsm__reqh_t *hello_h, *exit_h;
static unsigned hello_count, exit_count;

/* A backend layered on this one (verbs) runs its own rendezvous through
 * rank 0 with further HELLOs once the address table is out; they go to it. */
static dsm__handler_t hello_next;

void dsm__udp_hello_chain(dsm__handler_t fn)
{
  hello_next = fn;
}

static void on_hello(const dsm__msg_t *m)
{
  pthread_mutex_lock(&U.core.mu);
  int later = hello_count == U.nprocs - 1;
  if (U.self == 0 && m->origin != 0 && hello_count < U.nprocs - 1) {
    /* Its service address came with the datagram; the reply port is in
     * the payload, and is where this HELLO's answer goes. */
    uint16_t rport = 0;
    if (m->len == 2)
      memcpy(&rport, m->data, 2);
    dsm__udp_set_peer_reply(m->origin, rport);
    hello_h[hello_count++] = dsm__reqh(m);
    dsm__udp_ctl_changed();
  }
  pthread_mutex_unlock(&U.core.mu);
  if (later && hello_next)
    hello_next(m);
}

static void on_exit_req(const dsm__msg_t *m)
{
  pthread_mutex_lock(&U.core.mu);
  if (U.self == 0 && exit_count < U.nprocs - 1) {
    exit_h[exit_count++] = dsm__reqh(m);
    dsm__udp_ctl_changed();
  }
  pthread_mutex_unlock(&U.core.mu);
}

static void on_ping(const dsm__msg_t *m)
{
  dsm__udp_reply(dsm__reqh(m), m->data, m->len);
}

static void parse_key(uint8_t key[16])
{
  const char *k = getenv("DSM_KEY");
  if (!k || strlen(k) != 32)
    dsm__fatal(DSM__EXIT_FATAL, "DSM_KEY must be 32 hex digits (set by dsmrun)");
  for (int i = 0; i < 16; i++) {
    unsigned v = 0;
    for (int j = 0; j < 2; j++) {
      char c = k[2 * i + j];
      unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') :
                   c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) :
                   c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 99;
      if (d > 15)
        dsm__fatal(DSM__EXIT_FATAL, "DSM_KEY must be 32 hex digits (set by dsmrun)");
      v = v * 16 + d;
    }
    key[i] = (uint8_t)v;
  }
}

/* Where the master listens and the job's key: one step, two sources. It
 * opens the sockets too, because under PMIx the master's port is known only
 * once it is bound. dsmrun picks the port before any rank starts and puts
 * both in the environment. A PMIx launcher knows neither: the master binds
 * an ephemeral port, then publishes it with a key it draws, and the others
 * read both after a fence. */
static void find_master(struct sockaddr_in *master)
{
  uint8_t key[16];
  if (dsm__pmix_active()) {
    memset(master, 0, sizeof *master);   /* port 0: the master's is ephemeral */
    dsm__udp_open_sockets(master);
    struct sockaddr_in svc;
    socklen_t sl = sizeof svc;
    if (getsockname(U.sock[SVC], (struct sockaddr *)&svc, &sl) < 0)
      dsm__fatal(DSM__EXIT_FATAL, "getsockname: %s", strerror(errno));
    dsm__pmix_meet(svc.sin_port, master, key);
  } else {
    parse_key(key);
    const char *m = getenv("DSM_MASTER");
    if (!m || dsm__udp_parse_addr(m, master))
      dsm__fatal(DSM__EXIT_FATAL, "DSM_MASTER='%s' is not ipv4:port (set by dsmrun)",
                 m ? m : "");
    dsm__udp_open_sockets(master);
  }
  dsm__udp_set_key(key);
}

/* The cache ends a reply still in flight when it drops the reply. */
static void drop_tx(void *x)
{
  dsm__udp_xfer_free(x);
}

void dsm__udp_state_init(unsigned rank, unsigned size)
{
  U.self = rank;
  U.nprocs = size;
  dsm__tp_core_init(&U.core, rank, size, drop_tx);
  U.peers = calloc(size, sizeof *U.peers);
  hello_h = calloc(size, sizeof *hello_h);
  exit_h = calloc(size, sizeof *exit_h);
  DSM__ASSERT(U.peers && hello_h && exit_h);
  for (unsigned r = 0; r < size; r++)
    U.peers[r].rto = RTO_INIT;
}

/* The environment a rank runs in (docs/protocol.md, "Bootstrap"). */
static void read_env(void)
{
  U.rto_min = (uint64_t)dsm__env_long("DSM_RTO_MIN_MS", 10, 1, 1000) * MS;
  U.lazy = (int)dsm__env_long("DSM_LAZY", 1, 0, 1);
  U.timeout_ns = (uint64_t)dsm__env_long("DSM_TIMEOUT", 30, 1, 86400) * 1000000000u;
  const char *ls = getenv("DSM_LOSS");
  if (ls && *ls) {
    char *end;
    U.loss = strtod(ls, &end);
    if (*end || U.loss < 0 || U.loss > 1)
      dsm__fatal(DSM__EXIT_FATAL, "DSM_LOSS='%s' is not a fraction in [0, 1]", ls);
  }
  U.rnd_state = (dsm__now_ns() ^ ((uint64_t)getpid() << 32) ^ U.self) | 1;
  U.lifeline = (int)dsm__env_long("DSM_LIFELINE", -1, -1, 1 << 20);
  U.frag_force = (uint32_t)dsm__env_long("DSM_FRAG", 0, 0, FSZ_LO);
  if (U.frag_force && U.frag_force < FSZ_MIN)
    dsm__fatal(DSM__EXIT_FATAL, "DSM_FRAG must be 0 or at least %d", FSZ_MIN);
  /* No timeout below the floor, not even before the first sample (a floor
   * above RTO_INIT, and a peer that is never sampled, left calls with 10 ms). */
  for (unsigned r = 0; r < U.nprocs; r++)
    if (U.peers[r].rto < U.rto_min)
      U.peers[r].rto = U.rto_min;
}

/* Rank 0: wait for every HELLO, then answer each with the address table. */
static void serve_table(void)
{
  unsigned size = U.nprocs;
  pthread_mutex_lock(&U.core.mu);
  while (hello_count < size - 1)
    dsm__udp_ctl_wait(NULL);
  dsm__peers_known = 1;
  pthread_mutex_unlock(&U.core.mu);
  /* The table: each rank's IPv4 address, service port and reply port, in
   * network order. */
  uint8_t *table = malloc(8 * (size_t)size);
  DSM__ASSERT(table);
  for (unsigned r = 0; r < size; r++) {
    memcpy(table + 8 * r, &U.peers[r].addr.sin_addr.s_addr, 4);
    memcpy(table + 8 * r + 4, &U.peers[r].addr.sin_port, 2);
    memcpy(table + 8 * r + 6, &U.peers[r].raddr.sin_port, 2);
  }
  for (unsigned i = 0; i < size - 1; i++)
    dsm__udp_reply(hello_h[i], table, 8 * (size_t)size);
  free(table);
}

/* Ranks > 0: say hello to the master and learn everyone's address. */
static void fetch_table(void)
{
  unsigned size = U.nprocs;
  void *table;
  size_t len;
  uint16_t rport = U.peers[U.self].raddr.sin_port;
  dsm__udp_call(0, DSM__MSG_HELLO, &rport, sizeof rport, &table, &len);
  if (len != 8 * (size_t)size)
    dsm__fatal(DSM__EXIT_FATAL, "bootstrap: address table of %zu bytes for %u ranks", len, size);
  pthread_mutex_lock(&U.core.mu);
  for (unsigned r = 0; r < size; r++) {
    struct sockaddr_in a = { .sin_family = AF_INET };
    memcpy(&a.sin_addr.s_addr, (uint8_t *)table + 8 * r, 4);
    memcpy(&a.sin_port, (uint8_t *)table + 8 * r + 4, 2);
    if (r > 0)
      dsm__udp_set_peer(r, &a);
    memcpy(&rport, (uint8_t *)table + 8 * r + 6, 2);
    dsm__udp_set_peer_reply(r, rport);
  }
  dsm__peers_known = 1;
  pthread_mutex_unlock(&U.core.mu);
  free(table);
}

void dsm__udp_init(unsigned rank, unsigned size)
{
  DSM__ASSERT(size >= 1 && rank < size && size < 65536 && !U.core.svc_running);
  dsm__udp_state_init(rank, size);
  read_env();
  U.core.handlers[DSM__MSG_HELLO] = on_hello;
  if (!U.core.handlers[DSM__MSG_PING])
    U.core.handlers[DSM__MSG_PING] = on_ping;   /* keepalives; dsmbench may bring its own */
  U.core.handlers[DSM__MSG_EXIT] = on_exit_req;
  U.tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (U.tfd < 0)
    dsm__fatal(DSM__EXIT_FATAL, "timerfd_create: %s", strerror(errno));

  if (size > 1) {
    struct sockaddr_in master;
    find_master(&master);
    dsm__udp_set_peer(0, &master);
    /* Our own reply port, for the HELLO (or, on the master, the table). */
    struct sockaddr_in r;
    socklen_t rl = sizeof r;
    if (getsockname(U.sock[REPLY], (struct sockaddr *)&r, &rl) < 0)
      dsm__fatal(DSM__EXIT_FATAL, "getsockname: %s", strerror(errno));
    if (rank == 0)
      dsm__udp_set_peer_reply(0, r.sin_port);
    else
      U.peers[rank].raddr.sin_port = r.sin_port;
  }
  dsm__udp_service_start();
  if (size == 1) {
    dsm__peers_known = 1;
    return;
  }
  if (rank == 0)
    serve_table();
  else
    fetch_table();
  DSM__DEBUG("transport up: %u ranks, window %u bytes", size, U.window_bytes);
}

/* The master: answer every EXIT once all have come, then linger to answer
 * EXITs whose reply was lost: until 200 ms pass without a datagram (five
 * EXIT retransmission periods, RTO_CTL), at most 3 s. A rank that still
 * misses its answer exits normally after DSM_TIMEOUT. */
static void collect_exits(void)
{
  pthread_mutex_lock(&U.core.mu);
  while (exit_count < U.nprocs - 1)
    dsm__udp_ctl_wait(NULL);
  pthread_mutex_unlock(&U.core.mu);
  for (unsigned i = 0; i < U.nprocs - 1; i++)
    dsm__udp_reply(exit_h[i], NULL, 0);
  uint64_t start = dsm__now_ns();
  pthread_mutex_lock(&U.core.mu);
  U.last_recv = start;
  for (;;) {
    uint64_t now = dsm__now_ns();
    if (now - start > 3000 * MS || now - U.last_recv >= 200 * MS)
      break;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 20 * 1000000;
    if (ts.tv_nsec >= 1000000000) { ts.tv_sec++; ts.tv_nsec -= 1000000000; }
    dsm__udp_ctl_wait(&ts);
  }
  pthread_mutex_unlock(&U.core.mu);
}

void dsm__udp_shutdown(void)
{
  if (!U.core.svc_running)
    return;
  pthread_mutex_lock(&U.core.mu);
  /* One-ways still in flight must land before we say we are done. */
  while (dsm__udp_own_busy())
    dsm__udp_ctl_wait(NULL);
  U.shutting_down = 1;
  pthread_mutex_unlock(&U.core.mu);
  if (U.nprocs > 1) {
    if (U.self != 0)
      dsm__udp_call(0, DSM__MSG_EXIT, NULL, 0, NULL, NULL);
    else
      collect_exits();
  }
  dsm__udp_service_stop();
}
