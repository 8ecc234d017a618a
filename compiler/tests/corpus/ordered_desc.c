/* ordered with a decreasing loop and a static chunk */
#include <stdio.h>
int main(void)
{
  char out[64]; int p = 0;
#pragma omp parallel for ordered schedule(static, 3)
  for (int i = 25; i >= 0; i -= 1) {
#pragma omp ordered
    out[p++] = (char)('a' + i);
  }
  out[p] = 0;
  printf("%s\n", out);
  return 0;
}
