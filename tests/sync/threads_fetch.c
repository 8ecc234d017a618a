/*
 * A slow fetch holds up only the threads that need its page (issue 18).
 * Three processes of two threads: page A is homed at rank 0, page B at
 * rank 2. On rank 1, thread 0 stops rank 0 (SIGSTOP) and reads A, so its
 * fetch cannot be answered; thread 1 then reads B, whose home is running.
 * Thread 1 must get B while thread 0 still waits for A, and only then lets
 * rank 0 go on (SIGCONT). If a fetch kept the process's other threads out
 * of the protocol until its reply, thread 1 would wait for thread 0, which
 * waits for rank 0, which waits for thread 1: the job would hang until
 * dsmrun --max-time stops it.
 */
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "check.h"
#include "omp.h"
#include "ompdsm_rt.h"

struct shared {
  long *a;        /* a page homed at rank 0 */
  long *b;        /* a page homed at rank 2 */
  pid_t pid0;
  long got_b_first;
};

static int stopped;        /* rank 1, private: thread 0 has stopped rank 0 */

static void nap_ms(long ms)
{
  struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
  nanosleep(&ts, NULL);
}

static void region(void *p)
{
  struct shared *s = *(struct shared **)p;
  int me = omp_get_thread_num();
  if (me == 2 * 2) {                          /* rank 2, thread 0 */
    long *b = __ompdsm_malloc(4096);
    for (int i = 0; i < 512; i++)
      b[i] = 7 * i + 2;
    s->b = b;
  }
  __ompdsm_barrier();
  if (me == 2) {                              /* rank 1, thread 0 */
    CHECK(kill(s->pid0, SIGSTOP) == 0);
    __atomic_store_n(&stopped, 1, __ATOMIC_RELEASE);
    long v = s->a[100];                       /* waits until rank 0 runs again */
    CHECK_EQ(v, 3 * 100 + 1);
  } else if (me == 3) {                       /* rank 1, thread 1 */
    while (!__atomic_load_n(&stopped, __ATOMIC_ACQUIRE))
      nap_ms(1);
    nap_ms(200);                              /* thread 0 is in its fetch by now */
    long v = s->b[100];
    CHECK_EQ(v, 7 * 100 + 2);
    s->got_b_first = 1;                       /* rank 0 is still stopped */
    CHECK(kill(s->pid0, SIGCONT) == 0);
  }
  __ompdsm_barrier();
}

static int real_main(int argc, char **argv)
{
  (void)argc;
  (void)argv;
  CHECK_EQ(dsm_nprocs(), 3);
  CHECK_EQ(dsm_threads(), 2);
  struct shared *s = __ompdsm_calloc(1, sizeof *s);
  s->a = __ompdsm_malloc(4096);
  for (int i = 0; i < 512; i++)
    s->a[i] = 3 * i + 1;
  s->pid0 = getpid();
  __ompdsm_parallel(region, &s, sizeof s, 0, 1);
  CHECK_EQ(s->got_b_first, 1);
  printf("threads_fetch: a thread fetched a page while its sibling's fetch waited\n");
  return 0;
}

int main(int argc, char **argv)
{
  __ompdsm_main(real_main, argc, argv);
}
