/* multi-file program: main.c takes the address of a local array and passes
   it to an orphaned worksharing loop in work.c (built separately with -c) */
#include <stdio.h>
void fill(int *v, int n);
int main(void)
{
  int local[200];
#pragma omp parallel
  fill(local, 200);
  long s = 0;
  for (int i = 0; i < 200; i++) s += local[i];
  printf("%ld\n", s);
  return 0;
}
