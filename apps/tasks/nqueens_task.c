/* nqueens_task.c - the number of ways to place n queens on an n x n board,
 * with OpenMP tasks in the style of BOTS nqueens (written here).
 *
 *   nqueens_task [n] [cutoff]        (defaults: the bench size, 3)
 *
 * Each placement of a queen in the next row is a task: it copies the
 * partial board (one byte per row: the queen's column) into its own
 * alloca()'d array, adds the queen, and if no two queens attack each other
 * it recurses. Each task stores its count in an array that lives in its
 * parent's frame (the parent's VLA csols[]); the parent sums it after
 * taskwait. From row `cutoff` on, the search is sequential in the task.
 *
 * The count is verified against the known sequence (n <= 18), or for a
 * larger n against a sequential bitmask search (a different algorithm).
 * Prints the count, "verify: OK" (exit status 1 and "verify: FAILED"
 * otherwise) and "time: <s>", the time of the search alone. Builds with
 * and without -fopenmp (without, the pragmas are ignored and the clock is
 * clock_gettime). */
#define _POSIX_C_SOURCE 199309L
#include <alloca.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define BENCH_N 13

static double now(void)
{
#ifdef _OPENMP
  return omp_get_wtime();
#else
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
}

/* no two of the queens in rows 0..n-1 attack each other */
static int ok(int n, const char *a)
{
  for (int i = 0; i < n; i++) {
    int p = a[i];
    for (int j = i + 1; j < n; j++) {
      int q = a[j];
      if (q == p || q == p - (j - i) || q == p + (j - i)) return 0;
    }
  }
  return 1;
}

static long nqueens_seq(int n, int j, char *a)
{
  if (n == j) return 1;
  long count = 0;
  for (int i = 0; i < n; i++) {
    a[j] = (char)i;
    if (ok(j + 1, a)) count += nqueens_seq(n, j + 1, a);
  }
  return count;
}

static void nqueens(int n, int j, const char *a, long *solutions, int cutoff)
{
  if (n == j) { *solutions = 1; return; }
  if (j >= cutoff) {
    char *b = alloca(n);
    memcpy(b, a, j);
    *solutions = nqueens_seq(n, j, b);
    return;
  }
  long csols[n];
  memset(csols, 0, sizeof csols);
  for (int i = 0; i < n; i++) {
#pragma omp task firstprivate(i, a, n, j, cutoff) shared(csols)
    {
      char *b = alloca(n);
      memcpy(b, a, j);
      b[j] = (char)i;
      if (ok(j + 1, b)) nqueens(n, j + 1, b, &csols[i], cutoff);
    }
  }
#pragma omp taskwait
  long total = 0;
  for (int i = 0; i < n; i++) total += csols[i];
  *solutions = total;
}

/* the reference for n > 18: rows as bitmasks of free columns */
static long bits_seq(unsigned all, unsigned cols, unsigned d1, unsigned d2)
{
  if (cols == all) return 1;
  long count = 0;
  unsigned free_ = all & ~(cols | d1 | d2);
  while (free_) {
    unsigned bit = free_ & -free_;
    free_ -= bit;
    count += bits_seq(all, cols | bit, ((d1 | bit) << 1) & all, (d2 | bit) >> 1);
  }
  return count;
}

int main(int argc, char **argv)
{
  static const long known[] = { 1, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200,
                                73712, 365596, 2279184, 14772512, 95815104, 666090624 };
  int n = argc > 1 ? atoi(argv[1]) : BENCH_N;
  int cutoff = argc > 2 ? atoi(argv[2]) : 3;
  if (n < 1 || n > 30 || cutoff < 0) {
    fprintf(stderr, "usage: nqueens_task [n (1..30)] [cutoff >= 0]\n");
    return 2;
  }

  long solutions = -1;
  double t0 = now();
#pragma omp parallel
  {
#pragma omp single
    {
      char *a = alloca(n);
      memset(a, 0, n);
      nqueens(n, 0, a, &solutions, cutoff);
    }
  }
  double t1 = now();

  long expect = n <= 18 ? known[n] : bits_seq((1u << n) - 1, 0, 0, 0);
  printf("nqueens_task: n=%d cutoff=%d solutions=%ld (expected %ld)\n", n, cutoff, solutions, expect);
  printf("verify: %s\n", solutions == expect ? "OK" : "FAILED");
  printf("time: %.6f\n", t1 - t0);
  return solutions == expect ? 0 : 1;
}
