/*
 * crash.c — a process killed by a fatal signal: what it says, what it
 * tells the others, and what its core file holds.
 *
 * On one machine a crashing OpenMP program dies at once, and a debugger or
 * a core file says where. In a job, the crashing rank's peers would wait
 * for it until dsmrun stops them, and dsmrun can only say "killed by signal
 * SIGSEGV" (issue 56). So a fatal signal (SIGSEGV and SIGBUS outside the
 * DSM's own faults, SIGFPE, SIGILL, SIGABRT) is reported here first, as
 * Open MPI's handler does: the signal, the faulting address and a
 * backtrace, each frame named by function and, for code built with -g,
 * file:line (addr2line, when installed). Then the peers are told (util.c),
 * so the job ends at once, and the signal takes its default action: the
 * process still dies by it, with its core file if the limits allow one.
 *
 * Core files leave out the DSM's reservations (MADV_DONTDUMP): the system
 * view of the memory file and the heap's application view span the whole
 * DSM_HEAP_MB (16 GiB by default); a core with them was a gigabyte long
 * and took long enough to write that the job lingered. The shared globals and the master's stack stay in the
 * core, so a debugger still shows the master's locals. DSM_CORE_HEAP=1
 * keeps the heap's view in the core as well.
 *
 * Not done: a backtrace of the other threads, and frames that the unwinder
 * cannot cross (code without unwind tables).
 *
 * The report runs in the signal handler of a process that is going down:
 * it writes with write(2), formats on the stack, and starts addr2line with
 * vfork, which takes no lock of libc's (a crash inside malloc may hold its
 * arena's). dladdr and backtrace are not async-signal-safe in general;
 * backtrace is called once at start-up so that it has loaded libgcc's
 * unwinder before any crash.
 */
#include <dlfcn.h>
#include <elf.h>
#include <sched.h>
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

#include "dsm_internal.h"
#include "region.h"

#define MAX_FRAMES 48

/* The signals handled here; SIGSEGV and SIGBUS only where libsigsegv does
 * not have them (a job of one process), else fault.c calls
 * dsm__crash_report for the faults that are not the DSM's. */
static const int fatal_sigs[] = { SIGFPE, SIGILL, SIGABRT, SIGSEGV, SIGBUS };

static int crashed;   /* one thread reports; the others wait to die with it */
static pid_t reporter;  /* the thread that reports, and its signal */
static int first_sig;
/* The return address of the handler: the kernel's signal trampoline. */
static void *trampoline;

/* One line (or part of one) to stderr. */
static void put(const char *s)
{
  size_t n = strlen(s);
  while (n) {
    ssize_t w = write(2, s, n);
    if (w <= 0)
      return;
    s += w;
    n -= (size_t)w;
  }
}

/* The unwinder gives return addresses: the call is the byte before. */
static uintptr_t call_site(void *ret, int exact)
{
  return exact ? (uintptr_t)ret : (uintptr_t)ret - 1;
}

/* Where addr2line is, found once at start-up (the handler must not search). */
static char addr2line[256];

static void find_addr2line(void)
{
  const char *path = getenv("PATH");
  if (!path)
    path = "/usr/bin:/bin";
  while (*path) {
    size_t n = strcspn(path, ":");
    if (n && n + sizeof "/addr2line" < sizeof addr2line) {
      memcpy(addr2line, path, n);
      memcpy(addr2line + n, "/addr2line", sizeof "/addr2line");
      if (access(addr2line, X_OK) == 0)
        return;
    }
    path += n;
    if (*path == ':')
      path++;
  }
  addr2line[0] = 0;
}

struct child { char **argv; int out; };

static int run_addr2line(void *arg)
{
  struct child *c = arg;
  dup2(c->out, 1);
  int null = open("/dev/null", O_WRONLY);
  if (null >= 0)
    dup2(null, 2);
  execv(c->argv[0], c->argv);
  _exit(127);
}

/* "function at file:line" for the code address pc of the object file, by
 * addr2line into out; 0 when that cannot be had. */
