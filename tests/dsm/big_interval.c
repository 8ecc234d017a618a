/*
 * More bytes of diff from one process to one home in one interval than a
 * transport message holds (64 MiB). Rank 1 allocates MIB MiB (argv[1],
 * default 96) and writes all of it, so its pages are homed there. Then, in
 * each round, one process writes nearly all of every page homed at the
 * other, inside a critical section (a lock): its release makes ~94 MiB of
 * diffs for the other at once. The barrier after the round moves the pages
 * to their one writer, so the rounds alternate. Before 2026-12-07 each such
 * release was one DIFF message, and the transport stopped the job on its
 * size (NAS MG at class A, whose master writes the workers' pages, issue
 * 52). A last round has the home write them all after the other read them:
 * its PUSH of new copies is as large. Everyone checks every page, so every
 * piece must have arrived.
 */
#include <stdint.h>
#include <string.h>
#include "check.h"

DSM_SHARED_BSS uint8_t *region;

#define PAGE 4096

static uint8_t val(size_t page, unsigned round)
{
  return (uint8_t)((page * 2654435761u >> 9) ^ (round * 37 + 1));
}

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id(), n = dsm_nprocs();
  CHECK(n == 2);
  size_t size = (size_t)(argc > 1 ? atol(argv[1]) : 96) << 20, pages = size / PAGE;
  if (me == 1) {
    region = dsm_malloc(size);
    CHECK(region);
    memset(region, 0xee, size);
  }
  dsm_barrier(0);
  /* Rounds 0-2: the writer is not the pages' home. Round 3: it is (they
   * moved to it at round 2's barrier), and the other read them all: the
   * home pushes its new copies to that reader at the barrier, ~96 MiB. */
  static const unsigned writers[] = { 0, 1, 0, 0 };
  for (unsigned round = 0; round < 4; round++) {
    unsigned writer = writers[round];
    if (me == writer) {
      int64_t made = dsm_stat("diff_bytes_created"), pushed = dsm_stat("pushes_sent");
      if (round < 3)
        dsm_lock_acquire(7);
      for (size_t pg = 0; pg < pages; pg++)
        memset(region + pg * PAGE + 64, val(pg, round), PAGE - 64);
      if (round < 3) {
        dsm_lock_release(7);
        /* The release made them: more than a transport message holds. */
        CHECK(size < (96u << 20) || dsm_stat("diff_bytes_created") - made > (64ll << 20));
      } else {
        dsm_barrier(1);
        CHECK(size < (96u << 20) || dsm_stat("pushes_sent") - pushed > (int64_t)(pages / 2));
      }
    }
    if (round < 3 || me != writer)
      dsm_barrier(1);
    for (size_t pg = 0; pg < pages; pg++) {
      const uint8_t *p = region + pg * PAGE;
      if (p[64] != val(pg, round) || p[PAGE - 1] != val(pg, round) || p[0] != 0xee) {
        fprintf(stderr, "rank %u: round %u: page %zu holds %u..%u, not %u\n", me, round, pg,
                p[64], p[PAGE - 1], val(pg, round));
        exit(1);
      }
    }
    dsm_barrier(2);
  }
  if (me == 0)
    printf("big_interval: %zu MiB of diffs from one release, three times, then pushed: OK\n",
           size >> 20);
  dsm_exit(0);
}
