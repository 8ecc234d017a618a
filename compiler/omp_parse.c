/*
 * omp_parse.c — parse one "#pragma omp" directive from its tokens.
 *
 * The lexer leaves the directive's tokens right after the directive token
 * (toks[t+1 .. toks[t].omp_end]). Variable names resolve against the scope
 * at the directive (scope_lookup_before), so a later declaration of the
 * same name cannot capture them. Expressions (num_threads, if, chunk, index)
 * stay token spans; the lowering prints them with its substitutions.
 */
#include "ir.h"
#include "parser.h"
#include "../include/ompdsm_rt.h"

#include <stdlib.h>
#include <string.h>

static int pos, end, bad;

static const char *peek(void) { return pos <= end ? toks[pos].text : ""; }
static int at(const char *s) { return pos <= end && !strcmp(toks[pos].text, s); }
static int accept(const char *s) { if (at(s)) { pos++; return 1; } return 0; }

static int expect(const char *s)
{
  if (accept(s)) return 1;
  if (!bad) error_at(pos <= end ? pos : end, "expected '%s' in OpenMP directive", s);
  bad = 1;
  return 0;
}

/* A balanced expression up to ',' or ')' at depth 0. */
static Span expr_span(int stop_at_comma)
{
  Span s = { pos, pos - 1 };
  int depth = 0;
  while (pos <= end) {
    const char *x = toks[pos].text;
    if (depth == 0 && (!strcmp(x, ")") || (stop_at_comma && !strcmp(x, ",")))) break;
    if (!strcmp(x, "(") || !strcmp(x, "[")) depth++;
    if (!strcmp(x, ")") || !strcmp(x, "]")) depth--;
    if (toks[pos].kind == IDENTIFIER && !(pos > s.ft && (!strcmp(toks[pos - 1].text, ".") || !strcmp(toks[pos - 1].text, "->")))) {
      toks[pos].sym = scope_lookup_before(toks[pos].text, s.ft);
      toks[pos].is_use = 1;
    }
    s.lt = pos++;
  }
  if (s.lt < s.ft && !bad) { error_at(pos <= end ? pos : end, "expected an expression"); bad = 1; }
  return s;
}

/* What a reduction can combine: arithmetic types (and what the type layer
   leaves spelled, such as __int128), not pointers, arrays or aggregates. */
static int reducible(Type *t)
{
  return t && (t->kind <= TY_LDOUBLE || t->kind == TY_ENUM || t->kind == TY_OTHER) && t->kind != TY_VOID;
}

static void add_var(Omp *o, int kind, int op, int t)
{
  Sym *y = scope_lookup_before(toks[t].text, o->tok);
  if (!y || (y->kind != SYM_VAR)) {
    error_at(t, "'%s' is not a variable", toks[t].text);
    return;
  }
  toks[t].sym = y;
  for (VarClause *v = o->vars; v; v = v->next) {
    if (v->sym != y) continue;
    if ((v->kind == DS_FIRSTPRIVATE && kind == DS_LASTPRIVATE) ||
        (v->kind == DS_LASTPRIVATE && kind == DS_FIRSTPRIVATE)) {
      v->kind = DS_FIRSTLAST;
      return;
    }
    error_at(t, "'%s' appears more than once in data-sharing clauses", y->name);
    return;
  }
  if (kind == DS_REDUCTION && !reducible(y->type)) {
    error_at(t, "reduction on '%s' of unsupported type (only arithmetic scalars)", y->name);
    return;
  }
  if (kind == DS_COPYIN && !y->threadprivate) {
    error_at(t, "copyin variable '%s' is not threadprivate", y->name);
    return;
  }
  VarClause *v = xcalloc(1, sizeof *v), **pp = &o->vars;
  v->sym = y; v->kind = kind; v->op = op; v->tok = t;
  while (*pp) pp = &(*pp)->next;
  *pp = v;
}

