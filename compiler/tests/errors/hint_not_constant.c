// expect: hint_not_constant.c:10:
/* hint() must be an integer constant expression (OpenMP 5.0, 2.19.12): a
   variable, or a misspelt omp_sync_hint_* name, is an error, as it is for
   gcc, and not a hint silently dropped */
#include <omp.h>
int main(void)
{
  int n = 0, h = omp_sync_hint_contended;
#pragma omp parallel
#pragma omp critical (c) hint(h)
  n++;
  return n < 0;
}
