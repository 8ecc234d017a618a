/*
 * test_diff_cases.c — hand-picked twin/page pairs whose encoding is known:
 * no change, one byte at the edges of the page and of words, whole words,
 * the whole page, alternating bytes, and a byte rewritten with its old value.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "diff.h"
#include "ref.h"

#define PS 4096

static unsigned char twin[PS], page[PS], out[PS * 3], copy[PS];

/* Encode twin->page, check it against the reference reading, apply it to a
 * copy of the twin and compare with the page. Returns the encoded length. */
static size_t roundtrip(size_t n)
{
  memset(out, 0xEE, sizeof out);
  size_t len = dsm__diff_encode(twin, page, n, out);
  ASSERT_LE(len, dsm__diff_max(n));
  /* nothing written past the returned length */
  for (size_t k = len; k < dsm__diff_max(n); k++)
    ASSERT_EQ(out[k], 0xEE);
  long changed = ref_check_encoding(twin, page, n, out, len);
  ASSERT_EQ(dsm__diff_payload(out, len, n), changed);
  memcpy(copy, twin, n);
  ASSERT_EQ(dsm__diff_apply(copy, n, out, len), 0);
  ASSERT_MEM_EQ(copy, page, n);
  return len;
}

static void reset(void)
{
  for (size_t k = 0; k < PS; k++)
    twin[k] = (unsigned char)(k * 7 + 3);
  memcpy(page, twin, PS);
}

static void test_no_change(void)
{
  reset();
  ASSERT_EQ(roundtrip(PS), 0);
  ASSERT_EQ(dsm__diff_encode(twin, page, 0, out), 0);
  ASSERT_EQ(dsm__diff_payload(out, 0, PS), 0);
  ASSERT_EQ(dsm__diff_apply(copy, PS, out, 0), 0);
}

static void test_single_bytes(void)
{
  /* every offset of the first and last two words and around word and
   * 32-byte block boundaries in the middle */
  static const size_t offs[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 23, 24, 31, 32, 33,
                                 39, 40, 63, 64, 2047, 2048, 4080, 4087, 4088, 4089,
                                 4094, 4095 };
  for (size_t t = 0; t < sizeof offs / sizeof offs[0]; t++) {
    reset();
    snprintf(check_context, sizeof check_context, "single byte at %zu", offs[t]);
    page[offs[t]] ^= 0x5a;
    ASSERT_EQ(roundtrip(PS), 5);
    ASSERT_EQ(out[0] | out[1] << 8, offs[t]);
    ASSERT_EQ(out[2] | out[3] << 8, 0);
    ASSERT_EQ(out[4], page[offs[t]]);
  }
  check_context[0] = 0;
}

static void test_spans(void)
{
  /* runs that start and end inside, on, and across word boundaries */
  static const size_t spans[][2] = { {0, 8}, {0, 9}, {7, 9}, {7, 2}, {8, 8}, {3, 26},
                                     {4, 4}, {1, 6}, {4088, 8}, {4090, 6}, {4087, 9},
                                     {100, 1000}, {0, 33}, {31, 2} };
  for (size_t t = 0; t < sizeof spans / sizeof spans[0]; t++) {
    reset();
    size_t off = spans[t][0], n = spans[t][1];
    snprintf(check_context, sizeof check_context, "span %zu+%zu", off, n);
    for (size_t k = off; k < off + n; k++)
      page[k] = (unsigned char)~twin[k];
    ASSERT_EQ(roundtrip(PS), 4 + n);
    ASSERT_EQ(out[0] | out[1] << 8, off);
    ASSERT_EQ((out[2] | out[3] << 8) + 1, n);
  }
  check_context[0] = 0;
}

static void test_all_bytes(void)
{
  reset();
  for (size_t k = 0; k < PS; k++)
    page[k] = (unsigned char)(twin[k] + 1);
  ASSERT_EQ(roundtrip(PS), 4 + PS);
  ASSERT_EQ(out[0] | out[1] << 8, 0);
  ASSERT_EQ((out[2] | out[3] << 8) + 1, PS);

  /* the largest page: one run whose length field is 0xffff */
  static unsigned char t2[DSM__DIFF_MAX_PAGE], p2[DSM__DIFF_MAX_PAGE], o2[DSM__DIFF_MAX_PAGE * 3];
  memset(t2, 1, sizeof t2);
  memset(p2, 2, sizeof p2);
  size_t len = dsm__diff_encode(t2, p2, sizeof t2, o2);
  ASSERT_EQ(len, 4 + sizeof t2);
  ASSERT_EQ(o2[2], 0xff);
  ASSERT_EQ(o2[3], 0xff);
  ASSERT_EQ(dsm__diff_payload(o2, len, sizeof t2), sizeof t2);
  ASSERT_EQ(dsm__diff_apply(t2, sizeof t2, o2, len), 0);
  ASSERT_MEM_EQ(t2, p2, sizeof t2);
}

