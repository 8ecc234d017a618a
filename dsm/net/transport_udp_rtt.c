/*
 * transport_udp_rtt.c — how long to wait before a datagram counts as lost.
 *
 * Per peer, TCP's estimator (RFC 6298): a smoothed round trip and its mean
 * deviation from calls answered without a retransmission (Karn's rule),
 * with the replier's own service time (carried in the reply) taken out so
 * that a slow handler does not look like a slow network. RTO = SRTT +
 * 4 RTTVAR, within [U.rto_min, RTO_MAX]. A message of many fragments also
 * keeps its own estimate from its fragment ACKs, since draining a window of
 * megabytes takes longer than a small call (transport_udp_frag.c).
 *
 * The floor, U.rto_min (DSM_RTO_MIN_MS, 10 ms), is not the LAN round trip
 * (~0.1 ms) but the scheduling delay of an oversubscribed host: with 8
 * processes on 2 cores a reply is often a few ms late, and a 3 ms floor
 * retransmitted hundreds of requests per second on loopback with no loss.
 * Before the first sample a peer's timeout is RTO_INIT, never below the
 * floor.
 *
 * A call waits for the network and for the replier's handler. The second
 * is not the network's and must not widen the network's estimate, but a
 * timeout that leaves it out fires on every call to a slow handler: under
 * ThreadSanitizer a 256 KiB reply takes 7-12 ms to build, and with a 10 ms
 * timeout the bulk test resent 90-170 of 200 requests, each answered by a
 * fragment sent again (issue 57). So each reply carries its service time,
 * and the caller keeps a second estimate per message type, of the service
 * times of the replies that were immediate (a deferred reply, a lock grant
 * or a barrier departure, waited for other processes: the PENDING protocol
 * covers those). A call's timeout is the sum, never below the floor
 * (dsm__udp_call_rto): a lost request to a fast handler is resent as soon
 * as before.
 *
 * And whether a resend was needed at all: see F_ORIG (transport_udp.h).
 */
#include "dsm_internal.h"
#include "transport_udp.h"

void dsm__udp_rtt_sample(struct rtt *r, uint64_t sample)
{
  if (!r->srtt) {
    r->srtt = sample;
    r->rttvar = sample / 2;
  } else {
    uint64_t err = sample > r->srtt ? sample - r->srtt : r->srtt - sample;
    r->rttvar = (3 * r->rttvar + err) / 4;
    r->srtt = (7 * r->srtt + sample) / 8;
  }
}

void dsm__udp_peer_sample(unsigned p, uint64_t sample)
{
  struct peer *pe = &U.peers[p];
  dsm__udp_rtt_sample(&pe->est, sample);
  uint64_t rto = pe->est.srtt + 4 * pe->est.rttvar;
  pe->rto = rto < U.rto_min ? U.rto_min : rto > RTO_MAX ? RTO_MAX : rto;
}

uint64_t dsm__udp_xfer_rto(const struct xfer *x)
{
  uint64_t rto = x->est.srtt + 4 * x->est.rttvar;
  uint64_t base = x->peer == U.self ? RTO_INIT : U.peers[x->peer].rto;
  return rto < base ? base : rto > RTO_MAX ? RTO_MAX : rto;
}

uint64_t dsm__udp_rto_cap(const struct xfer *x)
{
  return x->call && (x->call->c.type == DSM__MSG_EXIT || x->call->c.type == DSM__MSG_HELLO) ?
         RTO_CTL : RTO_MAX;
}

/* Service times per message type, as the repliers reported them. */
static struct rtt service[DSM__MSG_COUNT];

void dsm__udp_service_sample(unsigned type, uint64_t t)
{
  if (type < DSM__MSG_COUNT)
    dsm__udp_rtt_sample(&service[type], t);
}

uint64_t dsm__udp_call_rto(unsigned peer, unsigned type)
{
  if (peer == U.self)
    return RTO_INIT;
  /* The floor bounds the sum, not each part: it is there for a late
   * answer, whatever made it late, and a fast handler's allowance on top
   * of it only delayed the recovery of every lost request (tsp at 5% loss:
   * 10 -> 11.7 ms per lost PAGE request). */
  const struct peer *pe = &U.peers[peer];
  const struct rtt *s = &service[type < DSM__MSG_COUNT ? type : 0];
  uint64_t net = pe->est.srtt ? pe->est.srtt + 4 * pe->est.rttvar : pe->rto;
  uint64_t rto = net + s->srtt + 4 * s->rttvar;
  return rto < pe->rto ? pe->rto : rto > RTO_MAX ? RTO_MAX : rto;
}

void dsm__udp_judge_resends(struct xfer *x, int orig)
{
  if (orig)
    DSM__STAT_ADD(spurious_retransmits, x->resends - x->resends_judged);
  x->resends_judged = x->resends;
}
