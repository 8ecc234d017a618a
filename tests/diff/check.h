/*
 * check.h — assertion macros for the diff tests. They print both operands
 * and the place, never depend on NDEBUG, and stop the test at the first
 * failure (a later failure is usually a consequence of the first).
 */
#ifndef DIFF_TEST_CHECK_H
#define DIFF_TEST_CHECK_H

#include <stdio.h>
#include <stdlib.h>

/* Extra context printed with a failure (e.g. the seed and the iteration). */
static char check_context[256];

#define CHECK_FAIL_(fmt, ...) do {                                             \
    fprintf(stderr, "%s:%d: error: " fmt "\n", __FILE__, __LINE__, __VA_ARGS__); \
    if (check_context[0]) fprintf(stderr, "  context: %s\n", check_context);  \
    CHECK_STOP_();                                                             \
  } while (0)

/* The fuzzer defines CHECK_ABORT so that libFuzzer records a crash. */
#ifdef CHECK_ABORT
#define CHECK_STOP_() abort()
#else
#define CHECK_STOP_() exit(1)
#endif

#define ASSERT_EQ(a, b) do {                                                   \
    long long a_ = (long long)(a), b_ = (long long)(b);                        \
    if (a_ != b_) CHECK_FAIL_("ASSERT_EQ(%s, %s): %lld != %lld", #a, #b, a_, b_); \
  } while (0)

#define ASSERT_LE(a, b) do {                                                   \
    long long a_ = (long long)(a), b_ = (long long)(b);                        \
    if (!(a_ <= b_)) CHECK_FAIL_("ASSERT_LE(%s, %s): %lld > %lld", #a, #b, a_, b_); \
  } while (0)

#define ASSERT_TRUE(c) do {                                                    \
    if (!(c)) CHECK_FAIL_("ASSERT_TRUE(%s) failed", #c);                       \
  } while (0)

/* Compare two byte buffers; on failure print the first differing offset. */
#define ASSERT_MEM_EQ(a, b, n) do {                                            \
    const unsigned char *a_ = (const unsigned char *)(a);                      \
    const unsigned char *b_ = (const unsigned char *)(b);                      \
    size_t n_ = (n);                                                           \
    for (size_t i_ = 0; i_ < n_; i_++)                                         \
      if (a_[i_] != b_[i_])                                                    \
        CHECK_FAIL_("ASSERT_MEM_EQ(%s, %s, %s): byte %zu: 0x%02x != 0x%02x",   \
                    #a, #b, #n, i_, a_[i_], b_[i_]);                           \
  } while (0)

#endif
