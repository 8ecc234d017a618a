/*
 * transport_udp_acks.c — acknowledgements that wait a little, to travel
 * together.
 *
 * A one-way message (a PUSH, a DIFF, a UNSUB) is acknowledged once its
 * handler has run, by an ACK|COMPLETE to its sender's service socket. Sent
 * at once, every such ACK is a datagram on its own, and it wakes the
 * sender's service thread, which on a host whose CPUs are busy computing
 * means an inter-processor interrupt and two context switches on the
 * sender's CPU: 30-40 us of that CPU on this VM, for a datagram that only
 * lets the sender free a buffer. QSORT on two processes sent ~6,000 of them
 * per run, one for each PUSH, each while the other process computed.
 *
 * So the COMPLETE of a one-way message waits here, per destination, never
 * more than a quarter of the retransmission floor (so a sender never
 * retransmits because of it). They leave
 *   - inside the next REQ or REP datagram that goes to that peer anyway (a
 *     request, a reply, a PUSH of our own, a PAIRBAR: dsm__udp_acks_pack,
 *     transport_udp.h has the format), as long as the peer sent the one-way
 *     itself and the datagram has room: no datagram of their own at all.
 *     A barrier of two is one PAIRBAR each way, and each used to be
 *     followed by a datagram holding the ACK of the other's last one;
 *   - with the next datagram that goes to that peer anyway, when they do
 *     not fit in it or were forwarded to us: the peer wakes once for the
 *     lot, or not at all if it is running. Those that go with a reply go just before it,
 *     to the caller's reply socket, which accepts ACKs: the thread waiting
 *     there reads them with its reply. Sent to the service socket they woke
 *     the service thread of a caller that is not waiting for them: a
 *     one-way semaphore signal followed by a wait (sync/sema.c) cost the
 *     signaller one such wake-up per signal, ~40 us of its CPU. Before the
 *     reply, not after it: after it, the caller may have stopped reading
 *     that socket, and the sender would retransmit its one-way at the
 *     floor; and
 *   - when the thread serving the socket is awake anyway (it handled a
 *     datagram) and the oldest has waited ACK_DELAY: all of that peer's at
 *     once, so its service thread reads them with one recvmmsg;
 *   - at the latest a quarter of the retransmission floor after the oldest
 *     came: only then does the serving thread wake up for them (a timer).
 *     Waking up sooner for them would cost this CPU what it saves the
 *     peer: Sweep3D's pipeline sends single one-ways, and with a 500 us
 *     timer each ACK cost a timer wake-up here and still a wake-up there
 *     (6% slower); most now leave with the next message of the pipeline.
 * The COMPLETE of a reply of several datagrams waits here too
 * (dsm__udp_ack_reply): the replier only frees the reply on it, and it
 * rides in the caller's next request (bit 63 of the id tells it from a
 * one-way's). sort_task's page runs sent ~1,000 of these alone per run.
 * ACKs that carry a fragment bitmap (the sender's window moves on them),
 * COMPLETEs that stop a request's fragments or answer a deferred reply,
 * and re-ACKs of duplicates still go at once.
 * DSM_ACK_DELAY_US=0 sends every ACK at once, as before.
 *
 * Under U.core.mu, like the rest of the transport. Only the thread serving
 * the service socket defers (it computes its sleep from dsm__udp_acks_run).
 */
#include <stdlib.h>

#include "dsm_internal.h"
#include "transport_udp.h"

#define ACK_DELAY_US 500   /* default; DSM_ACK_DELAY_US */
#define ACKS_PEER    64    /* a peer's list is sent when it is this long */

struct ack_wait {
  unsigned origin, type, tgt_rep, orig;
  uint64_t rid;
};

static struct peer_acks {
  struct ack_wait *w;
  unsigned n;
  uint64_t due;            /* when the oldest may go (0: none waits) */
} *pa;
static uint64_t delay_ns;  /* 0: no deferral */
static uint64_t late_ns;   /* how long the oldest may wait at most */
static unsigned nwaiting;  /* peers with a list */

static void init(void)
{
  if (pa)
    return;
  pa = dsm__xcalloc(U.nprocs, sizeof *pa);
  uint64_t d = (uint64_t)dsm__env_long("DSM_ACK_DELAY_US", ACK_DELAY_US, 0, 100000) * 1000u;
  late_ns = U.rto_min / 4;
  if (d > late_ns)
    d = late_ns;
  delay_ns = d;
}

/* The sleeper's limit for a peer's held ACKs (see hold). */
static uint64_t last_of(const struct peer_acks *q)
{
  return q->due - delay_ns + late_ns;
}

