/*
 * affinity.c — a libdsm job that reports where the library bound it
 * (dsm/bind.c): after dsm_startup, each rank prints
 *
 *   R COUNT C0,C1,...
 *
 * its rank, how many CPUs it may run on, and which, in increasing order.
 * test_threads.sh compares that with what dsmrun --threads asks for.
 */
#include <sched.h>
#include <stdio.h>

#include "dsm.h"

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  cpu_set_t s;
  if (sched_getaffinity(0, sizeof s, &s) != 0) {
    perror("sched_getaffinity");
    return 1;
  }
  char list[8192];
  size_t len = 0;
  list[0] = '\0';
  for (int c = 0; c < CPU_SETSIZE && len < sizeof list - 16; c++)
    if (CPU_ISSET(c, &s))
      len += (size_t)snprintf(list + len, sizeof list - len, "%s%d", len ? "," : "", c);
  printf("%u %d %s\n", dsm_proc_id(), CPU_COUNT(&s), list);
  fflush(stdout);
  dsm_barrier(0);
  dsm_exit(0);
  return 0;
}
