/* the same variable firstprivate and lastprivate */
#include <stdio.h>
int main(void)
{
  int x = 10;
#pragma omp parallel for firstprivate(x) lastprivate(x)
  for (int i = 0; i < 20; i++) x += i;
  printf("%d\n", x >= 29);
  return 0;
}
