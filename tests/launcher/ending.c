/*
 * ending.c — an OpenMP program (built by ompdsmcc in test_ending.sh) that
 * ends in the ways issue 56 found hanging or misreported: exit, _exit,
 * abort and a bad pointer on one thread while the other waits at a
 * barrier, and main returning non-zero after a region.
 *
 * usage: ending MODE [STATUS]
 *   exit S        thread 1 calls exit(S) inside the region
 *   master-exit S thread 0 calls exit(S) inside the region
 *   _exit         thread 1 calls _exit(0) inside the region
 *   return S      main returns S after a region
 *   segv          thread 1 stores through a bad pointer
 *   abort         thread 1 fails an assert
 *   dontdump      the master prints whether its heap block's mapping is
 *                 kept out of core files (VmFlags "dd" in /proc/self/smaps)
 * Run with 2 threads (dsmrun -n 2). Output after the region means the
 * job outlived the exit.
 */
#include <assert.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int *volatile bad = (int *)16;
/* The mode, where every thread can read it: argv's strings are in the
 * master's own memory. */
static char mode[32];
static int status;

/* Does the mapping that holds p have VM_DONTDUMP? */
static int dontdump(const void *p)
{
  FILE *f = fopen("/proc/self/smaps", "r");
  if (!f)
    return -1;
  char line[512];
  int in = 0, dd = -1;
  while (fgets(line, sizeof line, f)) {
    unsigned long lo, hi;
    if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)   /* a mapping's first line */
      in = (uintptr_t)p >= lo && (uintptr_t)p < hi;
    else if (in && strncmp(line, "VmFlags:", 8) == 0) {
      dd = strstr(line, " dd") != NULL;
      break;
    }
  }
  fclose(f);
  return dd;
}

int main(int argc, char **argv)
{
  snprintf(mode, sizeof mode, "%s", argc > 1 ? argv[1] : "");
  status = argc > 2 ? atoi(argv[2]) : 0;
  if (strcmp(mode, "dontdump") == 0) {
    char *block = malloc(1 << 20);
    block[0] = 1;
    printf("heap block kept out of cores: %s\n", dontdump(block) == 1 ? "yes" : "no");
    return 0;
  }
#pragma omp parallel num_threads(2)
  {
    int me = omp_get_thread_num();
    if (me == 1 && strcmp(mode, "exit") == 0)
      exit(status);
    if (me == 0 && strcmp(mode, "master-exit") == 0)
      exit(status);
    if (me == 1 && strcmp(mode, "_exit") == 0)
      _exit(0);
    if (me == 1 && strcmp(mode, "segv") == 0)
      *bad = 1;   /* FAULT HERE */
    if (me == 1 && strcmp(mode, "abort") == 0)
      assert(status == 12345);   /* ASSERT HERE */
#pragma omp barrier
  }
  if (strcmp(mode, "return") == 0) {
    printf("returning %d\n", status);
    return status;
  }
  printf("after the region\n");
  return 0;
}
