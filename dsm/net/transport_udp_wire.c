/*
 * transport_udp_wire.c — the UDP datagram: header encoding, the MAC, and
 * the checks a received datagram must pass before anything else looks at
 * it (transport_udp.h has the layout, docs/protocol.md the meaning).
 *
 * What this file does not check: that the datagram comes from the address
 * the table gives for its src (transport_udp_rpc.c, which also learns
 * addresses from HELLO), and anything about the message it belongs to.
 */
#include <string.h>

#include "dsm_internal.h"
#include "mac.h"
#include "transport_udp.h"

void dsm__udp_hdr_put(uint8_t *b, const struct hdr *h)
{
  put32(b, h->magic); b[4] = h->kind; b[5] = h->type; b[6] = h->flags; b[7] = h->hops;
  put32(b + 8, h->src); put32(b + 12, h->dst); put32(b + 16, h->origin); put32(b + 20, h->fsz);
  put64(b + 24, h->rid); put64(b + 32, h->low); put32(b + 40, h->total); put32(b + 44, h->off);
}

void dsm__udp_hdr_get(const uint8_t *b, struct hdr *h)
{
  h->magic = get32(b); h->kind = b[4]; h->type = b[5]; h->flags = b[6]; h->hops = b[7];
  h->src = get32(b + 8); h->dst = get32(b + 12); h->origin = get32(b + 16); h->fsz = get32(b + 20);
  h->rid = get64(b + 24); h->low = get64(b + 32); h->total = get32(b + 40); h->off = get32(b + 44);
}

struct hdr dsm__udp_hdr_make(unsigned kind, unsigned type, unsigned flags, unsigned dst,
                             unsigned origin, uint64_t rid)
{
  struct hdr h = { .magic = MAGIC, .kind = (uint8_t)kind, .type = (uint8_t)type,
                   .flags = (uint8_t)flags, .src = U.self, .dst = dst, .origin = origin,
                   .rid = rid };
  return h;
}

void dsm__udp_set_key(const uint8_t key[16])
{
  memcpy(U.key, key, sizeof U.key);
  dsm__nh_key_init(&U.nh_key, key);
}

/* SipHash-2-4 under the job key of the header, then the payload: as it is
 * when shorter than one NH block; else the two NH digests of each whole
 * block, the tail as it is, and the payload length (which fixes where the
 * digests end and the tail begins). Bulk payloads thus cost one multiply
 * per 8 bytes instead of two SipHash rounds. */
uint64_t dsm__udp_mac(const uint8_t *hb, const void *p, size_t n)
{
  return dsm__udp_mac_acks(hb, p, n, NULL, 0);
}

/* Riding ACKs are hashed as they are after all of that: the header's
 * F_ACKS and the count in the last byte say where the payload ends. */
uint64_t dsm__udp_mac_acks(const uint8_t *hb, const void *p, size_t n, const void *t, size_t tn)
{
  dsm__sip_t s;
  dsm__sip_init(&s, U.key);
  dsm__sip_update(&s, hb, HDR_LEN);
  if (n < DSM__NH_BLOCK) {
    dsm__sip_update(&s, p, n);
    if (tn)
      dsm__sip_update(&s, t, tn);
    return dsm__sip_final(&s);
  }
  const uint8_t *b = p;
  size_t whole = n - n % DSM__NH_BLOCK;
  for (size_t off = 0; off < whole; off += DSM__NH_BLOCK) {
    uint64_t d[2];
    uint8_t le[16];
    dsm__nh_block(&U.nh_key, b + off, d);
    put64(le, d[0]);
    put64(le + 8, d[1]);
    dsm__sip_update(&s, le, sizeof le);
  }
  uint8_t len[8];
  dsm__sip_update(&s, b + whole, n - whole);
  put64(len, n);
  dsm__sip_update(&s, len, sizeof len);
  if (tn)
    dsm__sip_update(&s, t, tn);
  return dsm__sip_final(&s);
}

const char *dsm__udp_check(const uint8_t *b, size_t len, struct hdr *h, size_t *tn)
{
  *tn = 0;
  if (len < HDR_LEN + MAC_LEN)
    return "too short";
  dsm__udp_hdr_get(b, h);
  if (h->magic != MAGIC)
    return "bad magic";
  size_t body = len - HDR_LEN - MAC_LEN;
  if (h->flags & F_ACKS) {
    /* Where the riding ACKs begin is read before the MAC vouches for it;
     * a wrong count fails the MAC like any other flipped byte. */
    unsigned k = body ? b[len - MAC_LEN - 1] : 0;
    if ((h->kind != K_REQ && h->kind != K_REP) || k == 0 || k > ACKS_RIDE ||
        body < (size_t)k * ACK_RIDE_LEN + 1)
      return "bad riding ACKs";
    *tn = (size_t)k * ACK_RIDE_LEN + 1;
  }
  if (dsm__udp_mac_acks(b, b + HDR_LEN, body - *tn, b + HDR_LEN + body - *tn, *tn) !=
      get64(b + len - MAC_LEN))
    return "MAC check failed (another job, or corrupt)";
  if (h->kind == 0 || h->kind >= K_END || h->type == DSM__MSG_NONE || h->type >= DSM__MSG_COUNT ||
      h->src >= U.nprocs || h->src == U.self || h->dst != U.self || h->origin >= U.nprocs)
    return "bad header field";
  return NULL;
}

const char *dsm__udp_check_geometry(const struct hdr *h, size_t n)
{
  if (h->kind == K_REQ || h->kind == K_REP) {
    if (h->fsz < FSZ_MIN || h->fsz > FSZ_MAX || h->total > DSM__TP_MAX_MSG || h->off % h->fsz ||
        (h->total ? h->off >= h->total : h->off != 0) ||
        n != (h->total - h->off < h->fsz ? h->total - h->off : h->fsz))
      return "bad fragment geometry";
  }
  if ((h->kind == K_REP || h->kind == K_PENDING) && h->origin != U.self)
    return "reply for another rank";
  return NULL;
}
