/* reductions on char, short, unsigned long long, long double, _Bool */
#include <stdio.h>
#include <stdbool.h>
int main(void)
{
  signed char c = 0; short s = 0; unsigned long long u = 0; long double ld = 0; bool any = false;
  unsigned char uc = 255;
#pragma omp parallel for reduction(+:c,s,u,ld) reduction(||:any) reduction(min:uc)
  for (int i = 0; i < 100; i++) {
    c += (i % 2); s += i; u += (unsigned long long)i << 33; ld += 0.5L; any = any || i == 50;
    if ((unsigned char)(i + 7) < uc) uc = (unsigned char)(i + 7);
  }
  printf("%d %d %llu %.1Lf %d %d\n", c, s, u, ld, any, uc);
  return 0;
}
