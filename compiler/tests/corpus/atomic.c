/* atomic updates of a shared counter and of array elements */
#include <stdio.h>
int main(void)
{
  long c = 0; int hist[10] = {0};
#pragma omp parallel for
  for (int i = 0; i < 1000; i++) {
#pragma omp atomic
    c += i;
#pragma omp atomic update
    hist[i % 10]++;
  }
  printf("%ld %d %d\n", c, hist[0], hist[9]);
  return 0;
}
