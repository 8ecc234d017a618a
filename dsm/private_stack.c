/*
 * private_stack.c — running library code on a stack of its own.
 *
 * dsm_main runs the user's main on a stack in shared memory (DESIGN-BRIEF
 * 2, runtime.c), whose pages are write-protected at every release: a fault
 * on one while dsm__mu is held would wait for dsm__mu. So every entry point
 * that takes dsm__mu switches to a private stack first, here. This file
 * sits below the protocol: the allocator and the synchronisation calls use
 * it, and it calls nothing of theirs.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "dsm_internal.h"
#include "private_stack.h"
#include "region.h"

/* The library's stack for this thread: the main thread's is allocated at
 * start; a worker that runs on a shared stack uses its own pthread stack
 * (dsm__call_on_shared_stack); NULL: the thread never leaves its own. */
static __thread void *private_stack_top;

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

/* The gate (threads.c) is taken and let go on the private stack: on the
 * shared one, the call into pthread_mutex_unlock can itself fault (its
 * frame lands on a write-protected page), and that fault would find the
 * gate's count already down while the mutex is still held, and wait for
 * itself. */
struct gated { void (*fn)(void *); void *arg; };

static void gated_call(void *p)
{
  struct gated g = *(struct gated *)p;
  dsm__gate_enter();
  g.fn(g.arg);
  dsm__gate_leave();
}

void dsm__call_on_shared_stack(void (*fn)(void *), void *arg, void *top)
{
  void *saved = private_stack_top;
  /* Below this frame the thread's own stack is unused until fn returns:
   * the library runs there (4 KiB below, clear of what the switch saves). */
  char here;
  private_stack_top = (void *)(((uintptr_t)&here - 4096) & ~(uintptr_t)63);
  dsm__call_on_stack(fn, arg, top);
  private_stack_top = saved;
}

void dsm__on_private_stack(void (*fn)(void *), void *arg)
{
  struct gated g = { fn, arg };
  if (private_stack_top && dsm__is_shared(__builtin_frame_address(0)))
    dsm__call_on_stack(gated_call, &g, private_stack_top);
  else
    gated_call(&g);
}

void dsm__private_stack_init(void)
{
  size_t psz = 1 << 20;
  void *ps = mmap(NULL, psz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (ps == MAP_FAILED)
    dsm__fatal(DSM__EXIT_FATAL, "cannot allocate the library stack: %s", strerror(errno));
  private_stack_top = (char *)ps + psz;
}
