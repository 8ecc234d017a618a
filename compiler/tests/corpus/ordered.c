/* ordered: output appears in iteration order */
#include <stdio.h>
int main(void)
{
  int seq[40], pos = 0;
#pragma omp parallel for ordered schedule(dynamic, 2)
  for (int i = 0; i < 40; i++) {
    int v = i * 3;
#pragma omp ordered
    { seq[pos++] = v; }
  }
  for (int i = 0; i < 40; i++) printf("%d%c", seq[i], i == 39 ? '\n' : ' ');
  return 0;
}