static int symbolize(const char *file, uintptr_t pc, char *out, size_t cap)
{
  if (!addr2line[0])
    return 0;
  int p[2];
  if (pipe(p) != 0)
    return 0;
  char addr[32];
  snprintf(addr, sizeof addr, "0x%lx", (unsigned long)pc);
  char *argv[] = { addr2line, "-f", "-C", "-p", "-e", (char *)file, addr, NULL };
  struct child c = { argv, p[1] };
  /* clone as posix_spawn does it: the child shares our memory until it
   * execs, on a stack of its own, and runs no fork handlers. (vfork's
   * AddressSanitizer interceptor crashed on the signal stack.) */
  static char child_stack[64 * 1024] __attribute__((aligned(16)));
  pid_t pid = clone(run_addr2line, child_stack + sizeof child_stack,
                    CLONE_VM | CLONE_VFORK | SIGCHLD, &c);
  close(p[1]);
  size_t len = 0;
  if (pid > 0) {
    ssize_t n;
    while (len + 1 < cap && (n = read(p[0], out + len, cap - 1 - len)) > 0)
      len += (size_t)n;
    waitpid(pid, NULL, 0);
  }
  close(p[0]);
  while (len && (out[len - 1] == '\n' || out[len - 1] == ' '))
    len--;
  out[len] = 0;
  /* "?? ??:0": addr2line knows nothing of it. Without -g it knows the
   * function but not the line: "f at file:?" says only "f". */
  if (len > 2 && !strcmp(out + len - 2, ":?")) {
    char *at = strstr(out, " at ");
    if (at)
      *at = 0;
  }
  return len && strncmp(out, "??", 2) != 0;
}

/* One frame: "#N 0xADDR in function at file:line (object)". */
static void frame_line(unsigned n, void *ret, int exact)
{
  char line[768], where[512];
  uintptr_t pc = call_site(ret, exact);
  Dl_info di;
  int have = dladdr((void *)pc, &di) && di.dli_fname;
  const char *obj = have ? di.dli_fname : NULL;
  int named = 0;
  if (have) {
    /* addr2line takes addresses of the file: a shared object's (and a
     * position-independent executable's) are relative to where it is
     * loaded; a fixed-position executable's are the address itself. */
    const Elf64_Ehdr *eh = di.dli_fbase;
    uintptr_t at = eh && eh->e_type == ET_EXEC ? pc : pc - (uintptr_t)di.dli_fbase;
    const char *file = obj[0] ? obj : "/proc/self/exe";
    named = symbolize(file, at, where, sizeof where);
    if (!named && di.dli_sname) {
      snprintf(where, sizeof where, "%s+0x%lx", di.dli_sname,
               (unsigned long)(pc - (uintptr_t)di.dli_saddr));
      named = 1;
    }
  }
  snprintf(line, sizeof line, "dsm[%u]:   #%u 0x%lx in %s (%s)\n", dsm__rank, n,
           (unsigned long)pc, named ? where : "??", obj && obj[0] ? obj : "the executable");
  put(line);
}

/* The frames from the one that faulted (pc, when known) outward. */
static void backtrace_report(uintptr_t pc)
{
  void *f[MAX_FRAMES];
  int n = backtrace(f, MAX_FRAMES);
  int from = 0;
  /* Skip this handler's own frames: the interrupted code's frame is the
   * one at the faulting pc (the unwinder crosses the signal frame to it
   * and reports the pc itself, not a return address); for a signal that
   * was sent, the one after the signal trampoline. */
  for (int i = 0; i < n; i++)
    if (pc ? (uintptr_t)f[i] == pc : (f[i] == trampoline && i + 1 < n)) {
      from = pc ? i : i + 1;
      break;
    }
  char head[96];
  snprintf(head, sizeof head, "dsm[%u]: backtrace (the failing call first):\n", dsm__rank);
  put(head);
  for (int i = from, k = 0; i < n; i++, k++)
    frame_line((unsigned)k, f[i], i == from && pc);
}

static const char *code_name(int sig, int code)
{
  if (sig == SIGSEGV)
    return code == SEGV_MAPERR ? "address not mapped"
         : code == SEGV_ACCERR ? "no permission for the access" : NULL;
  if (sig == SIGBUS)
    return code == BUS_ADRERR ? "no memory behind the address"
         : code == BUS_ADRALN ? "misaligned address" : NULL;
  if (sig == SIGFPE)
    return code == FPE_INTDIV ? "integer division by zero"
         : code == FPE_INTOVF ? "integer overflow" : NULL;
  if (sig == SIGILL)
    return "illegal instruction";
  return NULL;
}

