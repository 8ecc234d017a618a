/*
 * util.c — the few helpers every file of libdsm uses: the fatal-error path,
 * the clock, and environment parsing.
 */
#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "net/transport.h"
#include "dsm_internal.h"

unsigned dsm__rank = 0;
unsigned dsm__nprocs = 1;
int dsm__started = 0;
int dsm__verbose = 0;

/* Set by the transport once peers exist, so a failure before bootstrap does
 * not try to tell anyone. */
int dsm__peers_known = 0;

/* ---- how a process's end reaches the others ----------------------------------
 *
 * A process that ends the job before its collective shutdown (an error, a
 * fatal signal, exit() inside a parallel region) tells every peer at once,
 * in an ABORT whose text is "STATUS:WHAT": STATUS is the exit status it
 * ends with, and WHAT completes the sentence "rank N ..." ("failed: ...",
 * "exited with status 3", "was killed by SIGSEGV ..."). A peer that gets it
 * stops with that sentence, and with status 0 when the sender's was 0
 * (exit(0) in a region ends an OpenMP program successfully, on one machine
 * as here), else 75, so that dsmrun names the sender, not the peers
 * (issue 56). */

/* Two threads may fail at once (the service thread sees the peer die while
 * the application thread times out): the first one reports, the others wait
 * for the _exit. A process that is leaving on its own (dsm__tell_peers from
 * an exit) ignores what others tell it meanwhile. */
static int entered, leaving;

static void enter_once(void)
{
  if (__atomic_exchange_n(&entered, 1, __ATOMIC_ACQ_REL)) {
    for (;;) pause();
  }
}

/* "dsm[rank]: label: msg" in one write, so lines of ranks do not mix. */
static void say(const char *label, const char *msg)
{
  char line[600];
  int n = snprintf(line, sizeof line, "dsm[%u]: %s: %s\n", dsm__rank, label, msg);
  if (n > 0) {
    ssize_t w = write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    (void)w;
  }
}

void dsm__tell_peers(int status, const char *what)
{
  __atomic_store_n(&leaving, 1, __ATOMIC_RELEASE);
  if (!dsm__peers_known)
    return;
  char reason[512];
  snprintf(reason, sizeof reason, "%d:%s", status, what);
  dsm__tp_broadcast_abort(reason);
}

/* What this process's stdout holds goes out before it stops, when no other
 * thread is in the middle of writing to it (then it is lost, as on _exit). */
static void flush_stdout_if_free(void)
{
  if (ftrylockfile(stdout) == 0) {
    fflush_unlocked(stdout);
    funlockfile(stdout);
  }
}

void dsm__peer_stopped(unsigned src, const char *reason)
{
  if (__atomic_load_n(&leaving, __ATOMIC_ACQUIRE))
    return;
  char *colon;
  long sent = strtol(reason, &colon, 10);
  const char *what = reason;
  if (colon != reason && *colon == ':')
    what = colon + 1;
  else
    sent = DSM__EXIT_FATAL;   /* not in the form above: a failure */
  int status = sent == 0 ? 0 : DSM__EXIT_PEER_LOST;
  enter_once();
  char msg[512];
  snprintf(msg, sizeof msg, "rank %u %s", src, what);
  flush_stdout_if_free();
  say("stopping", msg);
  if (status == 0)
    dsm__launcher_report('P');   /* not the one that ended the job */
  if (status != 0)
    dsm__pmix_abort(status, msg);
  _exit(status);
}

void dsm__fatal(int status, const char *fmt, ...)
{
  enter_once();
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  say(status == DSM__EXIT_PEER_LOST ? "stopping" : "error", msg);
  if (status != DSM__EXIT_PEER_LOST) {
    char what[520];
    snprintf(what, sizeof what, "failed: %s", msg);
    dsm__tell_peers(status, what);
  }
  /* Under mpirun or srun, the launcher ends the other ranks too, even
   * those that have not met this one yet and would wait for it forever. */
  dsm__pmix_abort(status, msg);
  _exit(status);
}

/* ---- the launcher ---------------------------------------------------------
 *
 * dsmrun keeps one end of each rank's lifeline (DSM_LIFELINE): when it
 * stops a job, it first writes why, in one line, and then closes its end;
 * when it dies, the kernel closes it. The transport's service thread watches
 * the lifeline and hands over what it reads and the close. Where the
 * lifeline is a socket (ranks dsmrun starts on its own host or through an
 * exec launcher), dsmrun also reads from it (DSM_REPORT_FD): 'S' when this
 * process has joined the job, 'E' when it leaves in the collective
 * shutdown. A rank that exits 0 after 'S' without 'E' ended the job early
 * (_exit in a parallel region), which nothing else would tell dsmrun. */
static char launcher_said[200];
static size_t launcher_said_len;

