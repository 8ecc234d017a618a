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
