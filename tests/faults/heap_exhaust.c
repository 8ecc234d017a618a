/*
 * heap_exhaust — dsm_malloc 1 MiB blocks until the shared heap runs out.
 * As malloc does, dsm_malloc must then return NULL with errno ENOMEM (the
 * behaviour chosen in issue 56; it used to stop the job with status 70),
 * and libdsm says once, on stderr, which limit it was (DSM_HEAP_MB). The
 * heap must still work afterwards: a freed block can be had again.
 * Every process of the job does this on its own slice.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include "check.h"

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  long got = 0;
  char *last = NULL;
  for (; got < 1L << 20; got++) {
    errno = 0;
    char *p = dsm_malloc(1 << 20);
    if (!p) {
      CHECK(errno == ENOMEM);
      break;
    }
    memset(p, 1, 64);   /* touch the block: the pages are really there */
    last = p;
    if (got % 16 == 0)
      fprintf(stderr, "heap_exhaust: rank %u: %ld MiB allocated\n", dsm_proc_id(), got + 1);
  }
  CHECK(got > 0 && got < 1L << 20);
  /* calloc, realloc and strdup fail the same way, leaving what they had. */
  errno = 0;
  CHECK(dsm_calloc(1 << 20, 1) == NULL && errno == ENOMEM);
  errno = 0;
  CHECK(dsm_calloc(SIZE_MAX / 2, 4) == NULL && errno == ENOMEM);
  errno = 0;
  CHECK(dsm_realloc(last, 64 << 20) == NULL && errno == ENOMEM);
  CHECK(last[0] == 1);
  /* The heap goes on working. */
  dsm_free(last);
  char *again = dsm_malloc(1 << 20);
  CHECK(again != NULL);
  again[0] = 2;
  fprintf(stderr, "heap_exhaust: rank %u: dsm_malloc returned NULL (ENOMEM) after %ld MiB\n",
          dsm_proc_id(), got);
  dsm_barrier(0);
  dsm_exit(0);
}