static void var_list(Omp *o, int kind, int op)
{
  do {
    if (pos > end || toks[pos].kind != IDENTIFIER) {
      if (!bad) error_at(pos <= end ? pos : end, "expected a variable name");
      bad = 1;
      return;
    }
    add_var(o, kind, op, pos++);
  } while (accept(","));
}

static int red_op(void)
{
  static const struct { const char *s; int op; } ops[] = {
    {"+", OMPDSM_RED_ADD}, {"*", OMPDSM_RED_MUL}, {"-", OMPDSM_RED_SUB}, {"&", OMPDSM_RED_BAND},
    {"|", OMPDSM_RED_BOR}, {"^", OMPDSM_RED_BXOR}, {"&&", OMPDSM_RED_LAND}, {"||", OMPDSM_RED_LOR},
    {"min", OMPDSM_RED_MIN}, {"max", OMPDSM_RED_MAX}, {NULL, 0} };
  for (int i = 0; ops[i].s; i++)
    if (accept(ops[i].s)) return ops[i].op;
  error_at(pos <= end ? pos : end, "unknown reduction operator '%s'", peek());
  bad = 1;
  return -1;
}

/* Which clauses each construct takes. */
enum { C_PRIV = 1, C_FPRIV = 2, C_LPRIV = 4, C_SHARED = 8, C_RED = 16, C_COPYIN = 32,
       C_COPYPRIV = 64, C_DEFAULT = 128, C_NUMT = 256, C_IF = 512, C_SCHED = 1024,
       C_COLLAPSE = 2048, C_ORDERED = 4096, C_NOWAIT = 8192 };

static unsigned allowed(int kind)
{
  unsigned par = C_PRIV | C_FPRIV | C_SHARED | C_RED | C_COPYIN | C_DEFAULT | C_NUMT | C_IF;
  unsigned fr = C_PRIV | C_FPRIV | C_LPRIV | C_RED | C_SCHED | C_COLLAPSE | C_ORDERED | C_NOWAIT;
  switch (kind) {
  case OMP_PARALLEL: return par;
  case OMP_FOR: return fr;
  case OMP_PARALLEL_FOR: return (par | fr) & ~(unsigned)C_NOWAIT;
  case OMP_SECTIONS: return C_PRIV | C_FPRIV | C_LPRIV | C_RED | C_NOWAIT;
  case OMP_PARALLEL_SECTIONS: return par | C_LPRIV;
  case OMP_SINGLE: return C_PRIV | C_FPRIV | C_COPYPRIV | C_NOWAIT;
  default: return 0;
  }
}

