/*
 * heap_exhaust — dsm_malloc 1 MiB blocks until the shared heap runs out.
 * libdsm must stop the process with a message naming DSM_HEAP_MB and exit
 * status 70; reaching the end of main (or a signal) is a failure.
 */
#include <string.h>
#include "check.h"

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  for (long i = 0; i < 1L << 20; i++) {
    char *p = dsm_malloc(1 << 20);
    CHECK(p != NULL);
    memset(p, 1, 64);   /* touch the block: the pages are really there */
    if (i % 16 == 0)
      fprintf(stderr, "heap_exhaust: %ld MiB allocated\n", i + 1);
  }
  fprintf(stderr, "heap_exhaust: dsm_malloc never failed\n");
  dsm_exit(3);
}
