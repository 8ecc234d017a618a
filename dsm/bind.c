/*
 * bind.c — pin a rank to one CPU of its host, as MPI launchers do.
 *
 * Why it matters more to a page-based DSM than to MPI: write-protecting
 * pages (every release that shares them) is a TLB shootdown, and the kernel
 * sends it to every CPU the process has run on. A rank whose application
 * and service threads wander over both CPUs of this VM paid an
 * inter-processor interrupt per mprotect (10% of the stencil's time in
 * tlb_finish_mmu), and every reply the service thread handed to the
 * application thread woke it on the other CPU (~40 us here). Bound, both
 * threads share one CPU: the shootdown stays local and the hand-off is a
 * context switch.
 *
 * dsmrun says where the rank is: DSM_LOCAL_RANK and DSM_LOCAL_SIZE (its
 * place among the ranks of its host) and DSM_HOST_INDEX (which host it is,
 * so that emulated hosts sharing one machine start at different CPUs).
 * Binding happens only when every rank of the host can have a CPU of its
 * own (oversubscribed, the scheduler places them better than a fixed map)
 * and there are at least two (a job of one has nothing to gain), and never
 * when DSM_CPU_BIND=none. It runs before the service thread exists, which
 * inherits the mask.
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"
#include "region.h"
#include "runtime.h"

void dsm__bind_cpu(void)
{
  const char *mode = getenv("DSM_CPU_BIND");
  if (mode && *mode && strcmp(mode, "core") != 0) {
    if (strcmp(mode, "none") != 0)
      dsm__fatal(DSM__EXIT_FATAL, "DSM_CPU_BIND='%s' is neither core nor none", mode);
    return;
  }
  if (!getenv("DSM_LOCAL_RANK") || !getenv("DSM_LOCAL_SIZE"))
    return;
  long lrank = dsm__env_long("DSM_LOCAL_RANK", 0, 0, DSM__MAX_PROCS - 1);
  long lsize = dsm__env_long("DSM_LOCAL_SIZE", 1, 1, DSM__MAX_PROCS);
  long host = dsm__env_long("DSM_HOST_INDEX", 0, 0, DSM__MAX_PROCS - 1);
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
    return;
  long ncpu = CPU_COUNT(&allowed);
  if (lsize < 2 || lsize > ncpu || lrank >= lsize)
    return;
  /* The (lrank + host)-th CPU of the allowed set, counting round: ranks of
   * one host get distinct CPUs. */
  long want = (lrank + host) % ncpu;
  for (int c = 0; c < CPU_SETSIZE; c++) {
    if (!CPU_ISSET(c, &allowed) || want-- > 0)
      continue;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(c, &one);
    if (sched_setaffinity(0, sizeof one, &one) == 0)
      DSM__DEBUG("bound to CPU %d (local rank %ld of %ld)", c, lrank, lsize);
    return;
  }
}
