/* default(private) and default(firstprivate) (accepted as in the seed) */
#include <stdio.h>
int main(void)
{
  int a = 3, b = 4, res = 0;
#pragma omp parallel default(firstprivate) shared(res)
  {
    a += 1;
#pragma omp atomic
    res += a * b;
  }
#pragma omp parallel default(private) shared(res, b)
  {
    int t = b;
#pragma omp single
    res += t;
  }
  printf("%d %d\n", res > 4 && (res - 4) % 16 == 0, a);
  return 0;
}