static void clauses(Omp *o)
{
  unsigned ok = allowed(o->kind);
  while (pos <= end && !bad) {
    if (accept(",")) continue;
    int ct = pos;
    const char *c = peek();
    unsigned bit = !strcmp(c, "private") ? C_PRIV : !strcmp(c, "firstprivate") ? C_FPRIV :
      !strcmp(c, "lastprivate") ? C_LPRIV : !strcmp(c, "shared") ? C_SHARED :
      !strcmp(c, "reduction") ? C_RED : !strcmp(c, "copyin") ? C_COPYIN :
      !strcmp(c, "copyprivate") ? C_COPYPRIV : !strcmp(c, "default") ? C_DEFAULT :
      !strcmp(c, "num_threads") ? C_NUMT : !strcmp(c, "if") ? C_IF :
      !strcmp(c, "schedule") ? C_SCHED : !strcmp(c, "collapse") ? C_COLLAPSE :
      !strcmp(c, "ordered") ? C_ORDERED : !strcmp(c, "nowait") ? C_NOWAIT : 0;
    if (!bit) { error_at(ct, "unknown OpenMP clause '%s'", c); bad = 1; return; }
    if (!(ok & bit)) { error_at(ct, "clause '%s' is not valid on this directive", c); bad = 1; return; }
    pos++;
    switch (bit) {
    case C_PRIV: case C_FPRIV: case C_LPRIV: case C_SHARED: case C_COPYIN: case C_COPYPRIV: {
      int k = bit == C_PRIV ? DS_PRIVATE : bit == C_FPRIV ? DS_FIRSTPRIVATE : bit == C_LPRIV ? DS_LASTPRIVATE :
              bit == C_SHARED ? DS_SHARED : bit == C_COPYIN ? DS_COPYIN : DS_COPYPRIVATE;
      if (!expect("(")) return;
      var_list(o, k, 0);
      expect(")");
      break;
    }
    case C_RED: {
      if (!expect("(")) return;
      int op = red_op();
      if (op < 0 || !expect(":")) return;
      var_list(o, DS_REDUCTION, op);
      expect(")");
      break;
    }
    case C_DEFAULT:
      if (!expect("(")) return;
      if (accept("none")) o->deflt = 0;
      else if (accept("shared")) o->deflt = 1;
      else if (accept("private")) o->deflt = 2;
      else if (accept("firstprivate")) o->deflt = 3;
      else { error_at(pos <= end ? pos : end, "expected none, shared, private or firstprivate"); bad = 1; return; }
      expect(")");
      break;
    case C_NUMT:
      if (!expect("(")) return;
      o->num_threads = expr_span(0);
      expect(")");
      break;
    case C_IF:
      if (!expect("(")) return;
      o->if_expr = expr_span(0);
      expect(")");
      break;
    case C_SCHED:
      if (!expect("(")) return;
      if (accept("static")) o->sched = OMPDSM_SCHED_STATIC;
      else if (accept("dynamic")) o->sched = OMPDSM_SCHED_DYNAMIC;
      else if (accept("guided")) o->sched = OMPDSM_SCHED_GUIDED;
      else if (accept("runtime")) o->sched = OMPDSM_SCHED_RUNTIME;
      else if (accept("auto")) o->sched = OMPDSM_SCHED_AUTO;
      else { error_at(pos <= end ? pos : end, "unknown schedule kind '%s'", peek()); bad = 1; return; }
      if (accept(",")) o->chunk = expr_span(0);
      expect(")");
      break;
    case C_COLLAPSE:
      if (!expect("(")) return;
      if (pos > end || toks[pos].kind != CONSTANT || atoi(toks[pos].text) < 1) {
        error_at(pos <= end ? pos : end, "collapse needs a positive integer constant");
        bad = 1;
        return;
      }
      o->collapse = atoi(toks[pos++].text);
      expect(")");
      break;
    case C_ORDERED: o->ordered = 1; break;
    case C_NOWAIT: o->nowait = 1; break;
    }
  }
}

/* name or name[expr], for the seed's semaphores and conditions */
static void sync_name(Omp *o)
{
  if (pos > end || toks[pos].kind != IDENTIFIER) {
    error_at(pos <= end ? pos : end, "expected a semaphore or condition name");
    bad = 1;
    return;
  }
  o->name = toks[pos++].text;
  o->index.ft = 0; o->index.lt = -1;
  if (accept("[")) {
    int depth = 0;
    o->index.ft = pos;
    while (pos <= end && !(depth == 0 && at("]"))) {
      if (at("[")) depth++;
      if (at("]")) depth--;
      if (toks[pos].kind == IDENTIFIER) { toks[pos].sym = scope_lookup_before(toks[pos].text, o->tok); toks[pos].is_use = 1; }
      o->index.lt = pos++;
    }
    expect("]");
  }
}