void dsm__crash_report(int sig, int code, const void *addr, uintptr_t pc)
{
  if (__atomic_exchange_n(&crashed, 1, __ATOMIC_ACQ_REL)) {
    if (reporter == gettid()) {
      /* The report itself failed: die of the first signal, as planned. */
      put("dsm: (the backtrace failed)\n");
      signal(first_sig, SIG_DFL);
      sigset_t s;
      sigemptyset(&s);
      sigaddset(&s, first_sig);
      sigprocmask(SIG_UNBLOCK, &s, NULL);
      raise(first_sig);
      _exit(128 + first_sig);
    }
    for (;;) pause();   /* another thread reports; it ends the process */
  }
  reporter = gettid();
  first_sig = sig;
  char sname[16] = "SIG";
  const char *abbrev = sigabbrev_np(sig);
  snprintf(sname + 3, sizeof sname - 3, "%s", abbrev ? abbrev : "?");
  const char *what = code_name(sig, code);
  int faults = sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL;
  char where[160] = "";
  if (faults && addr) {
    long pg = dsm__page_of(addr);
    snprintf(where, sizeof where, " at address %p%s%s%s", addr, what ? " (" : "",
             what ? what : "", what ? ")" : "");
    if (pg >= 0)
      snprintf(where + strlen(where), sizeof where - strlen(where),
               ", in shared memory");
  }
  char line[300];
  snprintf(line, sizeof line, "dsm[%u]: killed by %s%s\n", dsm__rank, sname, where);
  put(line);
  /* The others first: whatever the backtrace meets, the job ends now. */
  char tell[220];
  snprintf(tell, sizeof tell, "was killed by %s%s", sname, where);
  dsm__launcher_report('X');
  dsm__tell_peers(128 + sig, tell);
  backtrace_report(pc);
}

static void on_fatal_signal(int sig, siginfo_t *si, void *ucv)
{
  trampoline = __builtin_return_address(0);
  uintptr_t pc = 0;
#if defined(__x86_64__) && defined(REG_RIP)
  pc = (uintptr_t)((ucontext_t *)ucv)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
  pc = (uintptr_t)((ucontext_t *)ucv)->uc_mcontext.pc;
#else
  (void)ucv;
#endif
  /* abort() and kill: no faulting instruction, the backtrace starts here. */
  if (si->si_code <= 0)
    pc = 0;
  dsm__crash_report(sig, si->si_code, si->si_addr, pc);
  /* Default action now. A fault comes back when the instruction runs
   * again; a signal that was sent is sent again. */
  signal(sig, SIG_DFL);
  if (si->si_code <= 0)
    raise(sig);
}

/* The DSM's reservations out of core files (see the top). */
static void keep_out_of_cores(void)
{
  if (dsm__env_long("DSM_CORE_HEAP", 0, 0, 1) == 0)
    for (unsigned i = 0; i < dsm__nsegs; i++)
      if (dsm__segs[i].home < 0)   /* the heap: homes by slice */
        (void)madvise((void *)dsm__segs[i].base, dsm__segs[i].size, MADV_DONTDUMP);
  size_t total = 0;
  for (unsigned i = 0; i < dsm__nsegs; i++)
    total = dsm__segs[i].off + dsm__segs[i].size;
  if (dsm__sysview && total)
    (void)madvise(dsm__sysview, total, MADV_DONTDUMP);
}

void dsm__crash_init(int segv_too)
{
  keep_out_of_cores();
  /* The report of a stack overflow needs a stack of its own; fault.c gave
   * the main thread one when the DSM protects pages, else it is here. */
  stack_t cur;
  if (sigaltstack(NULL, &cur) == 0 && (cur.ss_flags & SS_DISABLE)) {
    static char altstack[128 * 1024] __attribute__((aligned(16)));
    stack_t ss = { .ss_sp = altstack, .ss_size = sizeof altstack, .ss_flags = 0 };
    (void)sigaltstack(&ss, NULL);
  }
  find_addr2line();
  void *warm[2];
  (void)backtrace(warm, 2);   /* loads the unwinder now, not in a handler */
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_fatal_signal;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
  sigemptyset(&sa.sa_mask);
  for (unsigned i = 0; i < sizeof fatal_sigs / sizeof fatal_sigs[0]; i++) {
    int sig = fatal_sigs[i];
    if ((sig == SIGSEGV || sig == SIGBUS) && !segv_too)
      continue;
    /* A handler the program or a sanitizer installed before us stays. */
    struct sigaction old;
    if (sigaction(sig, NULL, &old) == 0 && (old.sa_flags & SA_SIGINFO ? 1 :
                                            old.sa_handler != SIG_DFL))
      continue;
    sigaction(sig, &sa, NULL);
  }
}
