/*
 * deferred_tasks.c — a stand-in for the task entry points of libdsm, for
 * testing what ompdsmcc generates (run_deferred.sh links it first).
 *
 * A runtime that runs every task at once hides lowering bugs: a firstprivate
 * captured by reference, a dependence left out, a taskwait or taskgroup end
 * that is not called all give the right answer. This one defers every task
 * it may (not if(0), not inside a final task) and runs a task's children only
 * when it must: at taskwait, at the end of a taskgroup, when an undeferred
 * task is created, and at the end of the parent task. It then runs them
 * latest first, as far as their dependences allow, so any order the program
 * does not enforce comes out reversed. Tasks run on the process that created
 * them, which OpenMP allows, so this works on any number of processes.
 */
#include <stdlib.h>
#include <string.h>

#include "../../include/ompdsm_rt.h"

typedef struct Task {
  void (*fn)(void *);
  void *data;
  unsigned ndeps;
  ompdsm_dep_t *deps;
  int final, ran;
  struct Task *next;                     /* the parent's children, oldest first */
} Task;

typedef struct Frame { Task *kids; int final; struct Frame *up; } Frame;

static Frame root;
static Frame *cur = &root;

static int overlap(const ompdsm_dep_t *a, const ompdsm_dep_t *b)
{
  if (a->kind == OMPDSM_DEP_IN && b->kind == OMPDSM_DEP_IN) return 0;
  const char *x = a->addr, *y = b->addr;
  return x < y + (b->len ? b->len : 1) && y < x + (a->len ? a->len : 1);
}

static int conflicts(const Task *a, const Task *b)
{
  for (unsigned i = 0; i < a->ndeps; i++)
    for (unsigned j = 0; j < b->ndeps; j++)
      if (overlap(&a->deps[i], &b->deps[j])) return 1;
  return 0;
}

static void run(Task *t);

/* Runs every child of f still pending, latest first among the ready ones:
   a child is ready when no older pending sibling conflicts with it. */
static void drain(Frame *f)
{
  for (;;) {
    Task *pick = NULL;
    for (Task *t = f->kids; t; t = t->next) {
      if (t->ran) continue;
      int ready = 1;
      for (Task *o = f->kids; o != t; o = o->next)
        if (!o->ran && conflicts(o, t)) { ready = 0; break; }
      if (ready) pick = t;
    }
    if (!pick) break;
    run(pick);
  }
  while (f->kids) {
    Task *t = f->kids;
    f->kids = t->next;
    free(t->data);
    free(t->deps);
    free(t);
  }
}

static void run(Task *t)
{
  t->ran = 1;
  Frame f = { NULL, t->final, cur };
  cur = &f;
  t->fn(t->data);
  drain(&f);
  cur = f.up;
}

void __ompdsm_tasks_used(void) {}

void __ompdsm_task(void (*fn)(void *), void *data, size_t size, int flags,
                   unsigned ndeps, const ompdsm_dep_t *deps, int priority)
{
  (void)priority;
  Task *t = calloc(1, sizeof *t);
  t->fn = fn;
  t->data = malloc(size ? size : 1);
  memcpy(t->data, data, size);
  t->ndeps = ndeps;
  t->deps = malloc((ndeps ? ndeps : 1) * sizeof *deps);
  if (ndeps) memcpy(t->deps, deps, ndeps * sizeof *deps);
  t->final = cur->final || (flags & OMPDSM_TASK_FINAL);
  Task **pp = &cur->kids;
  while (*pp) pp = &(*pp)->next;
  *pp = t;
  /* undeferred: it runs now, after what it depends on (and, more simply,
     after every older sibling) */
  if ((flags & OMPDSM_TASK_UNDEFERRED) || cur->final) {
    Frame *f = cur;
    for (Task *o = f->kids; o != t; o = o->next)
      if (!o->ran) run(o);
    run(t);
  }
}

void __ompdsm_taskwait(void) { drain(cur); }
void __ompdsm_taskyield(void) {}
void __ompdsm_taskgroup_start(void) {}
void __ompdsm_taskgroup_end(void) { drain(cur); }
int omp_in_final(void) { return cur->final; }
int omp_get_max_task_priority(void) { return 0; }