Omp *omp_parse(int t)
{
  Omp *o = xcalloc(1, sizeof *o);
  o->tok = t;
  o->deflt = -1;
  o->sched = -1;
  o->num_threads.lt = o->if_expr.lt = o->chunk.lt = o->index.lt = o->value.lt = -1;
  pos = t + 1;
  end = toks[t].omp_end;
  bad = 0;
  const char *d = peek();
  int dt = pos;
  pos++;
  if (!strcmp(d, "parallel")) {
    o->kind = OMP_PARALLEL;
    if (accept("for")) o->kind = OMP_PARALLEL_FOR;
    else if (accept("sections")) o->kind = OMP_PARALLEL_SECTIONS;
    clauses(o);
  } else if (!strcmp(d, "for")) { o->kind = OMP_FOR; clauses(o); }
  else if (!strcmp(d, "sections")) { o->kind = OMP_SECTIONS; clauses(o); }
  else if (!strcmp(d, "section")) o->kind = OMP_SECTION;
  else if (!strcmp(d, "single")) { o->kind = OMP_SINGLE; clauses(o); }
  else if (!strcmp(d, "master")) o->kind = OMP_MASTER;
  else if (!strcmp(d, "critical")) {
    o->kind = OMP_CRITICAL;
    if (accept("(")) {
      if (pos > end || toks[pos].kind != IDENTIFIER) { error_at(pos <= end ? pos : end, "expected a critical section name"); bad = 1; }
      else o->name = toks[pos++].text;
      expect(")");
    }
  } else if (!strcmp(d, "atomic")) {
    o->kind = OMP_ATOMIC;
    if (!(accept("read") || accept("write") || accept("update") || accept("capture")) && pos <= end) {
      error_at(pos, "unknown atomic clause '%s'", peek());
      bad = 1;
    }
  } else if (!strcmp(d, "barrier")) o->kind = OMP_BARRIER;
  else if (!strcmp(d, "taskwait") || !strcmp(d, "taskyield")) o->kind = OMP_TASKWAIT;
  else if (!strcmp(d, "flush")) {
    o->kind = OMP_FLUSH;
    if (accept("(")) { while (pos <= end && !at(")")) pos++; expect(")"); }
  } else if (!strcmp(d, "ordered")) o->kind = OMP_ORDERED;
  else if (!strcmp(d, "threadprivate")) {
    o->kind = OMP_THREADPRIVATE;
    if (expect("(")) {
      do {
        if (pos > end || toks[pos].kind != IDENTIFIER) { error_at(pos <= end ? pos : end, "expected a variable name"); bad = 1; break; }
        Sym *y = scope_lookup_before(toks[pos].text, t);
        if (!y || y->kind != SYM_VAR) error_at(pos, "'%s' is not a variable", toks[pos].text);
        else if (y->depth > 0 && !y->is_static) error_at(pos, "threadprivate variable '%s' must be a global or static", y->name);
        else y->threadprivate = 1;
        pos++;
      } while (accept(","));
      expect(")");
    }
  } else if (!strncmp(d, "sema_", 5) || !strncmp(d, "cond_", 5)) {
    static const struct { const char *s; int k; } ks[] = {
      {"sema_init", OMP_SEMA_INIT}, {"sema_wait", OMP_SEMA_WAIT}, {"sema_signal", OMP_SEMA_SIGNAL},
      {"cond_wait", OMP_COND_WAIT}, {"cond_signal", OMP_COND_SIGNAL}, {"cond_broadcast", OMP_COND_BROADCAST},
      {NULL, 0} };
    int k = -1;
    for (int i = 0; ks[i].s; i++) if (!strcmp(d, ks[i].s)) k = ks[i].k;
    if (k < 0) { error_at(dt, "unknown OpenMP directive '%s'", d); return o; }
    o->kind = k;
    if (expect("(")) {
      sync_name(o);
      if (k == OMP_SEMA_INIT && !bad && expect(",")) o->value = expr_span(0);
      if (!bad) expect(")");
    }
  } else {
    error_at(dt <= end ? dt : t, "unknown OpenMP directive '%s'", d);
    return o;
  }
  if (!bad && pos <= end)
    error_at(pos, "unexpected '%s' after OpenMP directive", peek());
  return o;
}
