/* omp for, default static schedule, writes a shared array */
#include <stdio.h>
#define N 1000
int a[N];
int main(void)
{
  int i;
#pragma omp parallel for
  for (i = 0; i < N; i++)
    a[i] = i * i;
  long s = 0;
  for (i = 0; i < N; i++) s += a[i];
  printf("sum %ld\n", s);
  return 0;
}
