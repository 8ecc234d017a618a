/*
 * Cold fetch of a large array: the master fills SIZE_MB (argument or
 * environment, default 256) MiB it allocated; every other process then reads all of it, page by page, and
 * checks every word. Each page arrives whole from its home.
 */
#include <stdint.h>
#include "check.h"

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  const char *env = getenv("SIZE_MB");
  size_t mb = argc > 1 ? (size_t)atol(argv[1]) : env ? (size_t)atol(env) : 256;
  CHECK(mb > 0);
  size_t words = mb * 1024 * 1024 / sizeof(uint64_t);
  static uint64_t *a;
  if (dsm_proc_id() == 0) {
    a = dsm_malloc(words * sizeof *a);
    for (size_t i = 0; i < words; i++)
      a[i] = i * 0x9e3779b97f4a7c15ull;
    dsm_distribute(&a, sizeof a);
  }
  dsm_barrier(0);
  if (dsm_proc_id() != 0) {
    for (size_t i = 0; i < words; i++)
      if (a[i] != i * 0x9e3779b97f4a7c15ull) {
        fprintf(stderr, "rank %u: word %zu wrong\n", dsm_proc_id(), i);
        exit(1);
      }
    CHECK(dsm_stat("pages_fetched") >= (int64_t)(mb * 256));
  }
  dsm_barrier(1);
  if (dsm_proc_id() == 0)
    printf("cold_fetch: %zu MiB read by %u processes: OK\n", mb, dsm_nprocs() - 1);
  dsm_exit(0);
}
