/* reductions: + * - min max & | ^ && || on several types */
#include <stdio.h>
int main(void)
{
  int n = 100;
  long sum = 0; double prod = 1.0; int sub = 0;
  int mn = 1 << 30, mx = -(1 << 30);
  unsigned band = ~0u, bor = 0, bxor = 0;
  int land = 1, lor = 0;
  float fs = 0.0f;
#pragma omp parallel for reduction(+:sum,fs) reduction(*:prod) reduction(-:sub) reduction(min:mn) reduction(max:mx)
  for (int i = 1; i <= n; i++) {
    sum += i; fs += 0.5f; prod *= (i % 10 == 0) ? 2.0 : 1.0; sub -= i;
    int v = (i * 37) % 101;
    if (v < mn) mn = v;
    if (v > mx) mx = v;
  }
#pragma omp parallel for reduction(&:band) reduction(|:bor) reduction(^:bxor) reduction(&&:land) reduction(||:lor)
  for (int i = 0; i < 32; i++) {
    band &= ~(1u << (i % 5)); bor |= 1u << i; bxor ^= (unsigned)i * 3u;
    land = land && (i < 40); lor = lor || (i == 17);
  }
  printf("%ld %.1f %.0f %d %d %d %x %x %x %d %d\n", sum, fs, prod, sub, mn, mx, band, bor, bxor, land, lor);
  return 0;
}
