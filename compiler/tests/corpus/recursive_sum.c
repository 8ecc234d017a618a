/* a recursive function that opens parallel regions (nested ones serialize)
   with no prototype before its definition */
#include <stdio.h>
static long rsum(const int *v, int n)
{
  if (n < 64) { long s = 0; for (int i = 0; i < n; i++) s += v[i]; return s; }
  long a = 0, b = 0;
#pragma omp parallel sections
  {
#pragma omp section
    a = rsum(v, n / 2);
#pragma omp section
    b = rsum(v + n / 2, n - n / 2);
  }
  return a + b;
}
int main(void)
{
  static int data[1000];
  for (int i = 0; i < 1000; i++) data[i] = i % 13;
  printf("%ld\n", rsum(data, 1000));
  return 0;
}
