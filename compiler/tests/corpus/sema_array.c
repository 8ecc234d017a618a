/* an array of semaphores (name[expr]) passing a token around */
// EXPECT: 0 1 2 3 4 5 6 7
#include <stdio.h>
int order[8], pos;
int main(void)
{
  for (int i = 1; i < 8; i++) {
#pragma omp sema_init(turn[i], 0)
  }
#pragma omp sema_init(turn[0], 1)
#pragma omp parallel for schedule(static, 1)
  for (int i = 0; i < 8; i++) {
#pragma omp sema_wait(turn[i])
    order[pos++] = i;
    if (i + 1 < 8) {
#pragma omp sema_signal(turn[i + 1])
    }
  }
  for (int i = 0; i < 8; i++) printf("%d%c", order[i], i == 7 ? '\n' : ' ');
  return 0;
}