void dsm__launcher_says(const char *buf, size_t n)
{
  for (size_t i = 0; i < n && launcher_said_len + 1 < sizeof launcher_said; i++)
    if (buf[i] != '\n')
      launcher_said[launcher_said_len++] = buf[i] < 32 || buf[i] > 126 ? '?' : buf[i];
  launcher_said[launcher_said_len] = 0;
}

void dsm__launcher_gone(void)
{
  if (launcher_said_len)
    dsm__fatal(DSM__EXIT_PEER_LOST, "%s", launcher_said);
  dsm__fatal(DSM__EXIT_PEER_LOST, "the launcher went away (dsmrun was killed, or the "
             "connection to it was lost)");
}

void dsm__launcher_report(char what)
{
  static int fd = -2;
  if (fd == -2) {
    const char *v = getenv("DSM_REPORT_FD");
    char *end;
    long n = v && *v ? strtol(v, &end, 10) : -1;
    fd = n >= 0 && n < (1 << 20) && *end == 0 ? (int)n : -1;
  }
  if (fd < 0)
    return;
  ssize_t w = send(fd, &what, 1, MSG_NOSIGNAL | MSG_DONTWAIT);
  (void)w;
}

void *dsm__xcalloc(size_t n, size_t size)
{
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  return p;
}

/* The arrays a write fault appends to (the written set, the twin pool, the
 * protection queue) live in mappings of their own, grown with mremap, not
 * in libc's heap. A thread's stack is shared memory, and libc's malloc,
 * called on it, writes its own frames there while it holds its arena's
 * lock: the write faults on a page protected at the last release, and a
 * handler calling malloc then waits for that lock forever (the deadlock of
 * a tasks_rt run in CI: a task's calloc, a twin pool growing). */
void *dsm__grow_mapped(void *a, size_t *cap, size_t need, size_t size)
{
  if (need <= *cap)
    return a;
  size_t old = (*cap * size + 4095) & ~(size_t)4095, len = old ? old : 4096;
  while (len < need * size) len *= 2;
  void *n = old ? mremap(a, old, len, MREMAP_MAYMOVE)
                : mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (n == MAP_FAILED) dsm__fatal(DSM__EXIT_FATAL, "out of private memory (%zu bytes)", len);
  *cap = len / size;
  return n;
}

/* Threads that must run as soon as they wake (the service thread, the lock
 * alarm of sync/lock.c). The service thread answers requests while the
 * application thread computes, and bound ranks (bind.c) put both threads on
 * one CPU. The scheduler (EEVDF, Linux 6.6+) lets a thread that wakes up
 * preempt the running one only if its slice is shorter; with equal default
 * slices (1.4 ms here) a PAGE request waited for the computing thread's
 * slice to end: water's master spent 550 us on every fetch from a slave
 * that was inside a region, against 60-90 us for a round trip. So these
 * threads ask for a short slice (sched_attr.sched_runtime of a fair-class
 * thread, Linux 6.12+; older kernels ignore it), DSM_SVC_SLICE_US, 100 us by
 * default, the least the kernel takes; 0 leaves the default. They run for
 * microseconds at a time and then sleep, so they take no time from the
 * computation that they would not have taken anyway, only sooner. */
struct sched_attr_v0 {
  uint32_t size, sched_policy;
  uint64_t sched_flags;
  int32_t sched_nice;
  uint32_t sched_priority;
  uint64_t sched_runtime, sched_deadline, sched_period;
};

void dsm__short_slice(void)
{
  long us = dsm__env_long("DSM_SVC_SLICE_US", 100, 0, 100000);
  if (!us)
    return;
#ifdef SYS_sched_setattr
  struct sched_attr_v0 a = { .size = sizeof a, .sched_policy = SCHED_OTHER,
                             .sched_runtime = (uint64_t)us * 1000 };
  if (syscall(SYS_sched_setattr, 0, &a, 0) != 0)
    DSM__DEBUG("sched_setattr (a %ld us slice): %s", us, strerror(errno));
#endif
}

uint64_t dsm__now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void *dsm__lib_open(const char *env, const char *dflt, int flags, const char **file)
{
  const char *lib = getenv(env);
  if (!lib || !*lib)
    lib = dflt;
  *file = lib;
  return dlopen(lib, flags);
}

void *dsm__lib_sym(void *h, const char *file, const char *name, const char *what)
{
  void *f = dlsym(h, name);
  if (!f)
    dsm__fatal(DSM__EXIT_FATAL, "%s has no %s: not a usable %s", file, name, what);
  return f;
}

long dsm__env_long(const char *name, long dflt, long min, long max)
{
  const char *s = getenv(name);
  if (!s || !*s)
    return dflt;
  char *end;
  errno = 0;
  long v = strtol(s, &end, 0);
  if (errno || *end || v < min || v > max)
    dsm__fatal(DSM__EXIT_FATAL, "%s='%s' is not a number in [%ld, %ld]", name, s, min, max);
  return v;
}
