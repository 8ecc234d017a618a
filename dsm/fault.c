/*
 * fault.c — access detection.
 *
 * The application view's protections say what this process may do with a
 * page: PROT_NONE when its copy is out of date (or it has none), read-only
 * when it may read but a write must be noticed, read-write while it is
 * written in the open interval, or for good while it is exclusive or hot
 * (hot.c) at its home. libsigsegv delivers the faults; the handler runs on an alternate
 * signal stack because the master's own stack is shared memory and may be
 * the page that faulted.
 *
 * A read fault refreshes the copy (fetch.c), or at the home waits for the
 * diffs its copy lacks (home.c). A write fault records the page as written
 * in the open interval and takes a twin: away from the home, the release
 * makes the diff that goes home from it; at the home, it is the page as of
 * the last release, which is what others are served meanwhile.
 *
 * Locking: dsm__mu is never held while waiting for the network, and the
 * service thread never waits for anything the application thread holds.
 * A write fault calls nothing that takes a lock of libc's: a thread's
 * stack is shared memory, so the fault may come from inside malloc, whose
 * frames on that stack are written while it holds its arena's lock (the
 * arrays the write fault grows are mappings of their own: util.c,
 * dsm__grow_mapped).
 */
#include <errno.h>
#include <signal.h>
#include <sigsegv.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>

#include "dsm_internal.h"
#include "lrc.h"
#include "page_state.h"
#include "onesided.h"
#include "profile.h"
#include "net/transport.h"

/* A write to a readable page: record the page as written in the open
 * interval. Away from the home, the twin is what the release diffs against.
 * At the home, the twin is what a fetch is answered with until the release
 * (home.c): a copy never holds writes of an interval its version vector
 * does not claim, so a value the home writes and takes back within one
 * interval never leaves it. */
static void write_fault_locked(uint32_t pg)
{
  dsm__page_t *p = dsm__page(pg);
  if (p->prot == DSM__PROT_READ) {
    DSM__STAT_INC(write_faults);
    dsm__prof_fault(pg, 1);
    DSM__DEBUG("write fault on page %u (home %u, excl %d)", pg, p->home, p->excl);
    DSM__ASSERT(!p->twin);
    p->twin = dsm__twin_alloc();
    memcpy(p->twin, dsm__page_current(pg), DSM__PAGE);
    DSM__STAT_INC(twins);
    if (p->home == dsm__rank) {
      /* One-sided readers must not take the page while it is written. */
      dsm__os_home_begin(pg);
    }
    p->dirty = 1;
    dsm__dirty_add(pg);
    dsm__set_prot(pg, DSM__PROT_WRITE);
    dsm__write_ahead(pg);
    dsm__page_check(pg, "a write fault");
  }
}

static void write_fault(uint32_t pg)
{
  pthread_mutex_lock(&dsm__mu);
  write_fault_locked(pg);
  pthread_mutex_unlock(&dsm__mu);
}

/* libsigsegv does not say whether the access was a read or a write, but
 * the processor does: on x86-64 the page fault error code in the signal
 * context has bit 1 set for a write. A small signal handler in front of
 * libsigsegv's notes it for the faulting thread, so that a write to an
 * invalid page is fetched and opened for writing in one fault instead of
 * two (a signal delivery costs ~20 us on a paravirtualised guest, more
 * than the twin). Elsewhere the bit stays clear: the page is made readable
 * first and the write faults a second time, as libsigsegv alone would. */
static __thread int fault_write __attribute__((tls_model("initial-exec")));
/* The writable page this thread last faulted on (threads.c: a fault lost to
 * another thread's), -1 when the last fault was served. */
static __thread long retried __attribute__((tls_model("initial-exec"))) = -1;
static struct sigaction sigsegv_next;
/* The SIGSEGV's code and the faulting instruction, for the crash report of
 * a fault that is not the DSM's (crash.c); 0 when the signal was SIGBUS. */
static __thread int fault_code __attribute__((tls_model("initial-exec")));
static __thread uintptr_t fault_pc __attribute__((tls_model("initial-exec")));