/* A peer's list is empty now: its deadline is gone. */
static void emptied(struct peer_acks *q)
{
  dsm__udp_tfd_dropped(last_of(q));
  q->due = 0;
  nwaiting--;
}

static void send_peer(unsigned dst, int to_caller)
{
  struct peer_acks *q = &pa[dst];
  unsigned n = q->n;
  q->n = 0;
  emptied(q);
  for (unsigned i = 0; i < n; i++)
    dsm__udp_send_ack(dst, q->w[i].origin, q->w[i].rid, q->w[i].type, (int)q->w[i].tgt_rep, NULL,
                      to_caller, (int)q->w[i].orig);
}

static void hold(unsigned dst, unsigned origin, uint64_t rid, unsigned type, unsigned tgt_rep,
                 int orig)
{
  init();
  if (!delay_ns || U.shutting_down) {
    dsm__udp_send_ack(dst, origin, rid, type, (int)tgt_rep, NULL, 0, orig);
    return;
  }
  struct peer_acks *q = &pa[dst];
  if (!q->w)
    q->w = dsm__xcalloc(ACKS_PEER, sizeof *q->w);
  if (!q->n) {
    q->due = dsm__now_ns() + delay_ns;
    nwaiting++;
    dsm__udp_wake_role(SVC, last_of(q));
  }
  q->w[q->n++] = (struct ack_wait){ origin, type, tgt_rep, orig ? 1u : 0u, rid };
  if (q->n == ACKS_PEER)
    send_peer(dst, 0);
}

void dsm__udp_ack_oneway(unsigned dst, unsigned origin, uint64_t rid, unsigned type, int orig)
{
  hold(dst, origin, rid, type, 0, orig);
}

void dsm__udp_ack_reply(unsigned dst, uint64_t rid, unsigned type, int orig)
{
  hold(dst, U.self, rid, type, 1, orig);
}

int dsm__udp_acks_now(unsigned dst, unsigned origin, uint64_t rid, int tgt_rep, int to_caller)
{
  struct peer_acks *q = pa ? &pa[dst] : NULL;
  if (!q || !q->n)
    return 0;
  for (unsigned i = 0; i < q->n; i++) {
    struct ack_wait w = q->w[i];
    if (w.rid != rid || w.origin != origin || w.tgt_rep != (unsigned)tgt_rep)
      continue;
    q->w[i] = q->w[--q->n];
    if (!q->n)
      emptied(q);
    dsm__udp_send_ack(dst, origin, rid, w.type, tgt_rep, NULL, to_caller, (int)w.orig);
    return 1;
  }
  return 0;
}

size_t dsm__udp_acks_pack(unsigned dst, uint8_t *t, size_t room)
{
  if (!pa || !pa[dst].n || room < ACK_RIDE_LEN + 1)
    return 0;
  struct peer_acks *q = &pa[dst];
  size_t fit = (room - 1) / ACK_RIDE_LEN;
  unsigned k = 0, keep = 0;
  for (unsigned i = 0; i < q->n; i++) {
    int rides = q->w[i].tgt_rep ? q->w[i].origin == U.self : q->w[i].origin == dst;
    if (rides && k < fit && k < ACKS_RIDE) {
      put64(t + (size_t)k * ACK_RIDE_LEN, q->w[i].rid | (q->w[i].tgt_rep ? ACK_RIDE_REP : 0) |
            (q->w[i].orig ? ACK_RIDE_ORIG : 0));
      k++;
    } else {
      q->w[keep++] = q->w[i];     /* forwarded to us, or no room: an ACK of its own */
    }
  }
  if (!k)
    return 0;
  q->n = keep;
  if (!keep)
    emptied(q);
  t[(size_t)k * ACK_RIDE_LEN] = (uint8_t)k;
  DSM__STAT_ADD(acks_ridden, k);
  return (size_t)k * ACK_RIDE_LEN + 1;
}

void dsm__udp_acks_ride(unsigned dst, int to_caller)
{
  if (pa && pa[dst].n)
    send_peer(dst, to_caller);
}

uint64_t dsm__udp_acks_run(uint64_t now, uint64_t next)
{
  if (!nwaiting)
    return next;
  for (unsigned d = 0; d < U.nprocs; d++) {
    if (!pa[d].n)
      continue;
    uint64_t last = last_of(&pa[d]);
    if (pa[d].due <= now || U.shutting_down)
      send_peer(d, 0);
    else if (last < next)
      next = last;
  }
  return next;
}

uint64_t dsm__udp_acks_next(void)
{
  uint64_t next = UINT64_MAX;
  for (unsigned d = 0; nwaiting && d < U.nprocs; d++)
    if (pa[d].n && last_of(&pa[d]) < next)
      next = last_of(&pa[d]);
  return next;
}
