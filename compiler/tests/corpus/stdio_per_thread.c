/* Every thread opens a stream of its own in the same region, and every
   thread writes into every stream (issue 14, class 9). Processes that run
   the same code from the same start get the same heap addresses, so their
   FILEs can share an address; the registry must still send each line to
   the stream that was meant. The meson test stdio-collide runs this with
   address randomization off, where the slaves' FILEs do collide. The
   master checks every file after the region. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXT 16

static FILE *mine[MAXT];
static char path[MAXT][96];

int main(void)
{
  int pid = (int)getpid(), nthreads = 1, bad = 0;
  for (int t = 0; t < MAXT; t++) snprintf(path[t], sizeof path[t], "/tmp/ompdsm-per-thread-%d.%d", pid, t);
#pragma omp parallel shared(nthreads)
  {
    int t = omp_get_thread_num(), n = omp_get_num_threads();
#pragma omp single
    nthreads = n;
    mine[t] = fopen(path[t], "w");
    fprintf(mine[t], "opened by %d\n", t);
#pragma omp barrier
    for (int round = 0; round < 2; round++)
      for (int k = 0; k < n; k++) {
        int to = (t + k) % n;
#pragma omp critical
        fprintf(mine[to], "from %d to %d round %d\n", t, to, round);
      }
#pragma omp barrier
    fclose(mine[t]);
  }
  for (int t = 0; t < nthreads; t++) {
    FILE *f = fopen(path[t], "r");
    char line[128];
    int from[MAXT][2] = { { 0 } }, first = 1;
    while (f && fgets(line, sizeof line, f)) {
      int a, b, r;
      if (first) { first = 0; if (sscanf(line, "opened by %d", &a) != 1 || a != t) bad = 1; continue; }
      if (sscanf(line, "from %d to %d round %d", &a, &b, &r) != 3 || b != t || a < 0 || a >= nthreads || r < 0 || r > 1) {
        printf("file %d: stray line: %s", t, line);
        bad = 1;
      } else {
        from[a][r]++;
      }
    }
    if (f) fclose(f);
    for (int a = 0; a < nthreads; a++)
      if (from[a][0] != 1 || from[a][1] != 1) { printf("file %d: lines from %d: %d %d\n", t, a, from[a][0], from[a][1]); bad = 1; }
    remove(path[t]);
  }
  printf("every thread's file has one line per thread and round: %s\n", bad ? "no" : "yes");
  return bad;
}
