/* Parameters of array and function type are adjusted (C11 6.7.6.3p7-8):
   "int a[]" is an int *, "double c[4]" a double *, "int m[][4]" an
   int (*)[4], "int g(int)" a pointer to function. A region that uses them
   must see the adjusted types (issue 14, class 1). */
#include <stdio.h>

static int twice(int x) { return 2 * x; }

static void fill(int n, int a[])
{
  int i;
#pragma omp parallel for
  for (i = 0; i < n; i++)
    a[n + i] = a[i] + 1;
}

static double weigh(int n, const double w[], double c[4], int m[][4], int g(int))
{
  double s = 0;
  int i;
#pragma omp parallel for reduction(+:s)
  for (i = 0; i < n; i++)
    s += w[i] * c[i % 4] + m[i % 3][i % 4] + g(i);
  return s;
}

static void scale(int n, double v[static 8], const double k)
{
#pragma omp parallel
  {
#pragma omp for
    for (int i = 0; i < n; i++)
      v[i] *= k;
  }
}

int main(void)
{
  int a[64];
  double w[40], c[4] = { 0.5, 1.5, 2.5, 3.5 }, v[8];
  int m[3][4];
  for (int i = 0; i < 32; i++) a[i] = i * i;
  fill(32, a);
  long sum = 0;
  for (int i = 0; i < 64; i++) sum += a[i] * (i + 1);
  printf("fill %ld\n", sum);
  for (int i = 0; i < 40; i++) w[i] = i * 0.25;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++) m[i][j] = i * 4 + j;
  printf("weigh %.3f\n", weigh(40, w, c, m, twice));
  for (int i = 0; i < 8; i++) v[i] = i;
  scale(8, v, 1.5);
  printf("scale %.2f %.2f\n", v[1], v[7]);
  return 0;
}
