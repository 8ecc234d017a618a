/*
 * runtime.c — joining and leaving a job, and running the master on a shared
 * stack.
 *
 * Master locals (DESIGN-BRIEF 2): dsm_main runs the user's main on a stack
 * that lives in shared memory, so `&local` is a shared address everywhere and
 * any function can hand it to a forked region, in any translation unit,
 * without analysis. The price is that the library must never run protocol
 * code on that stack: its pages are write-protected at every release, and a
 * fault while dsm__mu is held would deadlock. So every entry point that takes
 * dsm__mu first moves to a private stack (dsm__on_private_stack).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "dsm_internal.h"
#include "lrc.h"
#include "onesided.h"
#include "runtime.h"
#include "transport.h"

#if defined(__SANITIZE_ADDRESS__)
/* An AddressSanitizer build (meson -Db_sanitize=address,...): ASan must leave
 * SIGSEGV to libsigsegv, or the first access to an invalid DSM page would be
 * reported as a crash instead of being served as a page fault. Linked into
 * every program that uses libdsm, so no environment variable is needed. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
  return "handle_segv=0:allow_user_segv_handler=1";
}
#endif

#if defined(__SANITIZE_THREAD__)
/* A ThreadSanitizer build: the DSM's page faults are synchronous SIGSEGVs
 * raised by application loads and stores to shared pages, never inside
 * malloc or a lock of the C library (their memory is private), so the
 * protocol code the fault handler runs may allocate and take dsm__mu.
 * TSan's "signal-unsafe call" check assumes asynchronous signals and would
 * flag every fault; data races are still reported. */
const char *__tsan_default_options(void);
const char *__tsan_default_options(void)
{
  return "report_signal_unsafe=0:second_deadlock_stack=1";
}
#endif

static int exiting;               /* dsm_exit has started */
static void *private_stack_top;

/* ---- stack switching -------------------------------------------------------- */

#if defined(__x86_64__)
/* dsm__call_on_stack(fn, arg, top): call fn(arg) with the stack pointer at
 * top, then come back. rbp (callee-saved) keeps the old stack pointer. */
void dsm__call_on_stack(void (*fn)(void *), void *arg, void *top);
__asm__(".text\n"
        ".globl dsm__call_on_stack\n"
        ".type dsm__call_on_stack,@function\n"
        "dsm__call_on_stack:\n"
        "  pushq %rbp\n"
        "  movq %rsp, %rbp\n"
        "  movq %rdx, %rsp\n"
        "  andq $-16, %rsp\n"
        "  movq %rdi, %rax\n"
        "  movq %rsi, %rdi\n"
        "  callq *%rax\n"
        "  movq %rbp, %rsp\n"
        "  popq %rbp\n"
        "  ret\n"
        ".size dsm__call_on_stack, .-dsm__call_on_stack\n");
#elif defined(__aarch64__)
void dsm__call_on_stack(void (*fn)(void *), void *arg, void *top);
__asm__(".text\n"
        ".globl dsm__call_on_stack\n"
        ".type dsm__call_on_stack,%function\n"
        "dsm__call_on_stack:\n"
        "  stp x29, x30, [sp, #-16]!\n"
        "  mov x29, sp\n"
        "  and x2, x2, #~15\n"
        "  mov sp, x2\n"
        "  mov x3, x0\n"
        "  mov x0, x1\n"
        "  blr x3\n"
        "  mov sp, x29\n"
        "  ldp x29, x30, [sp], #16\n"
        "  ret\n");
#else
#error "dsm__call_on_stack: add this architecture"
#endif

void dsm__on_private_stack(void (*fn)(void *), void *arg)
{
  if (private_stack_top && dsm__is_shared(__builtin_frame_address(0)))
    dsm__call_on_stack(fn, arg, private_stack_top);
  else
    fn(arg);
}

/* ---- startup ------------------------------------------------------------------ */

static void on_exit_hook(int status, void *unused)
{
  /* The program called exit() (or returned from main) without dsm_exit: the
   * others still expect the collective shutdown. A failing exit is not a
   * shutdown: the process just ends, and dsmrun stops the job and names it. */
  if (!exiting && dsm__started && status == 0)
    dsm__exit_collective(status);
}

void dsm_startup(int argc, char **argv)
{
  if (dsm__started)
    return;
  dsm__verbose = (int)dsm__env_long("DSM_DEBUG", 0, 0, 9);
  const char *r = getenv("DSM_RANK"), *s = getenv("DSM_SIZE");
  if (r && s) {
    dsm__rank = (unsigned)dsm__env_long("DSM_RANK", 0, 0, DSM__MAX_PROCS - 1);
    dsm__nprocs = (unsigned)dsm__env_long("DSM_SIZE", 1, 1, DSM__MAX_PROCS);
    if (dsm__rank >= dsm__nprocs)
      dsm__fatal(DSM__EXIT_FATAL, "DSM_RANK=%u is not below DSM_SIZE=%u", dsm__rank, dsm__nprocs);
  } else {
    /* Started on its own, like an MPI singleton: a job of one. */
    dsm__rank = 0;
    dsm__nprocs = 1;
  }
  dsm__team = dsm__nprocs;

  size_t psz = 1 << 20;
  void *ps = mmap(NULL, psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (ps == MAP_FAILED)
    dsm__fatal(DSM__EXIT_FATAL, "cannot allocate the library stack: %s", strerror(errno));
  private_stack_top = (char *)ps + psz;

  dsm__region_init();
  dsm__lrc_init();
  dsm__alloc_init();
  dsm__fault_init();
  dsm__os_init();
  dsm__sync_init();
  dsm__stats_init();
  if (dsm__nprocs > 1) {
    dsm__tp_init(dsm__rank, dsm__nprocs);
    dsm__os_start();
  }
  dsm__started = 1;
  on_exit(on_exit_hook, NULL);
  (void)argc;
  (void)argv;
}

unsigned dsm_proc_id(void) { return dsm__rank; }
unsigned dsm_nprocs(void) { return dsm__nprocs; }

/* ---- shutdown ----------------------------------------------------------------- */

static void exit_on_private(void *arg)
{
  int status = *(int *)arg;
  if (dsm__rank == 0)
    dsm__forkjoin_release_slaves(status);
  dsm__stats_report();
  if (dsm__nprocs > 1)
    dsm__tp_shutdown();
  dsm__region_exit();
}

void dsm__exit_collective(int status)
{
  exiting = 1;
  fflush(NULL);
  dsm__on_private_stack(exit_on_private, &status);
}

void dsm_exit(int status)
{
  if (!dsm__started)
    exit(status);
  if (!exiting)
    dsm__exit_collective(status);
  exit(status);
}

/* ---- the fork/join program ------------------------------------------------------ */

struct main_call { int (*fn)(int, char **); int argc; char **argv; int rc; };

static void run_main(void *arg)
{
  struct main_call *c = arg;
  c->rc = c->fn(c->argc, c->argv);
}

void dsm_main(int (*main_fn)(int, char **), int argc, char **argv)
{
  dsm_startup(argc, argv);
  if (dsm__rank != 0)
    dsm_exit(dsm_serve_forks());
  struct main_call c = { main_fn, argc, argv, 0 };
  /* The master's stack: the top of the shared stack segment, 16-byte aligned. */
  void *top = (void *)(dsm__stack_base + dsm__stack_size - 64);
  dsm__forkjoin_mode = 1;
  dsm__call_on_stack(run_main, &c, top);
  dsm_exit(c.rc);
}
