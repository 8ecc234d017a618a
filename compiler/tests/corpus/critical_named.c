/* named critical sections protecting different data */
#include <stdio.h>
int a, b;
int main(void)
{
#pragma omp parallel for
  for (int i = 0; i < 200; i++) {
#pragma omp critical(ca)
    a += i;
#pragma omp critical(cb)
    { b += 2 * i; }
  }
  printf("%d %d\n", a, b);
  return 0;
}
