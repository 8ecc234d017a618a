/* K&R definitions and implicit int (issue 14, class 4), as old benchmark
   codes write them. */
#include <stdio.h>

static double data[100];

static sum_range(lo, hi, v)
int lo, hi;
double v[];
{
  register i;
  double s = 0;
#pragma omp parallel for reduction(+:s)
  for (i = lo; i < hi; i++)
    s += v[i];
  return (int)s;
}

static double scaled(x, k)
float x;
{
  return x * k;
}

count(n) { return n + 1; }

main(argc, argv)
int argc;
char **argv;
{
  int i;
  for (i = 0; i < 100; i++) data[i] = i * 0.5;
  printf("%d %d %.1f %d %s\n", sum_range(10, 90, data), argc, scaled(1.5f, 4), count(41), argv[0] ? "argv" : "none");
  return 0;
}
