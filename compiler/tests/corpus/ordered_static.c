/* "parallel for ordered schedule(static,1)" met again and again (issue 14,
   class 7): each loop must start its ordered sequence at iteration 0. */
#include <stdio.h>

int main(void)
{
  int log[64], n = 0;
  for (int rep = 0; rep < 4; rep++) {
#pragma omp parallel for ordered schedule(static, 1)
    for (int i = 0; i < 16; i++) {
#pragma omp ordered
      log[n++] = i + rep * 100;
    }
  }
  long s = 0;
  for (int i = 0; i < n; i++) s = s * 7 % 1000003 + log[i];
  printf("%d %ld\n", n, s);
  return 0;
}
