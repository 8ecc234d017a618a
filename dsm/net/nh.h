/*
 * nh.h — NH, the keyed universal hash that lets the datagram MAC run over
 * bulk payloads at memory speed.
 *
 * SipHash-2-4 over every payload byte cost fft3d 15% of its CPU (it moves
 * 1.5 GB at bench size, hashed once by the sender and once by the receiver).
 * NH (Black et al., UMAC, 1999) compresses a 1 KiB block to 64 bits with one
 * 32x32->64 multiply per 8 bytes; two passes under key words shifted by four
 * (the Toeplitz construction) make two different blocks collide with
 * probability at most 2^-64 for a key nobody has seen. The transport feeds
 * the digests, not the bytes, to SipHash (transport_udp_wire.c), so the tag
 * is still a pseudo-random function of header and payload under the job key.
 */
#ifndef DSM_NH_H
#define DSM_NH_H

#include <stdint.h>

#define DSM__NH_BLOCK 1024u                          /* bytes per compressed block */
#define DSM__NH_SHIFT 4u                             /* Toeplitz shift, in key words */
#define DSM__NH_KEYWORDS (DSM__NH_BLOCK / 4u + DSM__NH_SHIFT)

typedef struct dsm__nh_key {
  uint32_t k[DSM__NH_KEYWORDS];
} dsm__nh_key_t;

/* Expands the 128-bit job key into NH key words (SipHash in counter mode,
 * under a key derived apart from the MAC's own so the two never share
 * outputs). */
void dsm__nh_key_init(dsm__nh_key_t *nk, const uint8_t key[16]);

/* The two NH digests of one DSM__NH_BLOCK-byte block (any alignment):
 * d[0] under key words 0..255, d[1] under words 4..259. */
void dsm__nh_block(const dsm__nh_key_t *nk, const void *block, uint64_t d[2]);

/* Tests: compute with "c" (the definition), "sse2" or "avx2" from now on;
 * NULL goes back to the best the CPU has. -1 if that form is not built or
 * the CPU lacks it. */
int dsm__nh_use(const char *name);

#endif
