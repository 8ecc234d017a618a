/* Task-parallel mergesort in the style of BOTS sort: sort the two halves
   in tasks (each with its half of the scratch buffer), taskwait, then merge
   into the scratch buffer and copy back. Below a cut-off the sort is
   sequential (insertion sort for short runs, sequential mergesort above).
   The array and the scratch buffer are malloc'd, filled by a fixed LCG;
   the tasks are generated from single. Verified: sorted, and the same
   order-independent checksum (sum, sum of squares) as before, and equal
   to a sequential sort of a copy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 200000
#define CUTOFF 4096

static unsigned long long lcg_state = 2463534242ULL;
static int lcg(void)
{
  lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (int)(lcg_state >> 40) - (1 << 23);   /* negative values too */
}

static void insertion(int *a, long n)
{
  for (long i = 1; i < n; i++) {
    int v = a[i];
    long j = i - 1;
    while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; }
    a[j + 1] = v;
  }
}

/* merges sorted a[0,m) and a[m,n) into tmp[0,n), then back into a */
static void merge(int *a, long m, long n, int *tmp)
{
  long i = 0, j = m, k = 0;
  while (i < m && j < n) tmp[k++] = a[j] < a[i] ? a[j++] : a[i++];
  while (i < m) tmp[k++] = a[i++];
  while (j < n) tmp[k++] = a[j++];
  memcpy(a, tmp, n * sizeof *a);
}

static void msort_seq(int *a, long n, int *tmp)
{
  if (n <= 24) { insertion(a, n); return; }
  long m = n / 2;
  msort_seq(a, m, tmp);
  msort_seq(a + m, n - m, tmp + m);
  merge(a, m, n, tmp);
}

static void msort_task(int *a, long n, int *tmp)
{
  if (n <= CUTOFF) { msort_seq(a, n, tmp); return; }
  long m = n / 2;
#pragma omp task firstprivate(a, m, tmp)
  msort_task(a, m, tmp);
#pragma omp task firstprivate(a, m, n, tmp)
  msort_task(a + m, n - m, tmp + m);
#pragma omp taskwait
  merge(a, m, n, tmp);
}

static void checksum(const int *a, long n, long long *s1, unsigned long long *s2)
{
  *s1 = 0; *s2 = 0;
  for (long i = 0; i < n; i++) {
    *s1 += a[i];
    *s2 += (unsigned long long)((long long)a[i] * a[i]);
  }
}

int main(void)
{
  int *a = malloc(N * sizeof *a), *tmp = malloc(N * sizeof *tmp);
  int *ref = malloc(N * sizeof *ref), *rtmp = malloc(N * sizeof *rtmp);
  for (long i = 0; i < N; i++) a[i] = lcg();
  for (long i = N - 2000; i < N; i++) a[i] = (int)(N - i);   /* a descending tail */
  memcpy(ref, a, N * sizeof *a);
  long long b1, e1;
  unsigned long long b2, e2;
  checksum(a, N, &b1, &b2);

#pragma omp parallel
  {
#pragma omp single
    msort_task(a, N, tmp);
  }

  msort_seq(ref, N, rtmp);
  checksum(a, N, &e1, &e2);
  long unsorted = 0;
  for (long i = 1; i < N; i++) if (a[i - 1] > a[i]) unsorted++;
  int good = unsorted == 0 && b1 == e1 && b2 == e2 && memcmp(a, ref, N * sizeof *a) == 0;
  printf("n %d min %d median %d max %d\n", N, a[0], a[N / 2], a[N - 1]);
  printf("checksum %lld %llu, out of order %ld\n", e1, e2, unsorted);
  printf("%s\n", good ? "OK" : "FAIL");
  free(a); free(tmp); free(ref); free(rtmp);
  return good ? 0 : 1;
}
