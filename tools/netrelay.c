/*
 * netrelay — an Ethernet switch whose every port is a wire with a fixed
 * one-way delay: the delay stage of the test networks (apps/bench/net.sh,
 * issue 53). This kernel has no netem qdisc, and the delay must hold for
 * every program on the links alike (ompdsm over UDP, Open MPI and its
 * daemons over TCP), so it cannot live in our own transport. Bandwidth is
 * not this program's business: tbf qdiscs on the veths shape it.
 *
 *   netrelay --delay-us D [--stats FILE] [--ready FILE] [--no-rt] [--no-adapt]
 *            IFACE...
 *
 * Each IFACE is the host end of a veth pair whose other end is a
 * namespace's eth0. A frame that the namespace sends arrives here; it is
 * held until D microseconds after the kernel received it (its SO_TIMESTAMPNS
 * stamp, so the time this process takes to wake up is inside D, not added
 * to it), then sent out of the port its destination MAC was learned on
 * (or all other ports, for broadcasts and unknown destinations). A frame
 * crosses the relay once, so A to B takes D one way and 2D more a round
 * trip than the same namespaces joined by a bridge.
 *
 * Frames are read and written with their virtio-net header
 * (PACKET_VNET_HDR): TCP's segmentation-offloaded 64 KiB frames and
 * unfinished checksums pass through as the kernel made them, as they would
 * through a bridge, without turning offloads off in every namespace.
 *
 * It does not: reorder (frames leave in order of their due times), drop
 * (except when its queue of SLOTS frames is full or a port's qdisc refuses
 * a frame; both are counted), or age its MAC table (the namespaces live as
 * long as it does).
 *
 * It runs SCHED_FIFO when allowed (--no-rt: not), so that on a machine
 * whose cores run the job's processes it still wakes when a frame is due;
 * it never spins (it sleeps in ppoll until the next due time or frame).
 * A sleep still ends some microseconds after the time asked for (15-20 us
 * on the 2-core VM, 2026-12-07), so it asks to wake that much early: the
 * margin follows the median of how late frames leave (--no-adapt: no
 * margin). The wake-up on a frame's arrival is hidden inside D when it is
 * shorter than D; when D is shorter (10g), it is not, and the delay is
 * that wake-up (measured by `net.sh measure`, profile relay).
 * SIGUSR1 writes the statistics (to --stats FILE, else stderr), SIGUSR2
 * sets them to zero (to measure one job), SIGTERM and SIGINT write them
 * and exit. They say how far from its due time each frame left (the
 * offset's quantiles): that is the error of the delay it claims, beside
 * what the network's round trips show (apps/bench/net.sh measure).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAXPORTS   64
#define SLOTS      4096                 /* frames held at once */
#define VH         ((int)sizeof(struct virtio_net_hdr))
#define SLOT_BYTES (VH + 65536 + 64)    /* a GSO frame is at most 64 KiB */
#define BATCH      32                   /* frames read per recvmmsg */
#define MACS       256

struct slot {
  uint64_t due;      /* CLOCK_REALTIME ns: the kernel's receive stamp + delay */
  uint32_t len;      /* bytes in buf, the virtio-net header included */
  uint16_t in;       /* the port it came in on */
  uint8_t *buf;
};

struct port {
  char name[IF_NAMESIZE];
  int fd;
};

static struct port ports[MAXPORTS];
static int nports;
static uint64_t delay_ns;

/* The queue: a ring of slots kept in order of due time. Each position
 * owns one buffer; entries move with their buffer pointers. */
static struct slot ring[SLOTS];
static unsigned head, count;

static struct { uint8_t mac[6]; uint16_t port; } macs[MACS];
static unsigned nmacs;

/* How early it wakes: an estimate of the median time between the moment
 * it asks to wake and the moment a frame leaves (timer, scheduler, the
 * system call). Held frames leave at due - early, so that the median frame
 * leaves at its due time; kept within [0, delay] (a frame is never sent
 * before it arrived). --no-adapt keeps it 0. */
static int64_t early_ns;
static int adapt = 1;
#define ADAPT_STEP_NS 250

/* Statistics. The offset of a frame is the time it left minus its due
 * time (negative: early); the histogram has 1 us buckets from -OFF_NEG to
 * OFF_POS us, the ends collecting everything beyond. */
