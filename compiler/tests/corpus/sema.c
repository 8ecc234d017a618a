/* the seed's semaphore extension: a pipeline of two stages */
// EXPECT: 140
#include <stdio.h>
#include <omp.h>
int stage[8];
int main(void)
{
  int result = 0;
#pragma omp sema_init(ready, 0)
#pragma omp parallel sections
  {
#pragma omp section
    {
      for (int i = 0; i < 8; i++) stage[i] = i * i;
#pragma omp sema_signal(ready)
    }
#pragma omp section
    {
#pragma omp sema_wait(ready)
      for (int i = 0; i < 8; i++) result += stage[i];
    }
  }
  printf("%d\n", result);
  return 0;
}
