/*
 * nh.c — NH over 1 KiB blocks (see nh.h for why).
 *
 * NH_K(M) = sum over i of ((m[2i] + k[2i]) mod 2^32) * ((m[2i+1] + k[2i+1])
 * mod 2^32), mod 2^64, where m are the block's 32-bit words read
 * little-endian. The portable loop below is the definition; on x86-64 the
 * SSE2 form (part of the base instruction set, so no dispatch) computes the
 * same sums two pairs at a time with pmuludq, about twice as fast.
 */
#include <string.h>

#include "mac.h"
#include "nh.h"

#if defined(__SSE2__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#include <emmintrin.h>
#define NH_SSE2 1
#endif

void dsm__nh_key_init(dsm__nh_key_t *nk, const uint8_t key[16])
{
  /* Key for the expansion: the job key with its bytes flipped, a key the
   * MAC itself never runs under. */
  uint8_t sub[16];
  for (int i = 0; i < 16; i++)
    sub[i] = (uint8_t)(key[i] ^ 0xa5);
  for (unsigned i = 0; i < DSM__NH_KEYWORDS; i += 2) {
    uint8_t ctr[16] = "ompdsm-nh-key";
    ctr[14] = (uint8_t)i;
    ctr[15] = (uint8_t)(i >> 8);
    uint64_t v = dsm__siphash(sub, ctr, sizeof ctr);
    nk->k[i] = (uint32_t)v;
    if (i + 1 < DSM__NH_KEYWORDS)
      nk->k[i + 1] = (uint32_t)(v >> 32);
  }
}

#ifdef NH_SSE2
static uint64_t nh_pass(const uint32_t *k, const uint8_t *m)
{
  __m128i sum = _mm_setzero_si128();
  for (unsigned i = 0; i < DSM__NH_BLOCK / 4; i += 4) {
    __m128i t = _mm_add_epi32(_mm_loadu_si128((const __m128i *)(const void *)(m + 4 * i)),
                              _mm_loadu_si128((const __m128i *)(const void *)(k + i)));
    /* Each 64-bit lane holds words 2j (low) and 2j+1 (high): multiply them. */
    sum = _mm_add_epi64(sum, _mm_mul_epu32(t, _mm_srli_epi64(t, 32)));
  }
  uint64_t r[2];
  _mm_storeu_si128((__m128i *)(void *)r, sum);
  return r[0] + r[1];
}
#else
static uint32_t load_le32(const uint8_t *p)
{
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t nh_pass(const uint32_t *k, const uint8_t *m)
{
  uint64_t sum = 0;
  for (unsigned i = 0; i < DSM__NH_BLOCK / 4; i += 2)
    sum += (uint64_t)(uint32_t)(load_le32(m + 4 * i) + k[i]) *
           (uint32_t)(load_le32(m + 4 * i + 4) + k[i + 1]);
  return sum;
}
#endif

void dsm__nh_block(const dsm__nh_key_t *nk, const void *block, uint64_t d[2])
{
  d[0] = nh_pass(nk->k, block);
  d[1] = nh_pass(nk->k + DSM__NH_SHIFT, block);
}
