/* sort_task.c - mergesort of n ints with OpenMP tasks, in the style of
 * BOTS sort / cilksort (written here).
 *
 *   sort_task [n] [sort_cutoff] [merge_cutoff]
 *       (defaults: the bench size, 65536, 65536)
 *
 * sort(a, tmp, n) splits a into quarters and sorts each in a task (with the
 * matching quarter of tmp as scratch), then merges quarters 1+2 and 3+4
 * into the two halves of tmp (two tasks) and tmp's halves back into a. A
 * merge is itself parallel: the longer input is split at its middle, the
 * other at the same key by binary search, and the two pairs are merged in
 * two tasks. Below sort_cutoff elements a quarter is sorted sequentially
 * (quicksort, insertion sort below 20); below merge_cutoff a merge is
 * sequential.
 *
 * The input comes from a fixed LCG. Verified: the output is sorted and has
 * the same multiset checksums (sum, sum of squares, sum of a hash of each
 * value) as the input. Prints "verify: OK" (exit status 1 and "verify:
 * FAILED" otherwise) and "time: <s>", the time of the sort alone, after
 * "stages: sort <s> half <s> final <s>": the top level's four quarter
 * sorts, its two half merges, and its final merge (where each stage's time
 * goes is the first thing to know about a slow run). Builds with and
 * without -fopenmp. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define BENCH_N 25000000L

typedef int ELM;

static long sort_cutoff = 65536, merge_cutoff = 65536;
/* The top level's size, and when its stages ended (see the top). */
static long top_n;
static double t_sorted, t_halves;

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

static void insertion(ELM *a, long n)
{
  for (long i = 1; i < n; i++) {
    ELM v = a[i];
    long j = i - 1;
    while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; }
    a[j + 1] = v;
  }
}

static ELM median3(ELM x, ELM y, ELM z)
{
  if (x < y) return y < z ? y : (x < z ? z : x);
  return x < z ? x : (y < z ? z : y);
}

static void quick_seq(ELM *a, long n)
{
  while (n > 20) {
    ELM pivot = median3(a[0], a[n / 2], a[n - 1]);
    long i = -1, j = n;
    for (;;) {
      do i++; while (a[i] < pivot);
      do j--; while (a[j] > pivot);
      if (i >= j) break;
      ELM t = a[i]; a[i] = a[j]; a[j] = t;
    }
    long m = j + 1;                     /* a[0,m) <= pivot <= a[m,n) */
    if (m < n - m) { quick_seq(a, m); a += m; n -= m; }
    else { quick_seq(a + m, n - m); n = m; }
  }
  insertion(a, n);
}

static void merge_seq(const ELM *x, long nx, const ELM *y, long ny, ELM *out)
{
  long i = 0, j = 0, k = 0;
  while (i < nx && j < ny) out[k++] = y[j] < x[i] ? y[j++] : x[i++];
  while (i < nx) out[k++] = x[i++];
  while (j < ny) out[k++] = y[j++];
}

/* the first index in y[0,ny) whose element is >= key */
static long lower_bound(const ELM *y, long ny, ELM key)
{
  long lo = 0, hi = ny;
  while (lo < hi) {
    long mid = lo + (hi - lo) / 2;
    if (y[mid] < key) lo = mid + 1; else hi = mid;
  }
  return lo;
}

static void merge_task(const ELM *x, long nx, const ELM *y, long ny, ELM *out)
{
  if (nx < ny) { const ELM *t = x; x = y; y = t; long tn = nx; nx = ny; ny = tn; }
  if (nx + ny <= merge_cutoff || ny == 0) { merge_seq(x, nx, y, ny, out); return; }
  long mx = nx / 2;
  long my = lower_bound(y, ny, x[mx]);
#pragma omp task firstprivate(x, mx, y, my, out)
  merge_task(x, mx, y, my, out);
#pragma omp task firstprivate(x, mx, nx, y, my, ny, out)
  merge_task(x + mx, nx - mx, y + my, ny - my, out + mx + my);
#pragma omp taskwait
}

