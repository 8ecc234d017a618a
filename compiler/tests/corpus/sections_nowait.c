/* sections nowait followed by a barrier and a loop using their results */
#include <stdio.h>
int x[3], y[100];
int main(void)
{
#pragma omp parallel
  {
#pragma omp sections nowait
    {
#pragma omp section
      x[0] = 1;
#pragma omp section
      x[1] = 2;
#pragma omp section
      x[2] = 3;
    }
#pragma omp barrier
#pragma omp for
    for (int i = 0; i < 100; i++) y[i] = x[i % 3] * i;
  }
  long s = 0;
  for (int i = 0; i < 100; i++) s += y[i];
  printf("%ld\n", s);
  return 0;
}
