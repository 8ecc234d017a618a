/* sections: each runs exactly once */
#include <stdio.h>
int main(void)
{
  int r[4] = {0, 0, 0, 0};
#pragma omp parallel
  {
#pragma omp sections
    {
      r[0] += 1;
#pragma omp section
      r[1] += 10;
#pragma omp section
      { r[2] += 100; }
#pragma omp section
      r[3] += 1000;
    }
  }
  printf("%d %d %d %d\n", r[0], r[1], r[2], r[3]);
  return 0;
}