static void note_fault_kind(int sig, siginfo_t *si, void *uc)
{
#if defined(__x86_64__) && defined(REG_ERR)
  fault_write = (((ucontext_t *)uc)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#endif
  fault_code = si->si_code;
#if defined(__x86_64__) && defined(REG_RIP)
  fault_pc = (uintptr_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
  fault_pc = (uintptr_t)((ucontext_t *)uc)->uc_mcontext.pc;
#endif
  if (sigsegv_next.sa_flags & SA_SIGINFO)
    sigsegv_next.sa_sigaction(sig, si, uc);
  else if (sigsegv_next.sa_handler != SIG_DFL && sigsegv_next.sa_handler != SIG_IGN)
    sigsegv_next.sa_handler(sig);
}

/* A fault that is not the DSM's: crash.c reports it (code 0: the signal
 * was a SIGBUS, which note_fault_kind does not see). */
static void crash(int code, void *addr, uintptr_t pc)
{
  fault_code = 0;
  fault_pc = 0;
  dsm__crash_report(code ? SIGSEGV : SIGBUS, code, addr, pc);
}

/* libsigsegv calls this for every fault; 0 means "not ours". */
static int on_fault(void *addr, int serious)
{
  int write = fault_write, code = fault_code;
  uintptr_t pc = fault_pc;
  fault_write = 0;
  long pg = dsm__page_of(addr);
  if (pg < 0) {
    /* The program's own bad access. libsigsegv asks twice, the second
     * time as `serious`, and then gives the signal its default action:
     * the report comes at the second (the code and pc are kept for it). */
    DSM__DEBUG("fault at %p outside shared memory", addr);
    if (serious)
      crash(code, addr, pc);
    return 0;
  }
  fault_code = 0;
  fault_pc = 0;
  DSM__STAT_INC(fault_signals);
  /* With several threads in the process (threads.c), another may have
   * served this page between the access and the gate: what the page
   * allows now decides. */
  dsm__gate_enter();
  pthread_mutex_lock(&dsm__mu);
  int prot = dsm__page((uint32_t)pg)->prot;
  /* A readable page faults on a write, unless another thread made it
   * readable meanwhile; where the fault's kind is unknown (not x86-64), a
   * second fault of this thread on the page says it was a write. */
  int as_write = prot == DSM__PROT_READ && (write || dsm__threads == 1 || pg == retried);
  if (as_write)
    write_fault_locked((uint32_t)pg);   /* the common write fault: one lock, not two */
  pthread_mutex_unlock(&dsm__mu);
  int ours = 1;
  if (prot == DSM__PROT_NONE) {
    /* This fault may wait for a peer (see transport.h). A write fault
     * waits for none, and must not send: it may have interrupted libc's
     * malloc holding its arena's lock (see dsm__grow_mapped), and sending
     * allocates. */
    if (dsm__tp_first_use)
      dsm__tp_first_use();
    DSM__STAT_INC(read_faults);
    dsm__prof_fault((uint32_t)pg, 0);
    uint64_t t0 = dsm__prof_on ? dsm__now_ns() : 0;
    dsm__fetch_page((uint32_t)pg, write);
    if (write)
      write_fault((uint32_t)pg);
    if (t0)
      dsm__prof_span("fault", t0, dsm__now_ns(), dsm__page_addr((uint32_t)pg));
  } else if (prot != DSM__PROT_READ) {
    /* Writable and faulting: another thread of this process opened the
     * page while this one waited for the gate, which the access will
     * find when it runs again; but the same page faulting twice in a row
     * while writable is not a protocol fault. */
    ours = dsm__threads > 1 && pg != retried;
    retried = ours ? pg : -1;
    if (!ours) {
      DSM__DEBUG("fault at %p on writable page %ld: not a protocol fault", addr, pg);
      if (serious) {
        dsm__gate_leave();
        crash(code, addr, pc);
        return 0;
      }
    }
  } else {
    retried = as_write ? -1 : pg;
  }
  if (prot == DSM__PROT_NONE)
    retried = -1;
  dsm__gate_leave();
  return ours;
}

/* A thread the runtime starts (an OpenMP worker) gets its own alternate
 * signal stack: the handler may fetch a page, which takes more stack than
 * a small thread's guard allows to be sure of, and the thread may run on a
 * stack in shared memory. */
void dsm__fault_thread_init(void)
{
  /* Also without protection (a job of one): the crash report of a stack
   * overflow (crash.c) runs on it, or the thread dies unreported. */
  size_t sz = 256 * 1024;
  void *st = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (st == MAP_FAILED)
    dsm__fatal(DSM__EXIT_FATAL, "cannot allocate a signal stack: %s", strerror(errno));
  stack_t ss = { .ss_sp = st, .ss_size = sz, .ss_flags = 0 };
  if (sigaltstack(&ss, NULL) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "sigaltstack: %s", strerror(errno));
}

void dsm__fault_init(void)
{
  if (!dsm__protect)
    return;
  /* The handler must not run on the faulting stack: it may be the master's
   * shared stack, whose page is what faulted. */
  static char altstack[256 * 1024] __attribute__((aligned(16)));
  stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0 };
  if (sigaltstack(&ss, NULL) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "sigaltstack: %s", strerror(errno));
  if (sigsegv_install_handler(on_fault) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "cannot install the page fault handler (libsigsegv)");
  /* libsigsegv installs its handler without SA_ONSTACK unless a stack
   * overflow handler is also installed; add it. */
  int sigs[] = { SIGSEGV, SIGBUS };
  for (unsigned i = 0; i < 2; i++) {
    struct sigaction sa;
    if (sigaction(sigs[i], NULL, &sa) == 0 && sa.sa_handler != SIG_DFL) {
      sa.sa_flags |= SA_ONSTACK;
      sigaction(sigs[i], &sa, NULL);
    }
  }
  /* In front of libsigsegv's handler for SIGSEGV: the fault's kind. Same
   * mask and flags, so it runs on the alternate stack too. */
  struct sigaction sa;
  if (sigaction(SIGSEGV, NULL, &sigsegv_next) == 0 && sigsegv_next.sa_handler != SIG_DFL) {
    sa = sigsegv_next;
    sa.sa_sigaction = note_fault_kind;
    sa.sa_flags |= SA_SIGINFO | SA_ONSTACK;
    sigaction(SIGSEGV, &sa, NULL);
  }
}
