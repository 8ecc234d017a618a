/*
 * omp_task.c — task, taskloop and taskgroup.
 *
 * A task body is outlined like a region body (capture.c's Cap kit):
 *   static void __ompdsm_task_N(void *data)
 * and the encountering thread fills struct __ompdsm_args_N on its own stack
 * with the addresses of the task's shared variables and the values of its
 * firstprivate ones, then calls __ompdsm_task, which copies the block. The
 * values are taken when the task is created, so a deferred task sees them
 * even if the creator changes or leaves the variables afterwards.
 *
 * Defaults follow OpenMP 5.x for tasks: a variable the task names and no
 * clause lists is shared if it is shared where the task is (globals, static
 * locals, what the enclosing region or task shares: the DsEnv stack in
 * datasharing.c knows), and firstprivate otherwise. A firstprivate copy
 * must be a field of the block, so a variably modified type (a VLA), whose
 * size exists only at run time, is rejected: copying it from the original
 * when the task runs, as a region does, would read a variable that may be
 * gone by then. A type declared in a block is declared again (task_head).
 *
 * taskloop normalizes the loop as a worksharing loop does, splits the
 * iterations [0, count) into chunks and creates one task per chunk; each
 * task maps its [lo, hi) back to the user's variables. The task that runs
 * the final iteration copies lastprivate values out.
 */
#include "omp_lower.h"
#include "capture.h"
#include "datasharing.h"
#include "emit.h"
#include "ir.h"
#include "loop.h"
#include "lower.h"
#include "parser.h"
#include "type.h"
#include "../include/ompdsm_rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int has(Span s) { return s.ft <= s.lt; }

/* The data-sharing of everything the task names in tokens a..b. */
static Cap *task_caps(Omp *om, int a, int b, const char *what)
{
  Cap *caps = NULL;
  for (VarClause *v = om->vars; v; v = v->next)
    cap_add(&caps, v->sym, v->kind, v->op, v->tok);
  for (int i = a; i <= b; i++) {
    Token *t = &toks[i];
    if (!t->is_use || !t->sym || t->sym->kind != SYM_VAR) continue;
    Sym *s = t->sym;
    if (s->ident >= a && s->ident <= b) continue;   /* declared inside: private */
    if (cap_find(caps, s)) continue;
    int kind;
    if (s->threadprivate) kind = DS_SHARED;          /* the executing thread's copy */
    else if (om->deflt == 0) { error_at(i, "'%s' not specified in enclosing '%s' with default(none)", s->name, what); kind = DS_SHARED; }
    else if (om->deflt == 1) kind = DS_SHARED;
    else if (om->deflt >= 2 && !cap_is_local(s)) {
      /* OpenMP 5.1: default(private/firstprivate) does not reach file-scope variables */
      error_at(i, "file-scope '%s' must be listed in a data-sharing clause of '%s' with default(%s)", s->name, what,
               om->deflt == 2 ? "private" : "firstprivate");
      kind = DS_SHARED;
    }
    else if (om->deflt == 2) kind = DS_PRIVATE;
    else if (om->deflt == 3) kind = DS_FIRSTPRIVATE;
    else if (!cap_is_local(s) || s->is_static) kind = DS_SHARED;
    else kind = ds_is_shared(s) ? DS_SHARED : DS_FIRSTPRIVATE;
    cap_add(&caps, s, kind, 0, i);
  }
  for (Cap *c = caps; c; c = c->next) {
    if (c->kind != DS_FIRSTPRIVATE && c->kind != DS_FIRSTLAST) continue;
    if (!cap_is_local(c->sym) || c->sym->threadprivate) continue;
    if (type_has_vla(c->sym->type) && c->sym->type->kind != TY_PTR)
      error_at(c->tok, "firstprivate '%s' of a task has a variably modified type, which ompdsmcc cannot copy into the task (make it shared, or copy the data yourself)", c->sym->name);
  }
  return caps;
}

/* 'return' would leave the task's structured block; in the outlined
   function it would only end the task early, so it is refused as gcc does. */
static void check_no_return(int a, int b, const char *what)
{
  for (int i = a; i <= b; i++)
    if (toks[i].kind == RETURN) error_at(i, "'return' may not leave a '%s' region", what);
}

