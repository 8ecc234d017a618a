/* private, firstprivate, default(none) with explicit lists */
#include <stdio.h>
int main(void)
{
  int x = 42, y = 7, out[64] = {0}, t = 0;
#pragma omp parallel for default(none) firstprivate(x) private(y) shared(out)
  for (int i = 0; i < 64; i++) {
    y = x + i;
    x += 0;
    out[i] = y;
  }
#pragma omp parallel private(t) firstprivate(y)
  {
    t = y * 2;
    if (t != 14) printf("bad firstprivate\n");
  }
  long s = 0;
  for (int i = 0; i < 64; i++) s += out[i];
  printf("%ld %d %d\n", s, x, y);
  return 0;
}
