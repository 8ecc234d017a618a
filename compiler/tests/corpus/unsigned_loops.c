/* unsigned and long long loop variables, large strides */
#include <stdio.h>
int main(void)
{
  unsigned long long acc = 0;
  unsigned n = 1000;
#pragma omp parallel for reduction(+:acc)
  for (unsigned i = 0; i < n; i += 3) acc += i;
  long long big = 0;
#pragma omp parallel for reduction(+:big)
  for (long long k = 5000000000LL; k < 5000001000LL; k++) big += k & 7;
  printf("%llu %lld\n", acc, big);
  return 0;
}
