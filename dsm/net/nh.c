/*
 * nh.c — NH over 1 KiB blocks (see nh.h for why).
 *
 * NH_K(M) = sum over i of ((m[2i] + k[2i]) mod 2^32) * ((m[2i+1] + k[2i+1])
 * mod 2^32), mod 2^64, where m are the block's 32-bit words read
 * little-endian. The portable loop below is the definition; on x86-64 the
 * SSE2 form (part of the base instruction set) computes the same sums two
 * pairs at a time with pmuludq, and the AVX2 form four, chosen at the first
 * call when the CPU has AVX2 (about 1.8 times the SSE2 speed here).
 */
#include <string.h>

#include "mac.h"
#include "nh.h"

#if defined(__SSE2__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#include <emmintrin.h>
#define NH_SSE2 1
#endif
#if defined(__x86_64__) && defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#include <immintrin.h>
#define NH_AVX2 1
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

/* The portable form: the definition. */
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

static void nh_c(const uint32_t *k, const uint8_t *m, uint64_t d[2])
{
  d[0] = nh_pass(k, m);
  d[1] = nh_pass(k + DSM__NH_SHIFT, m);
}

#ifdef NH_SSE2
/* Both passes in one loop, so each 16 bytes of the block are loaded once:
 * lane j of t0 holds word i+j plus key word i+j, of t1 the same word plus
 * key word i+j+4; each 64-bit lane then multiplies its words 2j and 2j+1. */
static void nh_sse2(const uint32_t *k, const uint8_t *m, uint64_t d[2])
{
  __m128i s0 = _mm_setzero_si128(), s1 = _mm_setzero_si128();
  for (unsigned i = 0; i < DSM__NH_BLOCK / 4; i += 4) {
    __m128i w = _mm_loadu_si128((const __m128i *)(const void *)(m + 4 * i));
    __m128i t0 = _mm_add_epi32(w, _mm_loadu_si128((const __m128i *)(const void *)(k + i)));
    __m128i t1 = _mm_add_epi32(
        w, _mm_loadu_si128((const __m128i *)(const void *)(k + i + DSM__NH_SHIFT)));
    s0 = _mm_add_epi64(s0, _mm_mul_epu32(t0, _mm_srli_epi64(t0, 32)));
    s1 = _mm_add_epi64(s1, _mm_mul_epu32(t1, _mm_srli_epi64(t1, 32)));
  }
  uint64_t r[4];
  _mm_storeu_si128((__m128i *)(void *)r, s0);
  _mm_storeu_si128((__m128i *)(void *)(r + 2), s1);
  d[0] = r[0] + r[1];
  d[1] = r[2] + r[3];
}
#endif

#ifdef NH_AVX2
/* The same, eight words at a time: NH over fft3d's 1.5 GB was 3.5% of its
 * CPU with SSE2, two passes, at the sender and again at the receiver. */
__attribute__((target("avx2"))) static void nh_avx2(const uint32_t *k, const uint8_t *m,
                                                     uint64_t d[2])
{
  __m256i s0 = _mm256_setzero_si256(), s1 = _mm256_setzero_si256();
  for (unsigned i = 0; i < DSM__NH_BLOCK / 4; i += 8) {
    __m256i w = _mm256_loadu_si256((const __m256i *)(const void *)(m + 4 * i));
    __m256i t0 = _mm256_add_epi32(w, _mm256_loadu_si256((const __m256i *)(const void *)(k + i)));
    __m256i t1 = _mm256_add_epi32(
        w, _mm256_loadu_si256((const __m256i *)(const void *)(k + i + DSM__NH_SHIFT)));
    s0 = _mm256_add_epi64(s0, _mm256_mul_epu32(t0, _mm256_srli_epi64(t0, 32)));
    s1 = _mm256_add_epi64(s1, _mm256_mul_epu32(t1, _mm256_srli_epi64(t1, 32)));
  }
  uint64_t r[8];
  _mm256_storeu_si256((__m256i *)(void *)r, s0);
  _mm256_storeu_si256((__m256i *)(void *)(r + 4), s1);
  d[0] = r[0] + r[1] + r[2] + r[3];
  d[1] = r[4] + r[5] + r[6] + r[7];
}
#endif

typedef void nh_fn(const uint32_t *k, const uint8_t *m, uint64_t d[2]);

static nh_fn *best(void)
{
#ifdef NH_AVX2
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2"))
    return nh_avx2;
#endif
#ifdef NH_SSE2
  return nh_sse2;
#else
  return nh_c;
#endif
}

/* Chosen once; a race between two first callers picks the same function. */
static nh_fn *nh_impl;

int dsm__nh_use(const char *name)
{
  if (!name) {
    nh_impl = best();
    return 0;
  }
  if (!strcmp(name, "c")) {
    nh_impl = nh_c;
    return 0;
  }
#ifdef NH_SSE2
  if (!strcmp(name, "sse2")) {
    nh_impl = nh_sse2;
    return 0;
  }
#endif
#ifdef NH_AVX2
  __builtin_cpu_init();
  if (!strcmp(name, "avx2") && __builtin_cpu_supports("avx2")) {
    nh_impl = nh_avx2;
    return 0;
  }
#endif
  return -1;
}

void dsm__nh_block(const dsm__nh_key_t *nk, const void *block, uint64_t d[2])
{
  nh_fn *f = __atomic_load_n(&nh_impl, __ATOMIC_RELAXED);
  if (!f) {
    f = best();
    __atomic_store_n(&nh_impl, f, __ATOMIC_RELAXED);
  }
  f(nk->k, block, d);
}
