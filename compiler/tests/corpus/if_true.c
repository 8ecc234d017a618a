/* if clause with a true expression and num_threads from a variable */
#include <stdio.h>
#include <omp.h>
int main(int argc, char **argv)
{
  (void)argv;
  int want = 2, cnt = 0;
#pragma omp parallel if(argc > 0) num_threads(want)
  {
#pragma omp atomic
    cnt++;
  }
  printf("%d\n", cnt >= 1 && cnt <= 2);
  return 0;
}
