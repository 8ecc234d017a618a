/* control flow inside regions: while, switch, continue, goto */
#include <stdio.h>
int main(void)
{
  int out[50];
#pragma omp parallel for schedule(static, 1)
  for (int i = 0; i < 50; i++) {
    int v = i, steps = 0;
    while (v != 1 && v > 0) { v = v % 2 ? 3 * v + 1 : v / 2; steps++; }
    switch (i % 3) { case 0: steps += 1000; break; default: break; }
    if (i == 7) continue;
    out[i] = steps;
  }
  out[7] = 0;
  long s = 0;
  for (int i = 0; i < 50; i++) s += out[i];
  printf("%ld\n", s);
  return 0;
}
