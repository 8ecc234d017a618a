/* firstprivate of an array and of a struct: each thread gets a copy */
#include <stdio.h>
struct cfg { int scale; int offset; };
int main(void)
{
  int base[4] = { 1, 2, 3, 4 };
  struct cfg c = { 10, 5 };
  long out[40];
#pragma omp parallel for firstprivate(base, c)
  for (int i = 0; i < 40; i++) {
    base[i % 4] += 0;
    out[i] = base[i % 4] * c.scale + c.offset;
  }
  long s = 0;
  for (int i = 0; i < 40; i++) s += out[i];
  printf("%ld %d\n", s, base[0]);
  return 0;
}
