/* numerical integration of pi with a reduction */
#include <stdio.h>
int main(void)
{
  long steps = 200000;
  double step = 1.0 / steps, sum = 0.0;
#pragma omp parallel for reduction(+:sum)
  for (long i = 0; i < steps; i++) {
    double x = (i + 0.5) * step;
    sum += 4.0 / (1.0 + x * x);
  }
  printf("%.6f\n", sum * step);
  return 0;
}