#define OFF_NEG 100
#define OFF_POS 4000
static uint64_t stat_frames_in;    /* frames received on all ports */
static uint64_t stat_bytes_in;     /* their bytes, virtio-net header excluded */
static uint64_t stat_frames_out;   /* copies sent (a flood sends several) */
static uint64_t stat_full_drops;   /* frames dropped: the queue was full */
static uint64_t stat_send_drops;   /* copies a port refused (qdisc full, ...) */
static int64_t stat_off_max_ns;    /* the latest a frame left after its due time */
static int64_t stat_off_min_ns;    /* the earliest (negative: before it) */
static double stat_off_sum_ns;     /* sum of offsets, for the mean */
static uint64_t stat_off_hist[OFF_NEG + OFF_POS + 1];
static uint64_t stat_forwarded;    /* frames forwarded (the histogram's count) */
static uint64_t stat_read_max_ns;  /* the longest a frame waited to be read */

static volatile sig_atomic_t want_stats, want_reset, want_stop;
static const char *stats_path;

static void die(const char *what)
{
  fprintf(stderr, "netrelay: %s: %s\n", what, strerror(errno));
  exit(1);
}

static uint64_t now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void on_signal(int sig)
{
  if (sig == SIGUSR1)
    want_stats = 1;
  else if (sig == SIGUSR2)
    want_reset = 1;
  else
    want_stop = 1;
}

/* The offset (us) below which a fraction q of the frames left: the
 * upper edge of the histogram bucket where q is reached. */
static double off_quantile_us(double q)
{
  uint64_t acc = 0;
  if (!stat_forwarded)
    return 0;
  for (int b = 0; b <= OFF_NEG + OFF_POS; b++) {
    acc += stat_off_hist[b];
    if ((double)acc >= q * (double)stat_forwarded)
      return b - OFF_NEG + 1;
  }
  return OFF_POS;
}

static void write_stats(void)
{
  FILE *f = stats_path ? fopen(stats_path, "w") : stderr;
  if (!f)
    return;
  fprintf(f, "delay_us %.3f\nports %d\nframes_in %llu\nbytes_in %llu\nframes_out %llu\n"
          "full_drops %llu\nsend_drops %llu\nearly_now_us %.3f\n"
          "offset_mean_us %.3f\noffset_p01_us %.0f\noffset_p50_us %.0f\noffset_p90_us %.0f\n"
          "offset_p99_us %.0f\noffset_min_us %.3f\noffset_max_us %.3f\nread_wait_max_us %.3f\n",
          (double)delay_ns / 1000, nports, (unsigned long long)stat_frames_in,
          (unsigned long long)stat_bytes_in, (unsigned long long)stat_frames_out,
          (unsigned long long)stat_full_drops, (unsigned long long)stat_send_drops,
          (double)early_ns / 1000,
          stat_forwarded ? stat_off_sum_ns / (double)stat_forwarded / 1000 : 0.0,
          off_quantile_us(0.01), off_quantile_us(0.5), off_quantile_us(0.9),
          off_quantile_us(0.99), (double)stat_off_min_ns / 1000,
          (double)stat_off_max_ns / 1000, (double)stat_read_max_ns / 1000);
  if (f != stderr)
    fclose(f);
  else
    fflush(f);
}

/* Everything but the wake-up estimate, which is the relay's state. */
static void reset_stats(void)
{
  stat_frames_in = stat_bytes_in = stat_frames_out = 0;
  stat_full_drops = stat_send_drops = stat_forwarded = stat_read_max_ns = 0;
  stat_off_max_ns = stat_off_min_ns = 0;
  stat_off_sum_ns = 0;
  memset(stat_off_hist, 0, sizeof stat_off_hist);
}

static int open_port(const char *name)
{
  unsigned idx = if_nametoindex(name);
  if (!idx) {
    fprintf(stderr, "netrelay: no interface %s\n", name);
    exit(1);
  }
  int fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, htons(ETH_P_ALL));
  if (fd < 0)
    die("socket(AF_PACKET)");
  int one = 1, sz = 8 << 20;
  if (setsockopt(fd, SOL_PACKET, PACKET_VNET_HDR, &one, sizeof one) < 0)
    die("PACKET_VNET_HDR");
  /* Our own sends on this port would come back to us otherwise. */
  if (setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof one) < 0)
    die("PACKET_IGNORE_OUTGOING");
  if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one) < 0)
    die("SO_TIMESTAMPNS");
  if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof sz) < 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &sz, sizeof sz);
  if (setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &sz, sizeof sz) < 0)
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sz, sizeof sz);
  struct sockaddr_ll ll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL),
                            .sll_ifindex = (int)idx };
  if (bind(fd, (struct sockaddr *)&ll, sizeof ll) < 0)
    die("bind(AF_PACKET)");
  return fd;
}

static void learn(const uint8_t *src, int port)
{
  if (src[0] & 1)
    return;     /* a group address is never a source */
  for (unsigned i = 0; i < nmacs; i++)
    if (!memcmp(macs[i].mac, src, 6)) {
      macs[i].port = (uint16_t)port;
      return;
    }
  if (nmacs < MACS) {
    memcpy(macs[nmacs].mac, src, 6);
    macs[nmacs++].port = (uint16_t)port;
  }
}

