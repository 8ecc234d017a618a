/*
 * omp_sharing.c — an OpenMP program (built by ompdsmcc in
 * check_first_screen.py) whose sharing dsmprof must name in the program's
 * own terms (issue 56): a local of main that every thread updates, critical
 * sections (the unnamed one at two sites, a named one) and atomic.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define STEPS 12

int main(void)
{
  long tally = 0;                     /* TALLY: a local of main, truly shared */
  double *cells = calloc(4096, sizeof *cells);
  int hits = 0;
  for (int step = 0; step < STEPS; step++) {
#pragma omp parallel
    {
      int me = omp_get_thread_num();
#pragma omp critical                  /* CRITICAL A */
      tally += me + 1;
      cells[me * 512] += step;
#pragma omp critical(ledger)          /* CRITICAL NAMED */
      cells[1] += 1;
#pragma omp atomic
      hits++;
#pragma omp barrier
#pragma omp critical                  /* CRITICAL B */
      tally -= 1;
    }
  }
  printf("tally %ld hits %d cells[1] %g\n", tally, hits, cells[1]);
  return 0;
}
