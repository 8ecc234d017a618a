/*
 * loop.c — canonical loops: what a worksharing loop, a taskloop and the
 * barrier analysis (omp_nowait.c) read from a for statement.
 *
 * loop_canonical takes "for (var = lb; var < ub; var += step)" and its
 * variants apart into spans of tokens (Loop); loop_nest checks the loops a
 * collapse clause covers; loop_bounds writes the declarations of each
 * loop's bounds, step and trip count that the lowerings count iterations
 * with (omp_worksharing.c, omp_task.c).
 */
#include "loop.h"
#include "emit.h"
#include "ir.h"
#include "lower.h"
#include "parser.h"

#include <stdlib.h>
#include <string.h>

static int is(int i, const char *s) { return !strcmp(toks[i].text, s); }

static int find_top(int a, int b, const char **ops, int *which)
{
  int depth = 0;
  for (int i = a; i <= b; i++) {
    if (is(i, "(") || is(i, "[") || is(i, "{")) depth++;
    else if (is(i, ")") || is(i, "]") || is(i, "}")) depth--;
    else if (depth == 0)
      for (int k = 0; ops[k]; k++)
        if (is(i, ops[k])) { *which = k; return i; }
  }
  return -1;
}

int loop_canonical(Node *f, Loop *L)
{
  memset(L, 0, sizeof *L);
  if (!f || f->kind != N_FOR) { error_at(f ? f->ft : -1, "'omp for' must be followed by a for loop"); return 0; }
  int ft = f->ft;
  /* init */
  static const char *eq[] = { "=", NULL };
  int w, e = find_top(f->ift, f->ilt, eq, &w);
  if (e < 0 || e == f->ift || toks[e - 1].kind != IDENTIFIER || !toks[e - 1].sym) {
    error_at(f->ift <= f->ilt ? f->ift : ft, "non-canonical loop: init must be 'var = lb'");
    return 0;
  }
  static const char *comma[] = { ",", NULL };
  if (find_top(e + 1, f->ilt, comma, &w) >= 0) { error_at(e, "non-canonical loop: init must declare one variable"); return 0; }
  L->var_tok = e - 1;
  L->var = toks[e - 1].sym;
  L->decl = f->init_decl;
  if (!f->init_decl && e - 1 != f->ift) { error_at(f->ift, "non-canonical loop: init must be 'var = lb'"); return 0; }
  L->lb.ft = e + 1; L->lb.lt = f->ilt;
  if (L->lb.ft > L->lb.lt) { error_at(e, "non-canonical loop: missing lower bound"); return 0; }
  /* test */
  static const char *rel[] = { "<", "<=", ">", ">=", NULL };
  int r = find_top(f->cft, f->clt, rel, &w);
  if (r < 0) { error_at(f->cft <= f->clt ? f->cft : ft, "non-canonical loop: test must be 'var < ub', 'var <= ub', 'var > ub' or 'var >= ub'"); return 0; }
  if (r - 1 == f->cft && toks[f->cft].sym == L->var) { L->op = w; L->ub.ft = r + 1; L->ub.lt = f->clt; }
  else if (r + 1 == f->clt && toks[f->clt].sym == L->var) { L->op = w ^ 2; L->ub.ft = f->cft; L->ub.lt = r - 1; }
  else { error_at(f->cft, "non-canonical loop: test must compare the loop variable '%s'", L->var->name); return 0; }
  /* increment */
  int a = f->sft, b = f->slt, n = b - a + 1;
  int ok = 0;
  if (n == 2 && ((toks[a].sym == L->var && (is(b, "++") || is(b, "--"))) || (toks[b].sym == L->var && (is(a, "++") || is(a, "--"))))) {
    L->step.ft = L->step.lt = -1;
    L->step_neg = is(a, "--") || is(b, "--");
    ok = 1;
  } else if (n >= 3 && toks[a].sym == L->var && (is(a + 1, "+=") || is(a + 1, "-="))) {
    L->step.ft = a + 2; L->step.lt = b; L->step_neg = is(a + 1, "-="); ok = 1;
  } else if (n >= 5 && toks[a].sym == L->var && is(a + 1, "=") && toks[a + 2].sym == L->var && (is(a + 3, "+") || is(a + 3, "-"))) {
    L->step.ft = a + 4; L->step.lt = b; L->step_neg = is(a + 3, "-"); ok = 1;
  } else if (n >= 5 && toks[a].sym == L->var && is(a + 1, "=") && toks[b].sym == L->var && is(b - 1, "+")) {
    L->step.ft = a + 2; L->step.lt = b - 2; ok = 1;
  }
  if (!ok) { error_at(a <= b ? a : ft, "non-canonical loop: increment must be ++, --, +=, -= or 'var = var + step'"); return 0; }
  L->body = f->body;
  return 1;
}

