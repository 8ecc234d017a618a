/* a global array of structs, initialized and zero-initialized globals */
#include <stdio.h>
struct particle { double x, v; int id; };
struct particle ps[128];
double dt = 0.01;
static int steps = 20;
int main(void)
{
  for (int i = 0; i < 128; i++) { ps[i].id = i; ps[i].v = i * 0.1; }
  for (int s = 0; s < steps; s++) {
#pragma omp parallel for
    for (int i = 0; i < 128; i++) ps[i].x += ps[i].v * dt;
  }
  double sx = 0;
  for (int i = 0; i < 128; i++) sx += ps[i].x;
  printf("%.6f\n", sx);
  return 0;
}
