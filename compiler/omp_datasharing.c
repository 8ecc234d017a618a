/*
 * omp_datasharing.c — private copies, reductions and the declarations the
 * outlined functions need.
 *
 * Inline constructs (for, sections, single) shadow a privatized name in a
 * new block: a pointer to the original is taken first, then
 * "__typeof__(*p) x;" declares the copy, so no type has to be spelled.
 * Outlined regions cannot see the enclosing function's names, so there the
 * declaration is printed from the symbol's type (captured_decl).
 * Reductions start from the operator's identity (min/max: from the
 * original, since they are idempotent) and combine with __ompdsm_reduce.
 */
#include "ir.h"
#include "parser.h"
#include "../include/ompdsm_rt.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The declaration of a copy of (or a pointer to) captured s, under name.
   A file-scope name is visible where outlined functions go, so its type is
   taken from it; a local's is printed from its Type (type.c). */
char *captured_decl(Sym *s, const char *name, char **dims)
{
  if (s->depth == 0 || s->is_extern) {
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fprintf(f, "__typeof__(%s) %s", s->name, name);
    fclose(f);
    return buf;
  }
  return type_decl(s->type, name, dims);
}

/* ------------------------------------------------------------------ */
/* reductions */

const char *red_identity(int op, const char *orig_ptr, const char *name)
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
int privs_open(Out *o, Omp *om, Ctx **ctx, Priv *pv, int max)
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
      gen(o, " %s = %s;", nm, red_identity(v->op, pv[i].ptr, nm));
    *ctx = ctx_add(*ctx, v->sym, nm);
    ds_var(v->sym, 0);       /* a task in the construct copies it (firstprivate) */
  }
  return n;
}

void privs_close(Out *o, Priv *pv, int n, const char *last_flag, int at_join)
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