/* flags and priority, evaluated where the construct is */
static void task_flags(Out *o, Omp *om, int id, Ctx *ctx)
{
  char *ifx = has(om->if_expr) ? span_text(om->if_expr.ft, om->if_expr.lt, ctx) : xstrdup("1");
  char *fin = has(om->final_expr) ? span_text(om->final_expr.ft, om->final_expr.lt, ctx) : xstrdup("0");
  char *pri = has(om->priority) ? span_text(om->priority.ft, om->priority.lt, ctx) : xstrdup("0");
  gen(o, " int __ompdsm_fl%d = (!(%s) ? %d : 0) | ((%s) ? %d : 0) | %d; int __ompdsm_pr%d = (int)(%s);",
      id, ifx, OMPDSM_TASK_UNDEFERRED, fin, OMPDSM_TASK_FINAL,
      (om->untied ? OMPDSM_TASK_UNTIED : 0) | (om->mergeable ? OMPDSM_TASK_MERGEABLE : 0), id, pri);
  free(ifx); free(fin); free(pri);
}

/* The dependences, in clause order, as an array __ompdsm_d<id>. */
static int task_deps(Out *o, Omp *om, int id, Ctx *ctx)
{
  int nd = 0;
  for (Dep *d = om->deps; d; d = d->next) nd++;
  if (!nd) return 0;
  gen(o, " struct __ompdsm_dep __ompdsm_d%d[%d] = {", id, nd);
  for (Dep *d = om->deps; d; d = d->next) {
    if (!d->sect) {
      char *x = span_text(d->item.ft, d->item.lt, ctx);
      gen(o, " { (void *)&(%s), sizeof (%s), %d },", x, x, d->kind);
      free(x);
      continue;
    }
    char *base = span_text(d->base.ft, d->base.lt, ctx);
    char *lo = has(d->lo) ? span_text(d->lo.ft, d->lo.lt, ctx) : xstrdup("0");
    char *len;
    if (has(d->len)) len = span_text(d->len.ft, d->len.lt, ctx);
    else {
      /* a[lo:] reaches the end of an array; a pointer has no end */
      Sym *s = d->base.ft == d->base.lt ? toks[d->base.ft].sym : NULL;
      if (s && s->type && s->type->kind == TY_PTR)
        error_at(d->tok, "array section of pointer '%s' in depend needs a length", s->name);
      len = xcalloc(1, strlen(base) * 2 + strlen(lo) + 64);
      sprintf(len, "sizeof (%s) / sizeof ((%s)[0]) - (%s)", base, base, lo);
    }
    gen(o, " { (void *)&(%s)[%s], (__SIZE_TYPE__)(%s) * sizeof ((%s)[0]), %d },", base, lo, len, base, d->kind);
    free(base); free(lo); free(len);
  }
  gen(o, " };");
  return nd;
}

/* The outlined function's head: the block's type and the unpacking.
   extra: more fields (taskloop's chunk). Returns the body's substitutions.
   A firstprivate whose type is declared in a block makes a field that only
   that block can spell: the struct is then declared twice, in the outlined
   function after its replayed types and at the task (*local gets the text);
   the two have the same members in the same order, so the same layout. */
static Ctx *task_head(Out *R, Cap *caps, int id, Node *body, const char *extra, char **local)
{
  caps_layout(caps, 1);
  int in_block = 0;
  for (Cap *c = caps; c; c = c->next)
    if ((c->kind == DS_FIRSTPRIVATE || c->kind == DS_FIRSTLAST) && !c->by_ref && !c->vla_ptr &&
        cap_is_local(c->sym) && type_needs_block_scope(c->sym->type))
      in_block = 1;
  Out *F = out_mem();
  gen(F, "struct __ompdsm_args_%d {", id);
  caps_fields(F, caps);
  gen(F, "%s char __ompdsm_pad; };", extra);
  char *def = out_take(F);
  if (!in_block) gen(R, "\n%s\n", def);
  gen(R, "%sstatic void __ompdsm_task_%d(void *__ompdsm_data) {", in_block ? "\n" : "", id);
  caps_replay(R, caps, body);
  if (in_block) gen(R, " %s", def);
  gen(R, " struct __ompdsm_args_%d *__ompdsm_a = (struct __ompdsm_args_%d *)__ompdsm_data; (void)__ompdsm_a;", id, id);
  *local = in_block ? def : (free(def), xstrdup(""));
  return caps_unpack_vars(R, caps);
}

/* Lowers tokens a..b as the body of an outlined task: a new data
   environment (nested tasks ask it) and a new lexical nest for checks. */
static void task_body(Out *R, Cap *caps, int ft, int lt, int a, int b, Ctx *c2)
{
  DsEnv *env = dsenv;
  ds_boundary(ft, lt);
  for (Cap *c = caps; c; c = c->next) ds_var(c->sym, c->kind == DS_SHARED);
  frame_push(OMP_TASK, NULL);
  Frame *saved = frames->up;
  frames->up = NULL;
  R->need_mark = 1;
  lower_range(R, a, b, c2);
  frames->up = saved;
  frame_pop();
  dsenv = env;
}

