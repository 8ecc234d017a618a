/*
 * test_diff_random.c — randomized round trips against a plain byte-array
 * model of multiple writers.
 *
 * Each iteration makes a random twin and up to MAXW writers. Every byte of
 * the page belongs to at most one writer (sparse bytes, cyclic interleaving
 * as in a char array split among threads, or contiguous chunks), so
 * neighbouring bytes of one word often belong to different writers. A writer
 * writes its bytes, sometimes with the value they already had. The model is
 * the twin with every writer's bytes merged in. Each writer's diff is checked
 * against the independent reading of ref.h, and all the diffs applied to a
 * copy of the twin in a random order must give exactly the model.
 *
 * The seed is fixed (DIFF_SEED overrides it) and printed with any failure.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "diff.h"
#include "ref.h"

#define MAXW 6
#define MAXP DSM__DIFF_MAX_PAGE

static unsigned char twin[MAXP], model[MAXP], copy[MAXP];
static unsigned char writer[MAXW][MAXP];
static signed char owner[MAXP];
static unsigned char diffs[MAXW][MAXP * 5 / 2 + 1];
static size_t difflen[MAXW];

static void make_twin(size_t n)
{
  switch (rng_below(4)) {
  case 0:  /* low entropy: rewriting the same value is then common */
    memset(twin, (int)rng_below(3), n);
    break;
  default:
    for (size_t k = 0; k < n; k++)
      twin[k] = (unsigned char)rng_next();
  }
}

static void make_owners(size_t n, int nw)
{
  memset(owner, -1, n);
  switch (rng_below(3)) {
  case 0: {  /* sparse or dense random bytes */
    static const unsigned dens[] = { 1024, 64, 8, 2, 1 };
    unsigned inv = dens[rng_below(5)];
    for (size_t k = 0; k < n; k++)
      if (rng_below(inv) == 0)
        owner[k] = (signed char)rng_below((size_t)nw);
    break;
  }
  case 1: {  /* a char array split cyclically (schedule(static,chunk)) */
    size_t chunk = 1 + rng_below(9);
    size_t from = rng_below(n), to = from + rng_below(n - from + 1);
    for (size_t k = from; k < to; k++)
      owner[k] = (signed char)((k / chunk) % (size_t)nw);
    break;
  }
  default:  /* contiguous chunks of random lengths, some unowned */
    for (size_t k = 0; k < n;) {
      size_t len = 1 + rng_below(40);
      int w = (int)rng_below((size_t)nw + 1) - 1;
      for (size_t j = k; j < k + len && j < n; j++)
        owner[j] = (signed char)w;
      k += len;
    }
  }
}

static void one_iteration(size_t n)
{
  int nw = 1 + (int)rng_below(MAXW);
  make_twin(n);
  make_owners(n, nw);
  memcpy(model, twin, n);
  for (int w = 0; w < nw; w++)
    memcpy(writer[w], twin, n);
  int same_rate = 1 + (int)rng_below(8);
  for (size_t k = 0; k < n; k++) {
    if (owner[k] < 0)
      continue;
    unsigned char v = rng_below((size_t)same_rate) == 0 ? twin[k] : (unsigned char)rng_next();
    writer[(int)owner[k]][k] = v;
    model[k] = v;
  }
  for (int w = 0; w < nw; w++) {
    difflen[w] = dsm__diff_encode(twin, writer[w], n, diffs[w]);
    ASSERT_LE(difflen[w], dsm__diff_max(n));
    long changed = 0;
    for (size_t k = 0; k < n; k++)
      changed += twin[k] != writer[w][k];
    ASSERT_EQ(ref_check_encoding(twin, writer[w], n, diffs[w], difflen[w]), changed);
    ASSERT_EQ(dsm__diff_payload(diffs[w], difflen[w], n), changed);
    ASSERT_EQ(difflen[w] == 0, changed == 0);
  }
  /* a random order of application */
  int order[MAXW];
  for (int w = 0; w < nw; w++)
    order[w] = w;
  for (int w = nw - 1; w > 0; w--) {
    int j = (int)rng_below((size_t)w + 1), t = order[w];
    order[w] = order[j];
    order[j] = t;
  }
  memcpy(copy, twin, n);
  for (int w = 0; w < nw; w++)
    ASSERT_EQ(dsm__diff_apply(copy, n, diffs[order[w]], difflen[order[w]]), 0);
  ASSERT_MEM_EQ(copy, model, n);
  /* applying a diff a second time changes nothing (idempotent) */
  ASSERT_EQ(dsm__diff_apply(copy, n, diffs[order[0]], difflen[order[0]]), 0);
  ASSERT_MEM_EQ(copy, model, n);
}

int main(void)
{
  uint64_t seed = 0x5eed2026u;
  const char *s = getenv("DIFF_SEED");
  if (s && *s)
    seed = strtoull(s, NULL, 0);
  rng_state = seed;
  static const struct { size_t n; int iters; } plan[] = {
    { 8, 3000 }, { 16, 3000 }, { 24, 2000 }, { 64, 2000 },
    { 4096, 3000 }, { 8192, 1500 }, { 65536, 150 },
  };
  long total = 0;
  for (size_t p = 0; p < sizeof plan / sizeof plan[0]; p++) {
    for (int it = 0; it < plan[p].iters; it++) {
      snprintf(check_context, sizeof check_context,
               "DIFF_SEED=0x%llx page_size=%zu iteration=%d",
               (unsigned long long)seed, plan[p].n, it);
      one_iteration(plan[p].n);
      total++;
    }
  }
  printf("test_diff_random: ok, %ld iterations, seed 0x%llx\n", total, (unsigned long long)seed);
  return 0;
}
