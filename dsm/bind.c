/*
 * bind.c — pin a rank to CPUs of its host, one for each of its application
 * threads, as MPI launchers do.
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
 * With T application threads per process (dsmrun --threads, threads.c) a
 * rank gets T CPUs, consecutive in the allowed set: its threads compute in
 * parallel, and share its pages through the hardware, so a shootdown must
 * reach the CPUs they run on, but it reaches only those T, never the CPUs
 * of the host's other ranks, which a rank free to wander would have run on
 * too. The service thread stays among them.
 *
 * dsmrun says where the rank is: DSM_LOCAL_RANK and DSM_LOCAL_SIZE (its
 * place among the ranks of its host) and DSM_HOST_INDEX (which host it is,
 * so that emulated hosts sharing one machine start at different CPUs).
 * Binding happens only when every thread of every rank of the host can have
 * a CPU of its own (oversubscribed, the scheduler places them better than a
 * fixed map) and there are at least two threads in all (a job of one
 * process and one thread has nothing to gain), and never when
 * DSM_CPU_BIND=none. It runs after dsm__threads is known and before the
 * service thread (and any other thread) exists, which inherits the mask.
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
  long t = (long)dsm__threads;
  cpu_set_t allowed;
  if (sched_getaffinity(0, sizeof allowed, &allowed) != 0)
    return;
  long ncpu = CPU_COUNT(&allowed);
  if (lsize * t < 2 || lsize * t > ncpu || lrank >= lsize)
    return;
  /* The allowed CPUs in order, so that the k-th is at hand. */
  unsigned short cpus[CPU_SETSIZE];
  long n = 0;
  for (int c = 0; c < CPU_SETSIZE && n < ncpu; c++)
    if (CPU_ISSET(c, &allowed))
      cpus[n++] = (unsigned short)c;
  /* The t CPUs from the (lrank*t + host)-th of the allowed set on, counting
   * round: ranks of one host get disjoint sets (lsize*t <= ncpu). With t = 1
   * this is the (lrank + host)-th CPU alone. */
  long first = (lrank * t + host) % ncpu;
  cpu_set_t mine;
  CPU_ZERO(&mine);
  for (long k = 0; k < t; k++)
    CPU_SET(cpus[(first + k) % ncpu], &mine);
  if (sched_setaffinity(0, sizeof mine, &mine) != 0)
    return;
  if (t == 1)
    DSM__DEBUG("bound to CPU %d (local rank %ld of %ld)", cpus[first], lrank, lsize);
  else
    DSM__DEBUG("bound to %ld CPUs from CPU %d on (local rank %ld of %ld)", t, cpus[first],
               lrank, lsize);
}
