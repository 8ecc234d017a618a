/*
 * A write fault that interrupts libc's malloc must not call malloc.
 *
 * The master's stack is shared memory (sync/job.c), so malloc, called by
 * the program or by the runtime on that stack, writes its own frames to
 * pages that the last release write-protected, while it holds its arena's
 * lock. The fault handler then runs on the same thread: had it called
 * malloc (to grow the twin pool or the written set, or to answer the JOINs
 * the master holds), it would wait for that lock forever. A clean-clone CI
 * run of tasks_rt hung so: a task's calloc faulted on the shared stack and
 * the handler's realloc of the twin pool waited for the arena.
 *
 * Here malloc, calloc, realloc and free are this program's: they call
 * libc's, and while the master thread is inside one (armed), they first
 * write PAD bytes of stack below them, which faults on every page the last
 * join protected, as libc's own frames would. Entering one of them again
 * on the same thread, from the handler, ends the test with a failure.
 * The slaves read those stack pages in each region, so the master's copy
 * is not exclusive and its pages are write-protected at every release;
 * PAD spans more pages than the twin pool's first chunk, so the pool grows
 * from inside the handler. At the end the master must have taken write
 * faults inside malloc, or the test did not test.
 */
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include "check.h"
#include "region.h"
#include "sync.h"

void *__libc_malloc(size_t);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void __libc_free(void *);

#define PAD (96 * 4096)           /* more pages than a twin chunk (64) */
#define ROUNDS 12

static __thread int inside, armed;
static volatile uintptr_t pad_lo, pad_hi;   /* where the pad was */

/* Its own frame: only armed calls move the stack pointer this far (the
 * runtime's private stacks and the signal stack are smaller). */
static __attribute__((noinline)) void write_pad(void)
{
  volatile char pad[PAD];
  for (size_t i = 0; i < PAD; i += 512)
    pad[i] = (char)i;
  pad_lo = (uintptr_t)pad;
  pad_hi = (uintptr_t)pad + PAD;
}

static void enter(void)
{
  if (inside) {
    static const char m[] = "fault_in_malloc: FAILED: malloc entered again on the thread "
                            "inside it (from the page fault handler)\n";
    ssize_t w = write(2, m, sizeof m - 1);
    (void)w;
    _exit(1);
  }
  inside = 1;
  if (armed)
    write_pad();
}

void *malloc(size_t n)
{
  enter();
  void *p = __libc_malloc(n);
  inside = 0;
  return p;
}

void *calloc(size_t n, size_t m)
{
  enter();
  void *p = __libc_calloc(n, m);
  inside = 0;
  return p;
}

void *realloc(void *q, size_t n)
{
  enter();
  void *p = __libc_realloc(q, n);
  inside = 0;
  return p;
}

void free(void *q)
{
  if (!q)
    return;                 /* libc's takes no lock for it (qsort calls it so) */
  enter();
  __libc_free(q);
  inside = 0;
}

struct arg { const char *lo, *hi; long *sum; };

static void body(void *p)
{
  struct arg *a = p;
  unsigned me = dsm_proc_id();
  if (me == 0)
    return;
  /* Read the master's stack where its malloc writes: a copy here. */
  long s = 0;
  for (const volatile char *c = a->lo; c < a->hi; c += 4096)
    s += *c;
  a->sum[me] = s + 1;
}

static int real_main(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  unsigned n = dsm_nprocs();
  long *sum = dsm_malloc(64 * sizeof(long));
  CHECK(n <= 64);
  long inside_faults = 0;
  for (int round = 0; round < ROUNDS; round++) {
    long w0 = dsm_stat("write_faults");
    armed = 1;
    void *p = malloc(100 + (size_t)round);
    armed = 0;
    inside_faults += dsm_stat("write_faults") - w0;
    CHECK(p != NULL);
    free(p);
    CHECK(dsm__is_shared((void *)pad_lo));
    struct arg a = { (const char *)pad_lo, (const char *)pad_hi, sum };
    dsm__fork_team(body, &a, sizeof a, n);
    dsm_join();
    for (unsigned r = 1; r < n; r++)
      CHECK(sum[r] > 0);
  }
  printf("fault_in_malloc: %u processes, %d rounds: %ld write faults inside malloc\n", n,
         ROUNDS, inside_faults);
  if (n > 1)
    CHECK(inside_faults > 64);
  printf("fault_in_malloc: OK\n");
  return 0;
}

int main(int argc, char **argv)
{
  dsm_main(real_main, argc, argv);
}
