/*
 * job.c — joining and leaving a job, and the fork/join program's main.
 *
 * The order of start-up matters: the protocol layer first (its state and
 * message handlers, dsm/runtime.c), then synchronization's handlers, then
 * the network, which may deliver any message as soon as it is up.
 *
 * Master locals (DESIGN-BRIEF 2): dsm_main runs the user's main on a stack
 * that lives in shared memory, so `&local` is a shared address everywhere and
 * any function can hand it to a forked region, in any translation unit,
 * without analysis (docs/design.md explains the choice).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dsm_internal.h"
#include "region.h"
#include "private_stack.h"
#include "runtime.h"
#include "sync.h"

static int exiting;               /* dsm_exit has started */
static pid_t job_pid;             /* this process, not a child it forked */

/* May an exit with this status be the job's collective shutdown? Only where
 * every other process can take part in it: in a fork/join program, the
 * master outside a parallel region (the slaves wait for its next FORK, and
 * the shutdown's FORK releases them); in an SPMD program, an exit with 0
 * (each process leaves through the same collective). Anything else (a
 * slave's exit, the master's inside a region, a failing SPMD exit) happens
 * while the others are busy or waiting for this process: waiting for them
 * would hang the job, as in issue 56 (thread 1 called exit(0) while thread
 * 0 waited at a barrier). */
static int can_leave_together(int status)
{
  if (dsm__nprocs == 1)
    return 1;
  if (dsm__forkjoin_mode)
    return dsm__rank == 0 && !dsm__forkjoin_in_region();
  return status == 0;
}

static void on_exit_hook(int status, void *unused)
{
  (void)unused;
  if (!dsm__started || getpid() != job_pid)
    return;   /* a child the program forked: it is not a member of the job */
  if (exiting) {
    dsm__region_exit();   /* after the collective shutdown */
    return;
  }
  if (can_leave_together(status)) {
    dsm__exit_collective(status);
    return;
  }
  /* This process ends the job, as exit() ends an OpenMP program on one
   * machine: the others are told now (they stop, with status 0 when this
   * status is 0: util.c), and dsmrun names this process. */
  char what[96];
  snprintf(what, sizeof what, "exited with status %d%s", status,
           dsm__forkjoin_mode ? " inside a parallel region, which ends the job" : "");
  dsm__launcher_report('X');
  dsm__tell_peers(status, what);
  dsm__region_exit();     /* leave the globals readable for leak checkers */
}

void dsm_startup(int argc, char **argv)
{
  if (dsm__started)
    return;
  dsm__runtime_init();
  dsm__team = dsm__nprocs;
  dsm__sync_init();
  dsm__runtime_start();
  job_pid = getpid();
  on_exit(on_exit_hook, NULL);
  dsm__launcher_report('S');
  (void)argc;
  (void)argv;
}

static void exit_on_private(void *arg)
{
  int status = *(int *)arg;
  if (dsm__rank == 0)
    dsm__forkjoin_release_slaves(status);
  dsm__runtime_exit();
}

void dsm__exit_collective(int status)
{
  exiting = 1;
  fflush(NULL);
  dsm__on_private_stack(exit_on_private, &status);
  dsm__launcher_report('E');
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

/* The program's arguments, copied where every process can read them: the
 * kernel puts argv's strings on the master's own stack, so a pointer to
 * one (a file name taken from argv and read in a region) meant nothing to
 * the other processes, where gcc's threads all see it (issue 56). */
static char **shared_argv(int argc, char **argv)
{
  size_t bytes = ((size_t)argc + 1) * sizeof(char *);
  for (int i = 0; i < argc; i++)
    bytes += strlen(argv[i]) + 1;
  char **v = dsm__malloc_from(bytes, "main's arguments (argv)", NULL);
  if (!v)
    return argv;
  char *at = (char *)(v + argc + 1);
  for (int i = 0; i < argc; i++) {
    size_t n = strlen(argv[i]) + 1;
    memcpy(at, argv[i], n);
    v[i] = at;
    at += n;
  }
  v[argc] = NULL;
  return v;
}

void dsm_main(int (*main_fn)(int, char **), int argc, char **argv)
{
  dsm_startup(argc, argv);
  dsm__forkjoin_mode = 1;
  if (dsm__rank != 0) {
    /* The master's status is the program's: a slave leaves with 0, so
     * that dsmrun names the master when its main returns non-zero, not
     * the first slave to exit with the same status (issue 56). */
    (void)dsm_serve_forks();
    dsm_exit(0);
  }
  if (dsm__nprocs > 1)
    argv = shared_argv(argc, argv);
  struct main_call c = { main_fn, argc, argv, 0 };
  /* The master's stack: the top of the shared stack segment, 16-byte aligned. */
  void *top = (void *)(dsm__stack_base + dsm__stack_size - 64);
  dsm__call_on_stack(run_main, &c, top);
  dsm_exit(c.rc);
}
