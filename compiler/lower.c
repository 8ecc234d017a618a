/*
 * lower.c — the walk that decides what to lower.
 *
 * For every function that holds OpenMP constructs, each outermost construct
 * is lowered into C text (the omp_*.c file for its kind writes it) and kept
 * on its node; the outlined functions produced on the way are collected on
 * the function's node. Constructs nested in a construct's body are reached
 * through lower_range, which the omp_*.c lowerings call for the bodies
 * they keep; plain tokens print through emit_tok. emit.c then prints the
 * unit, splicing in what this pass left on the nodes.
 *
 * The omp_*.c files are reached only through their entry points
 * (omp_lower.h), and reach each other only through the core: a combined
 * construct's region (omp_outline.c) hands its inner half to
 * lower_construct.
 */
#include "lower.h"
#include "emit.h"
#include "ir.h"
#include "omp_lower.h"

void lower_construct(Out *o, Node *n, Omp *om, Ctx *ctx)
{
  switch (om->kind) {
  case OMP_PARALLEL: case OMP_PARALLEL_FOR: case OMP_PARALLEL_SECTIONS:
  case OMP_PARALLEL_MASTER: case OMP_PARALLEL_MASTER_TASKLOOP:
    omp_lower_parallel(o, n, om, ctx);
    return;
  case OMP_FOR: omp_lower_for(o, n, om, ctx); return;
  case OMP_SECTIONS: omp_lower_sections(o, n, om, ctx); return;
  case OMP_SECTION:
    error_at(om->tok + 1, "'omp section' outside 'omp sections'");
    return;
  case OMP_SINGLE: omp_lower_single(o, n, om, ctx); return;
  case OMP_MASTER: omp_lower_master(o, n, om, ctx); return;
  case OMP_SERIAL: omp_lower_serial(o, n, om, ctx); return;
  case OMP_NOP: return;
  case OMP_TASK: omp_lower_task(o, n, om, ctx); return;
  case OMP_TASKLOOP: case OMP_MASTER_TASKLOOP: omp_lower_taskloop(o, n, om, ctx); return;
  case OMP_TASKGROUP: omp_lower_taskgroup(o, n, om, ctx); return;
  default: omp_lower_sync(o, n, om, ctx); return;
  }
}

void lower_range(Out *o, int a, int b, Ctx *ctx)
{
  for (int i = a; i <= b; i++) {
    Node *n = toks[i].node;
    if (n && n->kind == N_OMP) {
      if (toks[i].pre) { gen(o, "\n%s", toks[i].pre); o->need_mark = 1; }
      lower_construct(o, n, n->omp, ctx);
      i = n->lt;
      continue;
    }
    emit_tok(o, i, ctx);
  }
}

void lower_unit(void)
{
  unit_uses_tasks = 0;
  for (Node *f = unit_first; f; f = f->next) {
    if (f->kind != N_FUNC) continue;
    cur_function = f;
    omp_nowait_infer(f);
    prelude = out_mem();
    for (int i = f->ft; i <= f->lt; i++) {
      Node *n = toks[i].node;
      if (!n || n->kind != N_OMP) continue;
      Out *o = out_mem();
      lower_construct(o, n, n->omp, NULL);
      n->lowered = out_take(o);
      i = n->lt;
    }
    f->outlined = out_take(prelude);
    prelude = NULL;
  }
}
