/* lastprivate on for (static and dynamic) and on sections; loop var lastprivate */
#include <stdio.h>
int main(void)
{
  int last = -1, i, k = 0, sec = 0;
#pragma omp parallel for lastprivate(last)
  for (int j = 0; j < 100; j++) last = j * 2;
#pragma omp parallel for lastprivate(i) schedule(dynamic, 3)
  for (i = 0; i < 77; i++) {
#pragma omp atomic write
    k = i; /* atomic: every thread writes it (a plain store would race) */
  }
#pragma omp parallel sections lastprivate(sec)
  {
#pragma omp section
    sec = 1;
#pragma omp section
    sec = 2;
#pragma omp section
    sec = 3;
  }
  printf("%d %d %d\n", last, i, sec);
  (void)k;
  return 0;
}
