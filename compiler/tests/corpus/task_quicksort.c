/* Task-parallel quicksort: median-of-three partition, one task per half
   (firstprivate bounds, the array shared through a pointer), taskwait, and
   a sequential insertion-sort/quicksort below a cut-off. The array is
   malloc'd and filled by a fixed LCG before the parallel region; the task
   tree is generated from single. Verified: sorted, same length, and the
   same order-independent checksum (sum and sum of squares of the values)
   as before sorting, and equal to a qsort() of a copy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 200000
#define CUTOFF 4096

static unsigned lcg_state = 12345u;
static unsigned lcg(void)
{
  lcg_state = lcg_state * 1103515245u + 12345u;
  return lcg_state >> 1;
}

static void insertion(int *a, long lo, long hi)
{
  for (long i = lo + 1; i < hi; i++) {
    int v = a[i];
    long j = i - 1;
    while (j >= lo && a[j] > v) { a[j + 1] = a[j]; j--; }
    a[j + 1] = v;
  }
}

/* partitions a[lo, hi) around a median of three; returns the split point m:
   a[lo, m) <= pivot <= a[m, hi), lo < m < hi */
static long partition(int *a, long lo, long hi)
{
  long mid = lo + (hi - lo) / 2;
  int x = a[lo], y = a[mid], z = a[hi - 1];
  int pivot = x < y ? (y < z ? y : (x < z ? z : x)) : (x < z ? x : (y < z ? z : y));
  long i = lo - 1, j = hi;
  for (;;) {
    do i++; while (a[i] < pivot);
    do j--; while (a[j] > pivot);
    if (i >= j) return j + 1;
    int t = a[i]; a[i] = a[j]; a[j] = t;
  }
}

static void qsort_seq(int *a, long lo, long hi)
{
  while (hi - lo > 32) {
    long m = partition(a, lo, hi);
    if (m - lo < hi - m) { qsort_seq(a, lo, m); lo = m; }
    else { qsort_seq(a, m, hi); hi = m; }
  }
  insertion(a, lo, hi);
}

static void qsort_task(int *a, long lo, long hi)
{
  if (hi - lo <= CUTOFF) { qsort_seq(a, lo, hi); return; }
  long m = partition(a, lo, hi);
#pragma omp task firstprivate(a, lo, m)
  qsort_task(a, lo, m);
#pragma omp task firstprivate(a, m, hi)
  qsort_task(a, m, hi);
#pragma omp taskwait
}

static int cmp_int(const void *p, const void *q)
{
  int x = *(const int *)p, y = *(const int *)q;
  return (x > y) - (x < y);
}

static void checksum(const int *a, long n, unsigned long long *s1, unsigned long long *s2)
{
  *s1 = *s2 = 0;
  for (long i = 0; i < n; i++) {
    *s1 += (unsigned long long)a[i];
    *s2 += (unsigned long long)a[i] * (unsigned long long)a[i];
  }
}

int main(void)
{
  int *a = malloc(N * sizeof *a), *ref = malloc(N * sizeof *ref);
  for (long i = 0; i < N; i++) a[i] = (int)(lcg() % 1000000u);
  /* a run of equal keys and a sorted stretch: the partition's worst spots */
  for (long i = N / 4; i < N / 4 + 3000; i++) a[i] = 4242;
  for (long i = N / 2; i < N / 2 + 5000; i++) a[i] = (int)i;
  memcpy(ref, a, N * sizeof *a);
  unsigned long long b1, b2, e1, e2;
  checksum(a, N, &b1, &b2);

#pragma omp parallel
  {
#pragma omp single
    qsort_task(a, 0, N);
  }

  qsort(ref, N, sizeof *ref, cmp_int);
  checksum(a, N, &e1, &e2);
  long unsorted = 0;
  for (long i = 1; i < N; i++) if (a[i - 1] > a[i]) unsorted++;
  int good = unsorted == 0 && b1 == e1 && b2 == e2 && memcmp(a, ref, N * sizeof *a) == 0;
  printf("n %d min %d median %d max %d\n", N, a[0], a[N / 2], a[N - 1]);
  printf("checksum %llu %llu, out of order %ld\n", e1, e2, unsorted);
  printf("%s\n", good ? "OK" : "FAIL");
  free(a); free(ref);
  return good ? 0 : 1;
}
