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
#include <stdlib.h>

#include "dsm_internal.h"
#include "region.h"
#include "runtime.h"
#include "sync.h"

static int exiting;               /* dsm_exit has started */

static void on_exit_hook(int status, void *unused)
{
  /* The program called exit() (or returned from main) without dsm_exit: the
   * others still expect the collective shutdown. A failing exit is not a
   * shutdown: the process just ends, and dsmrun stops the job and names it. */
  if (!exiting && dsm__started && status == 0)
    dsm__exit_collective(status);
  else if (dsm__started)
    dsm__region_exit();   /* a failing exit: leave the globals readable for leak checkers */
}

void dsm_startup(int argc, char **argv)
{
  if (dsm__started)
    return;
  dsm__runtime_init();
  dsm__team = dsm__nprocs;
  dsm__sync_init();
  dsm__runtime_start();
  on_exit(on_exit_hook, NULL);
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
