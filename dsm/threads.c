/*
 * threads.c — several application threads in one process: how many, and the
 * gate that lets one of them at a time into the protocol.
 *
 * The protocol is per process (docs/design.md, "Threads of a process"): one
 * vector time, one open interval, one set of twins, whoever of the process's
 * threads wrote. Its code was written for one application thread beside the
 * service thread, and dsm__mu guards what those two share; what it keeps
 * between the steps of a fault or a synchronisation (a fetch in flight, the
 * interval being closed) it keeps without a lock, because no second
 * application thread could be in the middle of one. The gate keeps it so:
 * an application thread holds it through every protocol step (a page fault,
 * a release, an acquire, a collective), and drops it only while it waits for
 * another process's application to do something (a lock grant, a semaphore
 * signal, a condition's wake-up), because that may take a thread of this
 * process that needs the gate meanwhile. The service thread never takes it.
 *
 * The gate is recursive per thread: the runtime can fault on a shared page
 * while it holds the gate for a synchronisation. With one thread per process
 * it is never touched.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"

unsigned dsm__threads = 1;

static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static __thread unsigned depth;

static size_t omp_stacksize(void);

/* The CPUs this process may run on. */
static unsigned cpus_allowed(void)
{
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) != 0)
    return 1;
  int n = CPU_COUNT(&set);
  return n < 1 ? 1 : n > (int)DSM__MAX_THREADS ? DSM__MAX_THREADS : (unsigned)n;
}

void dsm__threads_init(int alone)
{
  /* DSM_THREADS is dsmrun --threads. Without it, OMP_NUM_THREADS asks for
   * a team of that many threads over the job: each process runs its share
   * (rounded up), so that OMP_NUM_THREADS=4 on one process runs 4 threads
   * as gcc's runtime would, and on 4 processes runs one each, as before.
   * Without either, a job's processes run one thread each, and a program
   * started on its own (not by a launcher: a job of one) runs one per CPU
   * it may use, as gcc's runtime does (issue 56: it ran one). */
  (void)omp_stacksize();   /* a bad value is an error at start, not at the first region */
  if (getenv("DSM_THREADS") && *getenv("DSM_THREADS")) {
    dsm__threads = (unsigned)dsm__env_long("DSM_THREADS", 1, 1, DSM__MAX_THREADS);
    return;
  }
  const char *s = getenv("OMP_NUM_THREADS");
  if (!s || !*s) {
    if (alone)
      dsm__threads = cpus_allowed();
    return;
  }
  char *end;
  long v = strtol(s, &end, 10);
  if (end == s || (*end && *end != ',') || v < 1)
    return;   /* the OpenMP runtime reports a bad value */
  long t = (v + (long)dsm__nprocs - 1) / (long)dsm__nprocs;
  dsm__threads = (unsigned)(t > DSM__MAX_THREADS ? DSM__MAX_THREADS : t);
}

/* OMP_STACKSIZE: "size[B|K|M|G]", kilobytes without a unit, blanks
 * allowed around (OpenMP 5.2, 6.6). 0 when not set. */
static size_t omp_stacksize(void)
{
  const char *s = getenv("OMP_STACKSIZE");
  if (!s)
    return 0;
  const char *p = s;
  while (*p == ' ' || *p == '\t') p++;
  char *end;
  errno = 0;
  unsigned long long v = strtoull(p, &end, 10);
  int ok = end != p && !errno && *p != '-';
  while (*end == ' ' || *end == '\t') end++;
  unsigned shift = 10;
  switch (*end) {
  case 'b': case 'B': shift = 0; end++; break;
  case 'k': case 'K': shift = 10; end++; break;
  case 'm': case 'M': shift = 20; end++; break;
  case 'g': case 'G': shift = 30; end++; break;
  default: break;
  }
  while (*end == ' ' || *end == '\t') end++;
  if (!ok || *end || v == 0 || v > (1ull << 46) >> shift)
    dsm__fatal(DSM__EXIT_FATAL, "OMP_STACKSIZE='%s' is not a stack size: a positive number "
               "with an optional B, K, M or G (K without one), at most 64 TiB", s);
  return (size_t)v << shift;
}

size_t dsm__omp_stack_size(const char *name, long dflt_mb, int at_least_dflt)
{
  if (getenv(name) && *getenv(name))
    return (size_t)dsm__env_long(name, dflt_mb, 1, 1 << 16) << 20;
  size_t dflt = (size_t)dflt_mb << 20, want = omp_stacksize();
  if (!want)
    return dflt;
  want = (want + 4095) & ~(size_t)4095;
  if (want < 64 * 1024)
    want = 64 * 1024;   /* what a thread needs to start, and the runtime's own frames */
  return at_least_dflt && want < dflt ? dflt : want;
}

void dsm__gate_enter(void)
{
  if (dsm__threads > 1 && depth++ == 0)
    pthread_mutex_lock(&gate);
}

void dsm__gate_leave(void)
{
  if (dsm__threads > 1 && --depth == 0)
    pthread_mutex_unlock(&gate);
}

unsigned dsm__gate_drop(void)
{
  unsigned d = depth;
  if (dsm__threads > 1 && d) {
    depth = 0;
    pthread_mutex_unlock(&gate);
  }
  return d;
}

void dsm__gate_take(unsigned d)
{
  if (dsm__threads > 1 && d) {
    pthread_mutex_lock(&gate);
    depth = d;
  }
}

unsigned dsm__gate_depth(void) { return depth; }

unsigned dsm_threads(void) { return dsm__threads; }