static Node *only_for(Node *b)
{
  if (!b) return NULL;
  if (b->kind == N_FOR) return b;
  if (b->kind == N_COMPOUND && b->kids && !b->kids->next && b->kids->kind == N_FOR &&
      b->kids->ft == b->ft + 1 && b->kids->lt == b->lt - 1)
    return b->kids;
  return NULL;
}

/* The loops a construct with collapse(n) covers, checked canonical and
   perfectly nested; returns n, or 0 after an error. */
int loop_nest(Node *n, Omp *om, Loop *L)
{
  int depth = om->collapse > 1 ? om->collapse : 1;
  if (depth > 8) { error_at(om->tok, "collapse depth above 8 is not supported"); return 0; }
  Node *f = n->body;
  for (int d = 0; d < depth; d++) {
    if (!loop_canonical(f, &L[d])) return 0;
    if (d + 1 < depth) {
      f = only_for(L[d].body);
      if (!f) { error_at(L[d].body ? L[d].body->ft : om->tok, "collapse(%d) needs %d perfectly nested loops", depth, depth); return 0; }
    }
  }
  return depth;
}

/* Declares, in the enclosing context, each loop's bounds, step and trip
   count (__ompdsm_lb<id>_<d>, _ub, _st, _cnt) and their product
   __ompdsm_cnt<id>, the normalized iteration count. */
void loop_bounds(Out *o, Loop *L, int depth, int id, Ctx *ctx)
{
  for (int d = 0; d < depth; d++) {
    char *lb = span_text(L[d].lb.ft, L[d].lb.lt, ctx), *ub = span_text(L[d].ub.ft, L[d].ub.lt, ctx);
    char *st = L[d].step.ft >= 0 ? span_text(L[d].step.ft, L[d].step.lt, ctx) : xstrdup("1");
    gen(o, " __INT64_TYPE__ __ompdsm_lb%d_%d = (__INT64_TYPE__)(%s), __ompdsm_ub%d_%d = (__INT64_TYPE__)(%s), __ompdsm_st%d_%d = %s(__INT64_TYPE__)(%s);",
        id, d, lb, id, d, ub, id, d, L[d].step_neg ? "-" : "", st);
    static const char *cnt[] = {
      "(__ompdsm_ub%1$d_%2$d > __ompdsm_lb%1$d_%2$d ? (__ompdsm_ub%1$d_%2$d - __ompdsm_lb%1$d_%2$d + __ompdsm_st%1$d_%2$d - 1) / __ompdsm_st%1$d_%2$d : 0)",
      "(__ompdsm_ub%1$d_%2$d >= __ompdsm_lb%1$d_%2$d ? (__ompdsm_ub%1$d_%2$d - __ompdsm_lb%1$d_%2$d) / __ompdsm_st%1$d_%2$d + 1 : 0)",
      "(__ompdsm_lb%1$d_%2$d > __ompdsm_ub%1$d_%2$d ? (__ompdsm_lb%1$d_%2$d - __ompdsm_ub%1$d_%2$d - __ompdsm_st%1$d_%2$d - 1) / -__ompdsm_st%1$d_%2$d : 0)",
      "(__ompdsm_lb%1$d_%2$d >= __ompdsm_ub%1$d_%2$d ? (__ompdsm_lb%1$d_%2$d - __ompdsm_ub%1$d_%2$d) / -__ompdsm_st%1$d_%2$d + 1 : 0)" };
    gen(o, " __INT64_TYPE__ __ompdsm_cnt%d_%d = ", id, d);
    gen(o, cnt[L[d].op], id, d);
    gen(o, ";");
    free(lb); free(ub); free(st);
  }
  gen(o, " __INT64_TYPE__ __ompdsm_cnt%d = 1;", id);
  for (int d = 0; d < depth; d++) gen(o, " __ompdsm_cnt%d *= __ompdsm_cnt%d_%d;", id, id, d);
}
