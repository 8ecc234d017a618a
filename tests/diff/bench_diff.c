/*
 * bench_diff.c — how long encoding and applying a diff of a 4 KiB page take,
 * next to a memcpy of the same page measured in the same run (what a twin
 * costs, and the floor for anything that reads the whole page).
 *
 *   bench_diff [PAGE_SIZE]     default 4096
 *
 * Each figure is the best of 7 rounds of a few thousand calls, in ns per
 * call; the best round is the one least disturbed by the rest of the machine.
 * Not a test: it checks only that the diffs round-trip, and prints numbers.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "diff.h"

#define ROUNDS 7
#define BARRIER() __asm__ volatile("" ::: "memory")

static uint64_t now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static size_t ps;
static unsigned char *twin, *page, *dst, *out;
static size_t iters;

/* Best-of-ROUNDS ns per call of body. */
#define TIME(var, body) do {                                   \
    double best_ = 1e30;                                       \
    for (int r_ = 0; r_ < ROUNDS; r_++) {                      \
      uint64_t t0_ = now_ns();                                 \
      for (size_t i_ = 0; i_ < iters; i_++) { body; BARRIER(); } \
      double ns_ = (double)(now_ns() - t0_) / (double)iters;   \
      if (ns_ < best_) best_ = ns_;                            \
    }                                                          \
    var = best_;                                               \
  } while (0)

static double memcpy_ns;

static void row(const char *name, void (*mutate)(void))
{
  memcpy(page, twin, ps);
  mutate();
  size_t len = 0;
  double enc_ns, app_ns;
  TIME(enc_ns, len = dsm__diff_encode(twin, page, ps, out));
  /* round trip, so that the numbers are for a correct result */
  memcpy(dst, twin, ps);
  if (dsm__diff_apply(dst, ps, out, len) != 0 || memcmp(dst, page, ps) != 0) {
    fprintf(stderr, "bench_diff: error: %s does not round-trip\n", name);
    exit(1);
  }
  TIME(app_ns, (void)dsm__diff_apply(dst, ps, out, len));
  printf("%-22s %7zu %10.1f %7.2fx %10.1f %7.2fx\n", name, len,
         enc_ns, enc_ns / memcpy_ns, app_ns, app_ns / memcpy_ns);
}

static void m_none(void) {}
static void m_one(void) { page[ps / 2 + 3] ^= 1; }
static void m_few(void) { for (size_t k = 0; k < ps; k += ps / 8) page[k + 5] ^= 1; }
static void m_word_run(void) { for (size_t k = 64; k < 64 + 256; k++) page[k] ^= 1; }
static void m_all(void) { for (size_t k = 0; k < ps; k++) page[k] ^= 0xff; }
static void m_other(void) { for (size_t k = 0; k < ps; k += 2) page[k] ^= 0xff; }

int main(int argc, char **argv)
{
  ps = argc > 1 ? strtoul(argv[1], NULL, 0) : 4096;
  if (ps == 0 || ps % 8 || ps > DSM__DIFF_MAX_PAGE) {
    fprintf(stderr, "bench_diff: error: page size must be a multiple of 8 up to %u\n",
            DSM__DIFF_MAX_PAGE);
    return 2;
  }
  twin = aligned_alloc(4096, ps);
  page = aligned_alloc(4096, ps);
  dst = aligned_alloc(4096, ps);
  out = aligned_alloc(4096, (dsm__diff_max(ps) + 4095) / 4096 * 4096);
  if (!twin || !page || !dst || !out)
    return 1;
  srand(1);
  for (size_t k = 0; k < ps; k++)
    twin[k] = (unsigned char)rand();
  memcpy(dst, twin, ps);
  iters = 2000000 / (ps / 64 + 8);

  TIME(memcpy_ns, memcpy(dst, twin, ps));
  printf("page %zu bytes, %zu calls x best of %d rounds\n", ps, iters, ROUNDS);
  printf("memcpy of the page: %.1f ns (%.2f GB/s)\n\n", memcpy_ns, (double)ps / memcpy_ns);
  printf("%-22s %7s %10s %8s %10s %8s\n", "case", "diff B", "encode ns", "/memcpy",
         "apply ns", "/memcpy");
  row("no change", m_none);
  row("1 byte", m_one);
  row("8 scattered bytes", m_few);
  row("256-byte run", m_word_run);
  row("every byte", m_all);
  row("every other byte", m_other);
  free(twin); free(page); free(dst); free(out);
  return 0;
}
