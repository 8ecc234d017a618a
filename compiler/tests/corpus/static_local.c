/* a static local in a function called from a region is shared */
#include <stdio.h>
static int bump(void)
{
  static int calls;
  int r;
#pragma omp critical
  r = ++calls;
  return r;
}
int main(void)
{
  int maxv = 0;
#pragma omp parallel for reduction(max:maxv)
  for (int i = 0; i < 60; i++) {
    int r = bump();
    if (r > maxv) maxv = r;
  }
  printf("%d\n", maxv);
  return 0;
}
