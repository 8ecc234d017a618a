/* a critical section inside a function called from a worksharing loop */
#include <stdio.h>
static double total;
static void add(double v)
{
#pragma omp critical(acc)
  total += v;
}
int main(void)
{
#pragma omp parallel for schedule(guided)
  for (int i = 0; i < 400; i++) add(i * 0.25);
  printf("%.2f\n", total);
  return 0;
}
