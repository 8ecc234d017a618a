/*
 * datasharing.c — what is shared where while constructs are lowered,
 * reductions' first values, and the private copies of inline constructs.
 *
 * While a construct's body is lowered, its data environment is on a stack
 * (DsEnv): a parallel region or task (a "boundary", with its body's span)
 * and, inside it, the variables it or an inline construct made shared or
 * private. A task asks it whether a local it names is shared, a
 * worksharing construct whether its reduction variable is.
 *
 * Inline constructs (for, sections, single) shadow a privatized name in a
 * new block: a pointer to the original is taken first, then
 * "__typeof__(*p) x;" declares the copy, so no type has to be spelled
 * (ds_privs_open). Outlined regions cannot see the enclosing function's
 * names, so there the declaration is printed from the symbol's type
 * (capture.c). Reductions start from the operator's identity (min/max: from
 * the original, since they are idempotent) and combine with __ompdsm_reduce.
 */
#include "datasharing.h"
#include "emit.h"
#include "ir.h"
#include "lower.h"
#include "../include/ompdsm_rt.h"

#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ */
/* what is shared where */

DsEnv *dsenv;

void ds_boundary(int ft, int lt)
{
  DsEnv *e = xcalloc(1, sizeof *e);
  e->boundary = 1; e->ft = ft; e->lt = lt; e->up = dsenv;
  dsenv = e;
}

void ds_var(Sym *s, int shared)
{
  DsEnv *e = xcalloc(1, sizeof *e);
  e->sym = s; e->shared = shared; e->up = dsenv;
  dsenv = e;
}

/* Innermost first: a listing decides; a boundary whose body declares s
   makes it private to that region or task; with no boundary left, s is a
   local of the function that holds an orphaned construct. */
int ds_is_shared(Sym *s)
{
  for (DsEnv *e = dsenv; e; e = e->up) {
    if (!e->boundary) { if (e->sym == s) return e->shared; continue; }
    if (s->ident >= e->ft && s->ident <= e->lt) return 0;
  }
  return 0;
}

/* A worksharing construct's reduction needs a variable the region shares
   (OpenMP: shared in the parallel region the construct binds to): 1 when s
   is private in the innermost enclosing region or task (listed private
   there, or a non-static local of its body). An orphaned construct cannot
   tell: 0. */
static int ds_private_here(Sym *s)
{
  for (DsEnv *e = dsenv; e; e = e->up) {
    if (!e->boundary) { if (e->sym == s) return !e->shared; continue; }
    return s->ident >= e->ft && s->ident <= e->lt && !s->is_static;
  }
  return 0;
}

void ds_check_ws_reductions(Omp *om)
{
  for (VarClause *v = om->vars; v; v = v->next)
    if (v->kind == DS_REDUCTION && v->sym && ds_private_here(v->sym))
      error_at(v->tok, "reduction variable '%s' is private in the enclosing region; "
               "a worksharing construct reduces into a shared variable", v->sym->name);
}

/* ------------------------------------------------------------------ */
/* reductions */

const char *ds_red_identity(int op, const char *orig_ptr, const char *name)
{
  static char buf[512];
  switch (op) {
  case OMPDSM_RED_MUL: case OMPDSM_RED_LAND: return "1";
  case OMPDSM_RED_BAND: snprintf(buf, sizeof buf, "~(__typeof__(%s))0", name); return buf;
  case OMPDSM_RED_MIN: case OMPDSM_RED_MAX:
    /* min and max are idempotent: the original value is a valid identity */
    snprintf(buf, sizeof buf, "*(%s)", orig_ptr); return buf;
  default: return "0";
  }
}

/* ------------------------------------------------------------------ */
/* inline data-sharing for worksharing constructs */

/* Before the shadowing block: pointers to the originals. */
int ds_privs_open(Out *o, Omp *om, Ctx **ctx, Priv *pv, int max)
{
  int n = 0;
  for (VarClause *v = om->vars; v && n < max; v = v->next) {
    if (v->kind == DS_SHARED || v->kind == DS_COPYIN || v->kind == DS_COPYPRIVATE) continue;
    pv[n].v = v;
    snprintf(pv[n].ptr, sizeof pv[n].ptr, "__ompdsm_p%d", ++uid);
    const char *x = sym_text(*ctx, v->sym);
    gen(o, " __typeof__(%s) *%s = &(%s); (void)%s;", x, pv[n].ptr, x, pv[n].ptr);
    if (v->kind == DS_LINEAR) {
      /* the original's value and the step, at the construct, in its scope */
      snprintf(pv[n].base, sizeof pv[n].base, "__ompdsm_linb%d", uid);
      snprintf(pv[n].step, sizeof pv[n].step, "__ompdsm_lins%d", uid);
      char *st = v->step.ft <= v->step.lt ? span_text(v->step.ft, v->step.lt, *ctx) : xstrdup("1");
      gen(o, " __typeof__(%s) %s = %s; __INT64_TYPE__ %s = (__INT64_TYPE__)(%s);",
          x, pv[n].base, x, pv[n].step, st);
      free(st);
    }
    n++;
  }
  for (int i = 0; i < n; i++) {
    VarClause *v = pv[i].v;
    const char *nm = v->sym->name;
    /* unused: the body may not use its copy (issue 56); (void *): the
     * copy of a const is written once, here */
    gen(o, " __typeof__(*%s) %s __attribute__((unused));", pv[i].ptr, nm);
    if (v->kind == DS_FIRSTPRIVATE || v->kind == DS_FIRSTLAST)
      gen(o, " __builtin_memcpy((void *)&%s, %s, sizeof %s);", nm, pv[i].ptr, nm);
    if (v->kind == DS_REDUCTION)
      gen(o, " %s = %s;", nm, ds_red_identity(v->op, pv[i].ptr, nm));
    *ctx = ctx_add(*ctx, v->sym, nm);
    ds_var(v->sym, 0);       /* a task in the construct copies it (firstprivate) */
  }
  return n;
}

void ds_privs_close(Out *o, Priv *pv, int n, const char *last_flag, int at_join)
{
  for (int i = 0; i < n; i++) {
    VarClause *v = pv[i].v;
    const char *nm = v->sym->name;
    if ((v->kind == DS_LASTPRIVATE || v->kind == DS_FIRSTLAST || v->kind == DS_LINEAR) && last_flag)
      gen(o, " if (%s) __builtin_memcpy(%s, &%s, sizeof %s);", last_flag, pv[i].ptr, nm, nm);
    if (v->kind == DS_REDUCTION)
      gen(o, " __ompdsm_reduce%s(%s, &%s, 1, __OMPDSM_TC(%s), %d);", at_join ? "_join" : "",
          pv[i].ptr, nm, nm, v->op);
  }
}

