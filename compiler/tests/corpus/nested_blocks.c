/* shadowing: a name declared inside the region is private; outer one shared */
#include <stdio.h>
int main(void)
{
  int x = 1, total = 0;
#pragma omp parallel
  {
    int x = 100;
    x++;
#pragma omp atomic
    total += x - 101;
  }
  struct { int a, b; } pt = { 3, 4 };
#pragma omp parallel
  {
#pragma omp single
    pt.a += pt.b;
  }
  printf("%d %d %d\n", x, total, pt.a);
  return 0;
}
