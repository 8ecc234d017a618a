/*
 * mac.h — SipHash-2-4, the 64-bit MAC every datagram carries.
 *
 * SipHash is a keyed pseudo-random function built for short inputs: fast
 * enough to run over every datagram (about 1-2 GB/s), and with a 128-bit key
 * a forger without the key cannot produce a valid tag. The job key comes from
 * DSM_KEY; see transport_udp.c. The streaming form lets the transport hash a
 * header and a payload that live in different buffers without copying.
 */
#ifndef DSM_MAC_H
#define DSM_MAC_H

#include <stddef.h>
#include <stdint.h>

typedef struct dsm__sip {
  uint64_t v0, v1, v2, v3;
  uint64_t tail;      /* bytes not yet forming a full word, little-endian */
  size_t total;       /* bytes absorbed so far */
} dsm__sip_t;

void     dsm__sip_init(dsm__sip_t *s, const uint8_t key[16]);
void     dsm__sip_update(dsm__sip_t *s, const void *data, size_t len);
uint64_t dsm__sip_final(dsm__sip_t *s);

/* One-shot form. */
uint64_t dsm__siphash(const uint8_t key[16], const void *data, size_t len);

#endif
