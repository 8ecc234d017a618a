/*
 * hello.c — the smallest libdsm job: every rank joins, meets the others at a
 * barrier, and leaves. Used by the launcher tests to check that what dsmrun
 * puts in the environment is what the library's bootstrap expects.
 *
 * Prints "hello from R of N" on each rank. With an argument EXIT_RANK, that
 * rank dies with status 3 after the first barrier instead of calling
 * dsm_exit, so the others must be stopped (by the library, status 75, or by
 * dsmrun) and dsmrun must blame rank EXIT_RANK. It uses _exit, as a crash
 * would: exit() runs libdsm's atexit handler, which is a collective shutdown.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "dsm.h"

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  printf("hello from %u of %u\n", me, n);
  fflush(stdout);
  dsm_barrier(0);
  if (argc > 1 && (unsigned)atoi(argv[1]) == me)
    _exit(3);
  dsm_barrier(1);
  dsm_exit(0);
  return 0;
}
