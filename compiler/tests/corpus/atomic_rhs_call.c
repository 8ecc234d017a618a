/* An atomic update whose expression calls a function that does an atomic
 * update itself: the expression is not part of the atomic update, and it
 * stopped the job on the runtime's atomic lock ("already holds") before
 * 2026-12-07 (issue 52). */
#include <stdio.h>
#include <omp.h>

static int counter, total, team;

static int bump(void)
{
  int v;
#pragma omp atomic capture
  v = counter++;
  return v;
}

int main(void)
{
#pragma omp parallel
  {
#pragma omp atomic
    total += bump() + 1;
#pragma omp single
    team = omp_get_num_threads();
  }
  /* every thread added its ticket + 1: 1 + 2 + ... + team */
  printf("%s\n", counter == team && total == team * (team + 1) / 2 ? "ok" : "wrong");
  return 0;
}