static void sort_task(ELM *a, ELM *tmp, long n)
{
  if (n <= sort_cutoff || n < 4) { quick_seq(a, n); return; }
  long q = n / 4;
  ELM *a1 = a, *a2 = a + q, *a3 = a + 2 * q, *a4 = a + 3 * q;
  ELM *t1 = tmp, *t2 = tmp + q, *t3 = tmp + 2 * q, *t4 = tmp + 3 * q;
  long n4 = n - 3 * q;
#pragma omp task firstprivate(a1, t1, q)
  sort_task(a1, t1, q);
#pragma omp task firstprivate(a2, t2, q)
  sort_task(a2, t2, q);
#pragma omp task firstprivate(a3, t3, q)
  sort_task(a3, t3, q);
#pragma omp task firstprivate(a4, t4, n4)
  sort_task(a4, t4, n4);
#pragma omp taskwait
  if (n == top_n) t_sorted = now();
#pragma omp task firstprivate(a1, a2, t1, q)
  merge_task(a1, q, a2, q, t1);
#pragma omp task firstprivate(a3, a4, t3, q, n4)
  merge_task(a3, q, a4, n4, t3);
#pragma omp taskwait
  if (n == top_n) t_halves = now();
  merge_task(t1, 2 * q, t3, q + n4, a);
}

struct sums { unsigned long long s1, s2, h; };

static struct sums checksums(const ELM *a, long n)
{
  struct sums s = { 0, 0, 0 };
  for (long i = 0; i < n; i++) {
    unsigned long long v = (unsigned long long)(unsigned)a[i];
    s.s1 += v;
    s.s2 += v * v;
    s.h += (v * 0x9E3779B97F4A7C15ULL) ^ (v >> 7);
  }
  return s;
}

int main(int argc, char **argv)
{
  long n = argc > 1 ? atol(argv[1]) : BENCH_N;
  if (argc > 2) sort_cutoff = atol(argv[2]);
  if (argc > 3) merge_cutoff = atol(argv[3]);
  if (n < 1 || sort_cutoff < 1 || merge_cutoff < 1) {
    fprintf(stderr, "usage: sort_task [n >= 1] [sort_cutoff >= 1] [merge_cutoff >= 1]\n");
    return 2;
  }
  ELM *a = malloc(n * sizeof *a), *tmp = malloc(n * sizeof *tmp);
  if (!a || !tmp) { fprintf(stderr, "sort_task: out of memory for n=%ld\n", n); return 2; }
  unsigned long long s = 20240601ULL;
  for (long i = 0; i < n; i++) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    a[i] = (ELM)(s >> 33) - (1 << 30);
  }
  memset(tmp, 0, n * sizeof *tmp);        /* its pages exist before the clock starts */
  struct sums before = checksums(a, n);

  top_n = n;
  double t0 = now();
#pragma omp parallel
  {
#pragma omp single
    sort_task(a, tmp, n);
  }
  double t1 = now();

  struct sums after = checksums(a, n);
  long unsorted = 0;
  for (long i = 1; i < n; i++) unsorted += a[i - 1] > a[i];
  int good = unsorted == 0 && before.s1 == after.s1 && before.s2 == after.s2 && before.h == after.h;
  printf("sort_task: n=%ld sort_cutoff=%ld merge_cutoff=%ld min=%d median=%d max=%d\n",
         n, sort_cutoff, merge_cutoff, a[0], a[n / 2], a[n - 1]);
  printf("verify: %s\n", good ? "OK" : "FAILED");
  if (t_sorted > 0)
    printf("stages: sort %.3f half %.3f final %.3f\n", t_sorted - t0, t_halves - t_sorted,
           t1 - t_halves);
  printf("time: %.6f\n", t1 - t0);
  free(a); free(tmp);
  return good ? 0 : 1;
}
