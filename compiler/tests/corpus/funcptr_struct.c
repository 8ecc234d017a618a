/* structs, typedefs, function pointers and enums used inside regions */
#include <stdio.h>
typedef struct { double x, y; } vec;
typedef double (*op_t)(double);
enum { SIZE = 64 };
static double twice(double v) { return 2 * v; }
int main(void)
{
  vec v[SIZE];
  op_t f = twice;
#pragma omp parallel for
  for (int i = 0; i < SIZE; i++) { v[i].x = f(i); v[i].y = -i; }
  double s = 0;
  for (int i = 0; i < SIZE; i++) s += v[i].x + v[i].y;
  printf("%.1f\n", s);
  return 0;
}
