/* Macros inside "#pragma omp" lines are replaced, as OpenMP requires:
 * clause arguments (num_threads, schedule chunk, if, reduction list items
 * through an object-like macro, final) and a whole clause from a macro.
 * Output does not depend on the thread count. */
#include <stdio.h>

#define NT 2
#define CHUNK 3
#define N 100
#define USE_PAR 1
#define SUMVAR total
#define CUTOFF 2
#define SCHED schedule(dynamic, CHUNK)

static int depth_sum(int d)
{
  int a = 0, b = 0;
  if (d == 0) return 1;
#pragma omp task shared(a) final(d <= CUTOFF)
  a = depth_sum(d - 1);
#pragma omp task shared(b) final(d <= CUTOFF)
  b = depth_sum(d - 1);
#pragma omp taskwait
  return a + b;
}

int main(void)
{
  int v[N];
  long total = 0;
  for (int i = 0; i < N; i++) v[i] = i * 3 + 1;
#pragma omp parallel for num_threads(NT) schedule(static, CHUNK) reduction(+:SUMVAR) if(USE_PAR)
  for (int i = 0; i < N; i++) total += v[i];
  long total2 = 0;
#pragma omp parallel for SCHED reduction(+:total2)
  for (int i = 0; i < N; i++) total2 += v[i] * 2;
  int leaves = 0;
#pragma omp parallel
#pragma omp single
  leaves = depth_sum(6);
  printf("total %ld total2 %ld leaves %d\n", total, total2, leaves);
  return total == 14950 && total2 == 29900 && leaves == 64 ? 0 : 1;
}
