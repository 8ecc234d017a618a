/* A flag set inside a critical section and waited for with flush, by
 * threads that never enter the critical section: the flag's write reaches
 * them through their flushes alone. Each waiter then reads the data the
 * setter wrote before the flag (with the flush OpenMP asks for between).
 * Before 2026-12-07 a flush only pushed records and took what others had
 * pushed: the critical section's went to the lock's manager, and the
 * waiters' copies of the flag's page stayed valid, for ever. */
#include <stdio.h>
#include <unistd.h>
#include <omp.h>

static int flag;
static double data[4096];

int main(void)
{
  int ok = 0, n = 0;
#pragma omp parallel reduction(+ : ok, n)
  {
    if (omp_get_thread_num() == 0) {
      usleep(100000);   /* the waiters read the flag's page first, and keep it */
      for (int i = 0; i < 4096; i++)
        data[i] = i * 0.5;
#pragma omp critical
      flag = 1;
    } else {
      while (!flag) {
#pragma omp flush
      }
#pragma omp flush
      int good = 1;
      for (int i = 0; i < 4096; i++)
        good &= data[i] == i * 0.5;
      ok += good;
      n++;
    }
  }
  printf("%s\n", ok == n ? "all waiters saw the data" : "a waiter saw stale data");
  return 0;
}
