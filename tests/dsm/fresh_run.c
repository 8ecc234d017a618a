/*
 * A cold run lands in memory this process never touched (dsm/region.c,
 * fresh memory): its pages are written through the memory file and mapped
 * in the application view before any use, so touching them later costs no
 * kernel page fault (ru_minflt; a protection fault that the DSM serves is
 * not counted there), only the DSM's own fault for a held page. The last
 * process reads one word of every page of a 64-page block the master
 * filled; each value must be right, and the kernel's minor faults over the
 * 63 pages touched after the first must stay far below one per page (63
 * without the mapping). The run's memory was made while its request was out
 * (dsm/fetch.c, fetch_ahead: all 64 pages); then the master rewrites the
 * block, and the copies refreshed (pages held before) are not prepared so:
 * fetch_ahead stays, and every value is the new one.
 */
#include <sys/resource.h>

#include "check.h"

#define PW (4096 / 8)
#define NPG 64

static long value(long i) { return i * 5 + 1; }
static long value2(long i) { return i * 7 + 3; }

static long minflt(void)
{
  struct rusage ru;
  CHECK(getrusage(RUSAGE_THREAD, &ru) == 0);
  return ru.ru_minflt;
}

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), np = dsm_nprocs();
  CHECK(np >= 2);
  static long *b;
  if (me == 0) {
    b = dsm_malloc(NPG * 4096);
    for (long i = 0; i < NPG * PW; i++)
      b[i] = value(i);
    dsm_distribute(&b, sizeof b);
  }
  dsm_barrier(0);
  if (me == np - 1) {
    int64_t r0 = dsm_stat("msgs_sent.PAGE"), a0 = dsm_stat("fetch_ahead");
    CHECK_EQ(b[3], value(3));                 /* the cold run */
    CHECK_EQ(dsm_stat("fetch_ahead") - a0, NPG);
    long f0 = minflt();
    long sum = 0;
    for (long pg = 1; pg < NPG; pg++)
      sum += b[pg * PW + 1] == value(pg * PW + 1);
    long faults = minflt() - f0;
    printf("fresh_run: %ld kernel page faults touching %d fresh pages\n", faults, NPG - 1);
    CHECK_EQ(sum, NPG - 1);
    CHECK_EQ(dsm_stat("msgs_sent.PAGE") - r0, 1);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    /* (A sanitizer's shadow memory takes first touches of its own.) */
    CHECK(faults < 8);
#endif
  }
  dsm_barrier(1);
  if (me == 0)
    for (long i = 0; i < NPG * PW; i++)
      b[i] = value2(i);
  dsm_barrier(2);
  if (me == np - 1) {
    int64_t a0 = dsm_stat("fetch_ahead");
    long sum = 0;
    for (long pg = 0; pg < NPG; pg++)
      sum += b[pg * PW + 1] == value2(pg * PW + 1);
    CHECK_EQ(sum, NPG);
    CHECK_EQ(dsm_stat("fetch_ahead"), a0);
  }
  dsm_barrier(3);
  dsm_exit(0);
}
