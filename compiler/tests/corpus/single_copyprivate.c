/* single runs once; copyprivate broadcasts a private value */
#include <stdio.h>
int main(void)
{
  int once = 0, agree = 0;
#pragma omp parallel
  {
    int v = -1;
#pragma omp single copyprivate(v)
    {
      v = 1234;
      once++;
    }
#pragma omp critical
    agree += (v == 1234);
#pragma omp single nowait
    once += 10;
  }
  printf("%d %d\n", once, agree > 0);
  return 0;
}
