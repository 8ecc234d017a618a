/* the seed's condition extension: wait for a flag under a critical
   (the setter is the first section, so a team of one cannot deadlock) */
// EXPECT: 1 77
#include <stdio.h>
int flag, value;
int main(void)
{
#pragma omp parallel sections
  {
#pragma omp section
    {
#pragma omp critical(m)
      {
        value = 77;
        flag = 1;
#pragma omp cond_broadcast(c)
      }
    }
#pragma omp section
    {
#pragma omp critical(m)
      {
        while (!flag) {
#pragma omp cond_wait(c)
        }
      }
    }
  }
  printf("%d %d\n", flag, value);
  return 0;
}