static void test_alternating(void)
{
  for (int phase = 0; phase < 2; phase++) {
    reset();
    snprintf(check_context, sizeof check_context, "alternating, phase %d", phase);
    for (size_t k = (size_t)phase; k < PS; k += 2)
      page[k] ^= 0xff;
    /* the worst case of the format: one 5-byte run per changed byte */
    ASSERT_EQ(roundtrip(PS), PS / 2 * 5);
  }
  /* dsm__diff_max is reached, and so is tight: "XX.X.X.X..." */
  reset();
  check_context[0] = 0;
  page[0] ^= 0xff;
  for (size_t k = 1; k < PS; k += 2)
    page[k] ^= 0xff;
  ASSERT_EQ(roundtrip(PS), dsm__diff_max(PS));
  ASSERT_EQ(dsm__diff_max(PS), PS / 2 * 5 + 1);
}

static void test_same_value(void)
{
  reset();
  /* written, but with the value it already had: not a change */
  page[10] = twin[10];
  page[11] = (unsigned char)(twin[11] ^ 1);
  page[12] = twin[12];
  ASSERT_EQ(roundtrip(PS), 5);
  ASSERT_EQ(out[0], 11);

  /* changed and changed back */
  reset();
  page[20] ^= 0x40;
  page[20] ^= 0x40;
  ASSERT_EQ(roundtrip(PS), 0);
}

static void test_neighbours(void)
{
  /* the false-sharing case of the design brief: two writers own
   * neighbouring bytes of one word; each diff carries only its own byte and
   * both orders of application give the merge */
  reset();
  unsigned char a[PS], b[PS], merged[PS];
  memcpy(a, twin, PS);
  memcpy(b, twin, PS);
  memcpy(merged, twin, PS);
  for (size_t k = 0; k < PS; k += 2) {
    a[k] = (unsigned char)(k + 1);       /* even bytes: writer a */
    b[k + 1] = (unsigned char)(k + 2);   /* odd bytes: writer b */
    merged[k] = a[k];
    merged[k + 1] = b[k + 1];
  }
  static unsigned char da[PS * 3], db[PS * 3];
  size_t la = dsm__diff_encode(twin, a, PS, da);
  size_t lb = dsm__diff_encode(twin, b, PS, db);
  ASSERT_EQ(ref_check_encoding(twin, a, PS, da, la), dsm__diff_payload(da, la, PS));
  ASSERT_EQ(ref_check_encoding(twin, b, PS, db, lb), dsm__diff_payload(db, lb, PS));
  memcpy(copy, twin, PS);
  ASSERT_EQ(dsm__diff_apply(copy, PS, da, la), 0);
  ASSERT_EQ(dsm__diff_apply(copy, PS, db, lb), 0);
  ASSERT_MEM_EQ(copy, merged, PS);
  memcpy(copy, twin, PS);
  ASSERT_EQ(dsm__diff_apply(copy, PS, db, lb), 0);
  ASSERT_EQ(dsm__diff_apply(copy, PS, da, la), 0);
  ASSERT_MEM_EQ(copy, merged, PS);
}

static void test_small_pages(void)
{
  /* every subset of changed bytes of a one-word and a two-word page */
  for (size_t n = 8; n <= 16; n += 8) {
    for (uint32_t set = 0; set < (1u << n); set++) {
      reset();
      for (size_t k = 0; k < n; k++)
        if (set >> k & 1)
          page[k] = (unsigned char)(twin[k] + 1 + k);
      snprintf(check_context, sizeof check_context, "page %zu set 0x%x", n, set);
      roundtrip(n);
    }
  }
  check_context[0] = 0;
}

static void test_unaligned_buffers(void)
{
  /* the encoder loads words with memcpy: any alignment works */
  static unsigned char tb[PS + 16], pb[PS + 16];
  for (size_t k = 0; k < PS + 16; k++)
    tb[k] = pb[k] = (unsigned char)(k * 13);
  unsigned char *t = tb + 3, *p = pb + 5;
  memcpy(p, t, PS);
  p[0] ^= 1; p[9] ^= 1; p[10] ^= 1; p[4095] ^= 1;
  size_t len = dsm__diff_encode(t, p, PS, out);
  ASSERT_EQ(ref_check_encoding(t, p, PS, out, len), 4);
  ASSERT_EQ(len, 3 * 4 + 4);
}

int main(void)
{
  test_no_change();
  test_single_bytes();
  test_spans();
  test_all_bytes();
  test_alternating();
  test_same_value();
  test_neighbours();
  test_small_pages();
  test_unaligned_buffers();
  printf("test_diff_cases: ok\n");
  return 0;
}
