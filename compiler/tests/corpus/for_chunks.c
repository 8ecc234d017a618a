/* every schedule kind, with and without chunk, on local arrays */
#include <stdio.h>
#define N 517
int main(void)
{
  int a[N], b[N], c[N], d[N], e[N];
#pragma omp parallel
  {
#pragma omp for schedule(static, 7)
    for (int i = 0; i < N; i++) a[i] = i + 1;
#pragma omp for schedule(dynamic)
    for (int i = 0; i < N; i++) b[i] = 2 * i;
#pragma omp for schedule(dynamic, 13)
    for (int i = 0; i < N; i++) c[i] = 3 * i;
#pragma omp for schedule(guided, 5)
    for (int i = 0; i < N; i++) d[i] = 4 * i;
#pragma omp for schedule(runtime)
    for (int i = 0; i < N; i++) e[i] = 5 * i;
  }
  long s = 0;
  for (int i = 0; i < N; i++) s += a[i] + b[i] + c[i] + d[i] + e[i];
  printf("%ld\n", s);
  return 0;
}