static int lookup(const uint8_t *dst)
{
  if (dst[0] & 1)
    return -1;  /* broadcast or multicast: every port */
  for (unsigned i = 0; i < nmacs; i++)
    if (!memcmp(macs[i].mac, dst, 6))
      return macs[i].port;
  return -1;
}

static void send_copy(int out, const struct slot *s)
{
  if (send(ports[out].fd, s->buf, s->len, MSG_DONTWAIT) < 0)
    stat_send_drops++;
  else
    stat_frames_out++;
}

static void forward(const struct slot *s, uint64_t now)
{
  int64_t off = (int64_t)(now - s->due);
  int64_t b = off / 1000 + OFF_NEG;
  if (off < 0)
    b = OFF_NEG - 1 - (-off - 1) / 1000;   /* -1 ns .. -1000 ns: the bucket below 0 */
  if (b < 0)
    b = 0;
  if (b > OFF_NEG + OFF_POS)
    b = OFF_NEG + OFF_POS;
  stat_off_hist[b]++;
  stat_forwarded++;
  stat_off_sum_ns += (double)off;
  if (stat_forwarded == 1 || off > stat_off_max_ns)
    stat_off_max_ns = off;
  if (stat_forwarded == 1 || off < stat_off_min_ns)
    stat_off_min_ns = off;
  /* Towards the median: a frame that left late moves the wake-up earlier
   * by a step, one that left early moves it later. */
  if (adapt) {
    early_ns += off > 0 ? ADAPT_STEP_NS : -ADAPT_STEP_NS;
    if (early_ns < 0)
      early_ns = 0;
    if (early_ns > (int64_t)delay_ns)
      early_ns = (int64_t)delay_ns;
  }
  const uint8_t *eth = s->buf + VH;
  int out = lookup(eth);
  if (out >= 0) {
    if (out != s->in)
      send_copy(out, s);
    return;
  }
  for (int p = 0; p < nports; p++)
    if (p != s->in)
      send_copy(p, s);
}

/* Reads what port p has queued, at most until the ring is full (the rest
 * is read and dropped, as a switch with a full buffer would). */
static void read_port(int p)
{
  struct mmsghdr msg[BATCH];
  struct iovec iov[BATCH];
  char ctl[BATCH][CMSG_SPACE(sizeof(struct timespec))];
  static uint8_t spill[SLOT_BYTES];
  for (;;) {
    unsigned tail = (head + count) % SLOTS;
    unsigned room = SLOTS - count, n = room < BATCH ? room : BATCH;
    int dropping = n == 0;
    if (dropping)
      n = 1;
    for (unsigned i = 0; i < n; i++) {
      iov[i].iov_base = dropping ? spill : ring[(tail + i) % SLOTS].buf;
      iov[i].iov_len = SLOT_BYTES;
      msg[i].msg_hdr = (struct msghdr){ .msg_iov = &iov[i], .msg_iovlen = 1,
                                        .msg_control = ctl[i], .msg_controllen = sizeof ctl[i] };
    }
    int got = recvmmsg(ports[p].fd, msg, n, MSG_DONTWAIT, NULL);
    if (got <= 0)
      return;
    uint64_t now = now_ns();
    for (int i = 0; i < got; i++) {
      uint32_t len = msg[i].msg_len;
      stat_frames_in++;
      if (len < (uint32_t)VH + 14)
        continue;
      stat_bytes_in += len - (uint32_t)VH;
      if (dropping) {
        stat_full_drops++;
        continue;
      }
      uint64_t rx = now;
      for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg[i].msg_hdr); c;
           c = CMSG_NXTHDR(&msg[i].msg_hdr, c))
        if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_TIMESTAMPNS) {
          struct timespec ts;
          memcpy(&ts, CMSG_DATA(c), sizeof ts);
          rx = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
        }
      if (now > rx && now - rx > stat_read_max_ns)
        stat_read_max_ns = now - rx;
      unsigned at = (head + count) % SLOTS;
      struct slot *s = &ring[at];
      s->due = rx + delay_ns;
      s->len = len;
      s->in = (uint16_t)p;
      learn(s->buf + VH + 6, p);
      count++;
      /* Frames of different ports can be read out of their stamps' order:
       * move this one back to its place (rarely more than a step). */
      for (unsigned k = count - 1; k > 0; k--) {
        struct slot *a = &ring[(head + k - 1) % SLOTS], *b = &ring[(head + k) % SLOTS];
        if (a->due <= b->due)
          break;
        struct slot t = *a;
        *a = *b;
        *b = t;
      }
    }
    if (got < (int)n)
      return;
  }
}

