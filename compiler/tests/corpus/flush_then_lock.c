/* A flush that waits (sync/flush.c) must not be lost when its thread
 * blocks. The first thread writes x and flushes twice in a row, so the
 * second flush may wait (nobody watches x yet), then blocks on a lock that
 * the last thread holds. The last thread took the lock first, and only
 * later spins on x: unless x's interval ends before the first thread
 * blocks (the flush happens at the lock, dsm__flush_settle, or the lock's
 * acquire ends the interval), neither would ever go on. */
#include <stdio.h>
#include <unistd.h>
#include <omp.h>

static int ready, x, y;
static omp_lock_t lk;

int main(void)
{
  omp_init_lock(&lk);
#pragma omp parallel
  {
    int me = omp_get_thread_num(), last = omp_get_num_threads() - 1;
    if (last > 0 && me == last) {
      omp_set_lock(&lk);
      ready = 1;
#pragma omp flush
      usleep(100000);   /* the first thread writes x and blocks meanwhile */
      while (x == 0) {
#pragma omp flush(x)
      }
      y = x + 1;
      omp_unset_lock(&lk);
    } else if (last > 0 && me == 0) {
      while (ready == 0) {
#pragma omp flush(ready)
      }
#pragma omp flush
      x = 41;
#pragma omp flush
      omp_set_lock(&lk);
      y += 100;
      omp_unset_lock(&lk);
    } else if (last == 0) {
      x = 41;
      y = 142;
    }
  }
  omp_destroy_lock(&lk);
  printf("x %d y %d\n", x, y);
  return 0;
}
