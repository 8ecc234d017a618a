/* for nowait followed by an explicit barrier */
#include <stdio.h>
int a[256], b[256];
int main(void)
{
#pragma omp parallel
  {
#pragma omp for nowait
    for (int i = 0; i < 256; i++) a[i] = i;
#pragma omp for nowait
    for (int i = 0; i < 256; i++) b[i] = 2 * i;
#pragma omp barrier
#pragma omp for
    for (int i = 0; i < 256; i++) a[i] += b[255 - i];
  }
  long s = 0;
  for (int i = 0; i < 256; i++) s += a[i] * (long)(i + 1);
  printf("%ld\n", s);
  return 0;
}