static void flush_prelude(Out *R)
{
  char *text = out_take(R);
  fputs(text, prelude->f);
  free(text);
}

void omp_lower_task(Out *o, Node *n, Omp *om, Ctx *ctx)
{
  Node *body = n->body;
  if (!body) return;
  unit_uses_tasks = 1;
  check_no_return(body->ft, body->lt, "task");
  Cap *caps = task_caps(om, body->ft, body->lt, "task");
  int id = ++uid;
  Out *R = out_mem();
  char *local;
  Ctx *c2 = task_head(R, caps, id, body, "", &local);
  gen(R, " {");
  task_body(R, caps, body->ft, body->lt, body->ft, body->lt, c2);
  gen(R, " } }\n");
  flush_prelude(R);

  gen(o, " { %s struct __ompdsm_args_%d __ompdsm_a%d; __builtin_memset(&__ompdsm_a%d, 0, sizeof __ompdsm_a%d);", local, id, id, id, id);
  free(local);
  caps_pack(o, caps, id, ctx);
  task_flags(o, om, id, ctx);
  int nd = task_deps(o, om, id, ctx);
  char dv[64];
  if (nd) snprintf(dv, sizeof dv, "__ompdsm_d%d", id); else snprintf(dv, sizeof dv, "(struct __ompdsm_dep *)0");
  gen(o, " __ompdsm_task(__ompdsm_task_%d, &__ompdsm_a%d, sizeof __ompdsm_a%d, __ompdsm_fl%d, %d, %s, __ompdsm_pr%d); }",
      id, id, id, id, nd, dv, id);
  o->need_mark = 1;
}

