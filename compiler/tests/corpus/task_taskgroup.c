/* taskgroup waits for descendants, not only children: inside a taskgroup
   the generating thread makes ROWS tasks, each of which makes COLS tasks
   and returns at once (no taskwait in the children), and the innermost
   tasks make one more level for odd columns. The grid is read right after
   the taskgroup ends. A second round does the same with the taskgroup in
   an orphaned function called from every thread's share of a loop
   (single nowait would also do): each thread's taskgroup must wait for its
   own tasks' descendants. Checked against the sequential formula. */
#include <stdio.h>
#include <stdlib.h>

#define ROWS 24
#define COLS 20

static long cell(int r, int c, int round)
{
  unsigned long v = 0;
  for (int k = 0; k <= (r * 7 + c * 3) % 50; k++) v = v * 31 + (unsigned long)(r + c * k + round);
  return (long)(v % 100003);
}

static void fill_row(long *grid, int r, int round)
{
  for (int c = 0; c < COLS; c++) {
#pragma omp task firstprivate(grid, r, c, round)
    {
      if (c % 2) {
#pragma omp task firstprivate(grid, r, c, round)
        grid[r * COLS + c] = cell(r, c, round);
      } else {
        grid[r * COLS + c] = cell(r, c, round);
      }
    }
  }
}

static void group_rows(long *grid, int r, int round)
{
#pragma omp taskgroup
  {
#pragma omp task firstprivate(grid, r, round)
    fill_row(grid, r, round);
  }
  /* this row is complete here: a task made by this thread, its children
     and grandchildren have finished */
  long s = 0;
  for (int c = 0; c < COLS; c++) s += grid[r * COLS + c];
  grid[ROWS * COLS + r] = s;
}

int main(void)
{
  long *grid = malloc((ROWS * COLS + ROWS) * sizeof *grid);
  long bad = 0, sum1 = 0, sum2 = 0;
  for (int i = 0; i < ROWS * COLS + ROWS; i++) grid[i] = -1;

#pragma omp parallel
  {
#pragma omp single
    {
#pragma omp taskgroup
      {
        for (int r = 0; r < ROWS; r++) {
#pragma omp task firstprivate(r)
          fill_row(grid, r, 1);
        }
      }
      /* after the taskgroup: every cell is written */
      for (int i = 0; i < ROWS * COLS; i++) {
        sum1 += grid[i];
        bad += grid[i] != cell(i / COLS, i % COLS, 1);
      }
    }
    /* round 2: every thread runs taskgroups for its rows */
#pragma omp for schedule(dynamic, 1)
    for (int r = 0; r < ROWS; r++)
      group_rows(grid, r, 2);
  }

  for (int r = 0; r < ROWS; r++) {
    long s = 0;
    for (int c = 0; c < COLS; c++) {
      bad += grid[r * COLS + c] != cell(r, c, 2);
      s += cell(r, c, 2);
    }
    bad += grid[ROWS * COLS + r] != s;
    sum2 += grid[ROWS * COLS + r];
  }
  printf("round 1 sum %ld\n", sum1);
  printf("round 2 sum %ld\n", sum2);
  printf("wrong cells %ld\n", bad);
  printf("%s\n", bad == 0 ? "OK" : "FAIL");
  free(grid);
  return bad == 0 ? 0 : 1;
}
