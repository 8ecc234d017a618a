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
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"
#include "runtime.h"

unsigned dsm__threads = 1;

static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static __thread unsigned depth;

void dsm__threads_init(void)
{
  /* DSM_THREADS is dsmrun --threads. Without it, OMP_NUM_THREADS asks for
   * a team of that many threads over the job: each process runs its share
   * (rounded up), so that OMP_NUM_THREADS=4 on one process runs 4 threads
   * as gcc's runtime would, and on 4 processes runs one each, as before. */
  if (getenv("DSM_THREADS") && *getenv("DSM_THREADS")) {
    dsm__threads = (unsigned)dsm__env_long("DSM_THREADS", 1, 1, DSM__MAX_THREADS);
    return;
  }
  const char *s = getenv("OMP_NUM_THREADS");
  if (!s || !*s)
    return;
  char *end;
  long v = strtol(s, &end, 10);
  if (end == s || (*end && *end != ',') || v < 1)
    return;   /* the OpenMP runtime reports a bad value */
  long t = (v + (long)dsm__nprocs - 1) / (long)dsm__nprocs;
  dsm__threads = (unsigned)(t > DSM__MAX_THREADS ? DSM__MAX_THREADS : t);
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
