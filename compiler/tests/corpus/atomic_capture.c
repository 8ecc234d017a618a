/* atomic read/write/capture forms */
#include <stdio.h>
int main(void)
{
  int counter = 0, seen_max = 0, tickets[50];
#pragma omp parallel for
  for (int i = 0; i < 50; i++) {
    int t;
#pragma omp atomic capture
    t = counter++;
    tickets[i] = t;
  }
  int r;
#pragma omp atomic read
  r = counter;
#pragma omp atomic write
  seen_max = r;
  int sum = 0;
  for (int i = 0; i < 50; i++) sum += tickets[i];
  printf("%d %d %d\n", r, seen_max, sum);
  return 0;
}
