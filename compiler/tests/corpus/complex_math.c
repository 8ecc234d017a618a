/* complex and math headers with a parallel loop */
#include <stdio.h>
#include <math.h>
#include <complex.h>
int main(void)
{
  double re = 0, im = 0;
#pragma omp parallel for reduction(+:re,im)
  for (int k = 0; k < 360; k++) {
    double complex z = cexp(I * (k * M_PI / 180.0));
    re += fabs(creal(z));
    im += fabs(cimag(z));
  }
  printf("%.3f %.3f\n", re, im);
  return 0;
}
