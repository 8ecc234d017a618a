/* histogram with per-thread arrays merged in a critical section */
#include <stdio.h>
#include <string.h>
#define B 16
int main(void)
{
  int hist[B];
  memset(hist, 0, sizeof hist);
#pragma omp parallel
  {
    int mine[B] = {0};
#pragma omp for nowait
    for (int i = 0; i < 10000; i++) mine[(i * 7919) % B]++;
#pragma omp critical
    for (int b = 0; b < B; b++) hist[b] += mine[b];
  }
  for (int b = 0; b < B; b++) printf("%d%c", hist[b], b == B - 1 ? '\n' : ' ');
  return 0;
}