static void usage(void)
{
  fprintf(stderr, "usage: netrelay --delay-us D [--stats FILE] [--ready FILE] [--no-rt] [--no-adapt]\n"
          "                IFACE...\n");
  exit(2);
}

int main(int argc, char **argv)
{
  const char *ready = NULL;
  int rt = 1, have_delay = 0;
  int i;
  for (i = 1; i < argc && argv[i][0] == '-'; i++) {
    if (!strcmp(argv[i], "--delay-us") && i + 1 < argc) {
      char *end;
      double d = strtod(argv[++i], &end);
      if (*end || d < 0 || d > 1e6)
        usage();
      delay_ns = (uint64_t)(d * 1000 + 0.5);
      have_delay = 1;
    } else if (!strcmp(argv[i], "--stats") && i + 1 < argc) {
      stats_path = argv[++i];
    } else if (!strcmp(argv[i], "--ready") && i + 1 < argc) {
      ready = argv[++i];
    } else if (!strcmp(argv[i], "--no-rt")) {
      rt = 0;
    } else if (!strcmp(argv[i], "--no-adapt")) {
      adapt = 0;
    } else {
      usage();
    }
  }
  if (!have_delay || i >= argc || argc - i > MAXPORTS)
    usage();
  for (; i < argc; i++) {
    snprintf(ports[nports].name, sizeof ports[nports].name, "%s", argv[i]);
    ports[nports].fd = open_port(argv[i]);
    nports++;
  }
  /* Virtual room for SLOTS frames of 64 KiB; only what frames touch is
   * ever backed by memory (a 1.5 KB frame touches one page of its slot). */
  uint8_t *pool = mmap(NULL, (size_t)SLOTS * SLOT_BYTES, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (pool == MAP_FAILED)
    die("mmap");
  for (unsigned s = 0; s < SLOTS; s++)
    ring[s].buf = pool + (size_t)s * SLOT_BYTES;

  if (rt) {
    struct sched_param sp = { .sched_priority = 10 };
    if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
      fprintf(stderr, "netrelay: SCHED_FIFO refused (%s); delays may run late under load\n",
              strerror(errno));
  }
  /* A normal task's sleeps end up to 50 us late by default (timer slack). */
  prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);

  struct sigaction sa = { .sa_handler = on_signal };
  sigemptyset(&sa.sa_mask);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGUSR1, &sa, NULL);
  sigaction(SIGUSR2, &sa, NULL);
  /* The signals are taken only inside ppoll, so a flag is never missed
   * between the check and the sleep. */
  sigset_t block, wait_mask;
  sigemptyset(&block);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGUSR1);
  sigaddset(&block, SIGUSR2);
  sigprocmask(SIG_BLOCK, &block, &wait_mask);
  sigdelset(&wait_mask, SIGTERM);
  sigdelset(&wait_mask, SIGINT);
  sigdelset(&wait_mask, SIGUSR1);
  sigdelset(&wait_mask, SIGUSR2);

  if (ready) {
    FILE *f = fopen(ready, "w");
    if (!f)
      die(ready);
    fprintf(f, "%d\n", (int)getpid());
    fclose(f);
  }

  struct pollfd pfd[MAXPORTS];
  for (int p = 0; p < nports; p++)
    pfd[p] = (struct pollfd){ .fd = ports[p].fd, .events = POLLIN };
  while (!want_stop) {
    uint64_t now = now_ns();
    while (count && ring[head].due - (uint64_t)early_ns <= now) {
      forward(&ring[head], now);
      head = (head + 1) % SLOTS;
      count--;
    }
    struct timespec ts, *tp = NULL;
    if (count) {
      uint64_t w = ring[head].due - (uint64_t)early_ns - now;
      ts.tv_sec = (time_t)(w / 1000000000u);
      ts.tv_nsec = (long)(w % 1000000000u);
      tp = &ts;
    }
    int r = ppoll(pfd, (nfds_t)nports, tp, &wait_mask);
    if (r < 0 && errno != EINTR)
      die("ppoll");
    if (want_stats) {
      want_stats = 0;
      write_stats();
    }
    if (want_reset) {
      want_reset = 0;
      reset_stats();
    }
    for (int p = 0; r > 0 && p < nports; p++) {
      if (pfd[p].revents & (POLLERR | POLLNVAL | POLLHUP)) {
        fprintf(stderr, "netrelay: port %s failed (removed?)\n", ports[p].name);
        want_stop = 1;
      }
      if (pfd[p].revents & POLLIN)
        read_port(p);
    }
  }
  write_stats();
  return 0;
}
