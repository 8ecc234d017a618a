/*
 * task.c — OpenMP tasks (ompdsm_rt.h: __ompdsm_task and friends).
 *
 * First step: every task is included (run at once by the thread that meets
 * it, which OpenMP allows for any task). Children are then complete before
 * their creator goes on, so taskwait and taskgroup have nothing to wait for.
 */
#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"
#include "omp.h"
#include "ompdsm_rt.h"

static int final_depth;      /* > 0 inside a final task */
static int tasks_used;

void __ompdsm_tasks_used(void) { tasks_used = 1; }

void __ompdsm_task(void (*fn)(void *), void *data, size_t size, int flags,
                   unsigned ndeps, const ompdsm_dep_t *deps, int priority)
{
  (void)ndeps; (void)deps; (void)priority;
  /* A private copy: the task must see the values at creation even if it
   * changes its firstprivates (the block is the caller's). */
  void *copy = malloc(size ? size : 1);
  if (!copy) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  memcpy(copy, data, size);
  int fin = (flags & OMPDSM_TASK_FINAL) != 0 || final_depth > 0;
  if (fin) final_depth++;
  fn(copy);
  if (fin) final_depth--;
  free(copy);
}

void __ompdsm_taskwait(void) {}
void __ompdsm_taskyield(void) {}
void __ompdsm_taskgroup_start(void) {}
void __ompdsm_taskgroup_end(void) {}

int omp_in_final(void) { return final_depth > 0; }
int omp_get_max_task_priority(void) { return 0; }