void omp_lower_taskloop(Out *o, Node *n, Omp *om, Ctx *ctx)
{
  Loop L[8];
  int depth = loop_nest(n, om, L);
  if (!depth) return;
  unit_uses_tasks = 1;
  Node *loop = n->body, *body = L[depth - 1].body;
  check_no_return(loop->ft, loop->lt, "taskloop");
  /* loop variables are private; a lastprivate one gets the value after
     the final increment, like a worksharing loop's */
  Omp own = *om;
  VarClause **tail = &own.vars;
  own.vars = NULL;
  for (VarClause *v = om->vars; v; v = v->next) {
    VarClause *c = xcalloc(1, sizeof *c);
    *c = *v; c->next = NULL; *tail = c; tail = &c->next;
  }
  for (int d = 0; d < depth; d++) {
    int listed = 0;
    for (VarClause *v = own.vars; v; v = v->next) listed |= v->sym == L[d].var;
    if (listed || L[d].decl) continue;
    VarClause *c = xcalloc(1, sizeof *c);
    c->sym = L[d].var; c->kind = DS_PRIVATE; c->tok = L[d].var_tok;
    *tail = c; tail = &c->next;
  }
  Cap *caps = task_caps(&own, loop->ft, loop->lt, "taskloop");
  int id = ++uid;
  Out *R = out_mem();
  Out *X = out_mem();
  gen(X, " __INT64_TYPE__ __ompdsm_lo, __ompdsm_hi, __ompdsm_cnt, __ompdsm_lb[%d], __ompdsm_st[%d], __ompdsm_cn[%d];",
      depth, depth, depth);
  /* reductions: each task starts from the identity and folds its partial
     into the original under the atomic lock when it ends; the implicit
     taskgroup makes the result complete and visible. min and max start
     from the original's value at the taskloop, read before any task runs */
  for (Cap *c = caps; c; c = c->next) {
    if (c->kind != DS_REDUCTION || (c->op != OMPDSM_RED_MIN && c->op != OMPDSM_RED_MAX)) continue;
    char nm[300], init[320];
    snprintf(nm, sizeof nm, "__ompdsm_ri_%s", c->sym->name);
    char *t = cap_decl(c->sym, nm, NULL);
    gen(X, " %s;", t);
    free(t);
    snprintf(init, sizeof init, "__ompdsm_a->%s", nm);
    c->red_init = xstrdup(init);
  }
  if (om->nogroup)
    for (Cap *c = caps; c; c = c->next)
      if (c->kind == DS_REDUCTION) error_at(c->tok, "reduction '%s' on a taskloop with nogroup", c->sym->name);
  char *extra = out_take(X);
  char *local;
  Ctx *c2 = task_head(R, caps, id, loop, extra, &local);
  free(extra);
  for (int d = 0; d < depth; d++)
    if (L[d].decl) { char *t = type_decl(L[d].var->type, L[d].var->name, NULL); gen(R, " %s;", t); free(t); }
  gen(R, " for (__INT64_TYPE__ __ompdsm_it = __ompdsm_a->__ompdsm_lo; __ompdsm_it < __ompdsm_a->__ompdsm_hi; __ompdsm_it++) {"
         " __INT64_TYPE__ __ompdsm_r = __ompdsm_it;");
  for (int d = depth - 1; d >= 0; d--)
    gen(R, " %s = (__typeof__(%s))(__ompdsm_a->__ompdsm_lb[%d] + (__ompdsm_r %% __ompdsm_a->__ompdsm_cn[%d]) * __ompdsm_a->__ompdsm_st[%d]); __ompdsm_r /= __ompdsm_a->__ompdsm_cn[%d];",
        L[d].var->name, L[d].var->name, d, d, d, d);
  gen(R, " (void)__ompdsm_r; {");
  task_body(R, caps, loop->ft, loop->lt, body->ft, body->lt, c2);
  gen(R, " } }");
  /* the chunk with the final iteration writes lastprivates back */
  gen(R, " if (__ompdsm_a->__ompdsm_hi == __ompdsm_a->__ompdsm_cnt) {");
  for (Cap *c = caps; c; c = c->next) {
    if (c->kind != DS_LASTPRIVATE && c->kind != DS_FIRSTLAST) continue;
    const char *nm = c->sym->name;
    int dl = -1;
    for (int d = 0; d < depth; d++) if (L[d].var == c->sym) dl = d;
    if (dl >= 0)
      gen(R, " *__ompdsm_r_%s = (__typeof__(%s))(__ompdsm_a->__ompdsm_lb[%d] + __ompdsm_a->__ompdsm_cn[%d] * __ompdsm_a->__ompdsm_st[%d]);",
          nm, nm, dl, dl, dl);
    else
      gen(R, " __builtin_memcpy(__ompdsm_r_%s, &%s, sizeof %s);", nm, nm, nm);
  }
  gen(R, " }");
  int nred = 0;
  for (Cap *c = caps; c; c = c->next) {
    if (c->kind != DS_REDUCTION) continue;
    if (!nred++) gen(R, " __ompdsm_atomic_start();");
    const char *nm = c->sym->name;
    static const char *ops[] = { "+", "*", "+", NULL, NULL, "&", "|", "^", "&&", "||" };
    if (c->op == OMPDSM_RED_MIN) gen(R, " if (%s < *__ompdsm_r_%s) *__ompdsm_r_%s = %s;", nm, nm, nm, nm);
    else if (c->op == OMPDSM_RED_MAX) gen(R, " if (%s > *__ompdsm_r_%s) *__ompdsm_r_%s = %s;", nm, nm, nm, nm);
    else gen(R, " *__ompdsm_r_%s = *__ompdsm_r_%s %s %s;", nm, nm, ops[c->op], nm);
  }
  if (nred) gen(R, " __ompdsm_atomic_end();");
  gen(R, " }\n");
  flush_prelude(R);

  /* the encountering thread: one task per chunk */
  const char *m = om->kind == OMP_MASTER_TASKLOOP ? " if (__ompdsm_thread_num() == 0)" : "";
  gen(o, "%s {", m);
  loop_bounds(o, L, depth, id, ctx);
  gen(o, " %s struct __ompdsm_args_%d __ompdsm_a%d; __builtin_memset(&__ompdsm_a%d, 0, sizeof __ompdsm_a%d);", local, id, id, id, id);
  free(local);
  caps_pack(o, caps, id, ctx);
  for (Cap *c = caps; c; c = c->next)
    if (c->red_init)
      gen(o, " __builtin_memcpy(&__ompdsm_a%d.__ompdsm_ri_%s, &(%s), sizeof __ompdsm_a%d.__ompdsm_ri_%s);",
          id, c->sym->name, sym_text(ctx, c->sym), id, c->sym->name);
  task_flags(o, om, id, ctx);
  gen(o, " __ompdsm_a%d.__ompdsm_cnt = __ompdsm_cnt%d;", id, id);
  for (int d = 0; d < depth; d++)
    gen(o, " __ompdsm_a%d.__ompdsm_lb[%d] = __ompdsm_lb%d_%d; __ompdsm_a%d.__ompdsm_st[%d] = __ompdsm_st%d_%d; __ompdsm_a%d.__ompdsm_cn[%d] = __ompdsm_cnt%d_%d;",
        id, d, id, d, id, d, id, d, id, d, id, d);
  /* grainsize g: floor(count/g) chunks of g to 2g-1 iterations (strict:
     exactly g, the last one shorter); num_tasks n: min(n, count) chunks;
     neither: about eight chunks per thread */
  gen(o, " __INT64_TYPE__ __ompdsm_nt%d, __ompdsm_g%d = 0;", id, id);
  if (has(om->grainsize)) {
    char *g = span_text(om->grainsize.ft, om->grainsize.lt, ctx);
    gen(o, " { __INT64_TYPE__ __ompdsm_gs = (__INT64_TYPE__)(%s); if (__ompdsm_gs < 1) __ompdsm_gs = 1;", g);
    if (om->grain_strict)
      gen(o, " __ompdsm_g%d = __ompdsm_gs; __ompdsm_nt%d = (__ompdsm_cnt%d + __ompdsm_gs - 1) / __ompdsm_gs; }", id, id, id);
    else
      gen(o, " __ompdsm_nt%d = __ompdsm_cnt%d / __ompdsm_gs; }", id, id);
    free(g);
  } else if (has(om->num_tasks)) {
    char *nt = span_text(om->num_tasks.ft, om->num_tasks.lt, ctx);
    gen(o, " __ompdsm_nt%d = (__INT64_TYPE__)(%s); if (__ompdsm_nt%d < 1) __ompdsm_nt%d = 1;", id, nt, id, id);
    free(nt);
  } else {
    gen(o, " __ompdsm_nt%d = 8 * (__INT64_TYPE__)__ompdsm_num_threads();", id);
  }
  gen(o, " if (__ompdsm_nt%d > __ompdsm_cnt%d) __ompdsm_nt%d = __ompdsm_cnt%d; if (__ompdsm_nt%d < 1 && __ompdsm_cnt%d > 0) __ompdsm_nt%d = 1;",
      id, id, id, id, id, id, id);
  if (!om->nogroup) gen(o, " __ompdsm_taskgroup_start();");
  gen(o, " for (__INT64_TYPE__ __ompdsm_k%d = 0; __ompdsm_k%d < __ompdsm_nt%d; __ompdsm_k%d++) {", id, id, id, id);
  gen(o, " if (__ompdsm_g%1$d) { __ompdsm_a%1$d.__ompdsm_lo = __ompdsm_k%1$d * __ompdsm_g%1$d; __ompdsm_a%1$d.__ompdsm_hi = __ompdsm_a%1$d.__ompdsm_lo + __ompdsm_g%1$d;"
         " if (__ompdsm_a%1$d.__ompdsm_hi > __ompdsm_cnt%1$d) __ompdsm_a%1$d.__ompdsm_hi = __ompdsm_cnt%1$d; } else {"
         " __INT64_TYPE__ __ompdsm_q = __ompdsm_cnt%1$d / __ompdsm_nt%1$d, __ompdsm_m = __ompdsm_cnt%1$d %% __ompdsm_nt%1$d;"
         " __ompdsm_a%1$d.__ompdsm_lo = __ompdsm_k%1$d * __ompdsm_q + (__ompdsm_k%1$d < __ompdsm_m ? __ompdsm_k%1$d : __ompdsm_m);"
         " __ompdsm_a%1$d.__ompdsm_hi = __ompdsm_a%1$d.__ompdsm_lo + __ompdsm_q + (__ompdsm_k%1$d < __ompdsm_m); }", id);
  gen(o, " __ompdsm_task(__ompdsm_task_%d, &__ompdsm_a%d, sizeof __ompdsm_a%d, __ompdsm_fl%d, 0, (struct __ompdsm_dep *)0, __ompdsm_pr%d); }",
      id, id, id, id, id);
  if (!om->nogroup) gen(o, " __ompdsm_taskgroup_end();");
  gen(o, " }");
  o->need_mark = 1;
}

/* The group ends however control leaves the block (break, return, goto
   included): a cleanup variable calls __ompdsm_taskgroup_end. */
void omp_lower_taskgroup(Out *o, Node *n, Omp *om, Ctx *ctx)
{
  (void)om;
  int id = ++uid;
  gen(o, " { int __ompdsm_tg%d __attribute__((cleanup(__ompdsm_taskgroup_cleanup))) = (__ompdsm_taskgroup_start(), 0); (void)__ompdsm_tg%d; {", id, id);
  frame_push(OMP_TASKGROUP, NULL);
  o->need_mark = 1;
  lower_range(o, n->body->ft, n->body->lt, ctx);
  frame_pop();
  gen(o, " } }");
  o->need_mark = 1;
}
