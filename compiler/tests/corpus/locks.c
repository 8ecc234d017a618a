/* omp_lock_t protecting a shared sum */
#include <stdio.h>
#include <omp.h>
omp_lock_t lk;
int main(void)
{
  long s = 0;
  omp_init_lock(&lk);
#pragma omp parallel for
  for (int i = 0; i < 300; i++) {
    omp_set_lock(&lk);
    s += i;
    omp_unset_lock(&lk);
  }
  omp_destroy_lock(&lk);
  printf("%ld\n", s);
  return 0;
}
