/* OpenMP 4.5/5.x syntax in programs written for newer compilers (issue 14,
   class 11): atomic with memory orders and hints in either order, flush
   with a memory order, critical with a hint, if with a directive-name
   modifier, and the constructs a host may run serially (simd, declare
   simd, target without a device, teams, distribute) or as worksharing
   (loop, for simd). */
#include <stdio.h>

#pragma omp declare simd
static double sq(double x) { return x * x; }

#pragma omp declare target
static int bump(int x) { return x + 1; }
#pragma omp end declare target

int main(void)
{
  long hits = 0, seq = 0, tally = 0;
  double a[256], b[256], dot = 0;
  int i, last = -1;
  for (i = 0; i < 256; i++) a[i] = i * 0.5;
#pragma omp parallel if(parallel: 1)
  {
#pragma omp atomic update seq_cst
    hits += 1;
#pragma omp atomic seq_cst
    hits += 1;
#pragma omp atomic relaxed update
    hits += 1;
#pragma omp atomic acq_rel, hint(0)
    seq += 2;
#pragma omp flush acquire
#pragma omp critical (tally) hint(0)
    tally += 1;
#pragma omp flush release
#pragma omp for simd reduction(+:dot)
    for (i = 0; i < 256; i++) dot += sq(a[i]);
    double t = 0;
    int k; /* the thread's own: simd's copy-out of a shared i would race */
#pragma omp simd reduction(+:t) private(last)
    for (k = 0; k < 8; k++) { last = k; t += a[k]; }
#pragma omp loop
    for (int j = 0; j < 256; j++) b[j] = a[j] + 1;
  }
  int nthreads = 1;
#pragma omp parallel
  {
#pragma omp single
    nthreads = 0;
#pragma omp atomic
    nthreads += 1;
  }
#pragma omp target map(tofrom: a[0:256])
  {
#pragma omp teams distribute
    for (i = 0; i < 256; i++) a[i] = bump((int)a[i]);
  }
#pragma omp target teams distribute parallel for simd map(to: a) map(from: b)
  for (i = 0; i < 256; i++) b[i] = a[i] * 2;
  double s = 0;
#pragma omp simd linear(i:1)
  for (i = 0; i < 256; i++) s += b[i];
  printf("%d %d %.1f %.1f %d %d\n", hits == 3L * nthreads, seq + tally == 3L * nthreads, dot, s, i, last);
  return 0;
}
