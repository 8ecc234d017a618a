/*
 * omp_parse.c — parse one "#pragma omp" directive from its tokens.
 *
 * The lexer leaves the directive's tokens right after the directive token
 * (toks[t+1 .. toks[t].omp_end]). Variable names resolve against the scope
 * at the directive (scope_lookup_before), so a later declaration of the
 * same name cannot capture them. Expressions (num_threads, if, chunk, index)
 * stay token spans; the lowering prints them with its substitutions.
 */
#include "omp_parse.h"
#include "ir.h"
#include "parser.h"
#include "scope.h"
#include "type.h"
#include "../include/ompdsm_rt.h"

#include <stdio.h>
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
  if (kind == DS_LINEAR && !(y->type && (y->type->kind == TY_PTR || y->type->kind == TY_ENUM ||
                                         (y->type->kind >= TY_BOOL && y->type->kind <= TY_LLONG)))) {
    error_at(t, "linear variable '%s' must have an integer or pointer type", y->name);
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

/* The variables just added by var_list, from *from on: linear's step
   applies to each of them. */
static void set_steps(VarClause *from, Span step)
{
  for (VarClause *v = from; v; v = v->next)
    if (v->kind == DS_LINEAR) v->step = step;
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
       C_COLLAPSE = 2048, C_ORDERED = 4096, C_NOWAIT = 8192, C_FINAL = 1u << 14,
       C_PRIO = 1u << 15, C_UNTIED = 1u << 16, C_MERGEABLE = 1u << 17, C_DEPEND = 1u << 18,
       C_GRAIN = 1u << 19, C_NUMTASKS = 1u << 20, C_NOGROUP = 1u << 21, C_LINEAR = 1u << 22,
       C_ORDER = 1u << 23, C_PROCBIND = 1u << 24 };

static unsigned allowed(int kind)
{
  unsigned par = C_PRIV | C_FPRIV | C_SHARED | C_RED | C_COPYIN | C_DEFAULT | C_NUMT | C_IF | C_PROCBIND;
  unsigned fr = C_PRIV | C_FPRIV | C_LPRIV | C_RED | C_SCHED | C_COLLAPSE | C_ORDERED | C_NOWAIT |
                C_LINEAR | C_ORDER;
  unsigned tl = C_PRIV | C_FPRIV | C_LPRIV | C_SHARED | C_DEFAULT | C_IF | C_FINAL | C_PRIO |
                C_UNTIED | C_MERGEABLE | C_GRAIN | C_NUMTASKS | C_NOGROUP | C_COLLAPSE | C_RED;
  switch (kind) {
  case OMP_PARALLEL: return par;
  case OMP_FOR: return fr;
  case OMP_PARALLEL_FOR: return (par | fr) & ~(unsigned)C_NOWAIT;
  case OMP_SECTIONS: return C_PRIV | C_FPRIV | C_LPRIV | C_RED | C_NOWAIT;
  case OMP_PARALLEL_SECTIONS: return par | C_LPRIV;
  case OMP_PARALLEL_MASTER_TASKLOOP: return (C_PRIV | C_FPRIV | C_LPRIV | C_SHARED | C_DEFAULT | C_IF |
                                             C_FINAL | C_PRIO | C_UNTIED | C_MERGEABLE | C_GRAIN |
                                             C_NUMTASKS | C_NOGROUP | C_COLLAPSE | C_RED) | C_NUMT | C_PROCBIND;
  case OMP_SINGLE: return C_PRIV | C_FPRIV | C_COPYPRIV | C_NOWAIT;
  case OMP_SERIAL: return C_PRIV | C_FPRIV | C_LPRIV | C_RED | C_SHARED | C_DEFAULT | C_IF | C_NUMT;
  case OMP_TASK: return C_PRIV | C_FPRIV | C_SHARED | C_DEFAULT | C_IF | C_FINAL | C_PRIO |
                        C_UNTIED | C_MERGEABLE | C_DEPEND;
  case OMP_TASKLOOP: case OMP_MASTER_TASKLOOP: return tl;
  case OMP_PARALLEL_MASTER: return par;
  case OMP_TASKWAIT: return C_DEPEND;   /* waits for all children: more than depend asks */
  default: return 0;
  }
}

/* Skip a balanced "( ... )" if one follows. */
static void skip_group(void)
{
  if (!at("(")) return;
  int depth = 0;
  do {
    if (at("(")) depth++;
    else if (at(")")) depth--;
    pos++;
  } while (pos <= end && depth > 0);
}

/* hint(expr) on critical and atomic: kept so that the lowering can have the
   C compiler check it is an integer constant, as OpenMP requires; what it
   hints changes nothing here. */
static Span hint_clause(void)
{
  Span s = { pos, pos - 1 };
  if (!expect("(")) return s;
  s = expr_span(0);
  if (s.ft > s.lt && !bad) { error_at(pos <= end ? pos : end, "expected an expression in 'hint'"); bad = 1; }
  expect(")");
  return s;
}

static int is_parallel_kind(int k)
{
  return k == OMP_PARALLEL || k == OMP_PARALLEL_FOR || k == OMP_PARALLEL_SECTIONS ||
         k == OMP_PARALLEL_MASTER || k == OMP_PARALLEL_MASTER_TASKLOOP;
}

/* Clauses of the constructs that run serially here (simd, target, teams,
   distribute, loop): they tune vectorization or devices, and a host run
   of one team on one device can do without them. */
static int ignored_clause(Omp *o, const char *c)
{
  static const char *names[] = { "safelen", "simdlen", "aligned", "linear", "nontemporal",
    "map", "device", "defaultmap", "is_device_ptr", "use_device_ptr", "use_device_addr",
    "has_device_addr", "depend", "num_teams", "thread_limit", "dist_schedule", "bind",
    "order", "allocate", "uses_allocators", "in_reduction", "proc_bind", NULL };
  /* taskloop simd: a SIMD width of one needs none of simd's own clauses */
  static const char *simd_only[] = { "safelen", "simdlen", "aligned", "nontemporal", "order", NULL };
  if (o->simd_words)
    for (int i = 0; simd_only[i]; i++)
      if (!strcmp(c, simd_only[i])) return 1;
  if (!o->ext) return 0;
  /* for simd, parallel for simd: the for half shares the work and keeps
     these clauses' meaning (clauses() handles them) */
  if ((o->kind == OMP_FOR || o->kind == OMP_PARALLEL_FOR) && (!strcmp(c, "linear") || !strcmp(c, "order")))
    return 0;
  if (is_parallel_kind(o->kind) && !strcmp(c, "proc_bind"))
    return 0;
  for (int i = 0; names[i]; i++)
    if (!strcmp(c, names[i])) return 1;
  /* "nowait" on target, "collapse" on distribute */
  return o->kind == OMP_SERIAL && (!strcmp(c, "nowait") || !strcmp(c, "collapse"));
}

/* Clauses that OpenMP has but this implementation does not: an error
   that says so, rather than "unknown". */
static int unsupported_clause(const char *c)
{
  static const char *names[] = { "in_reduction", "task_reduction", "detach", "affinity",
                                  "allocate", NULL };
  for (int i = 0; names[i]; i++)
    if (!strcmp(c, names[i])) return 1;
  return 0;
}

/* One list item of depend: a variable, an element, or an array section
   as its last subscript, base[lo:len] (lo, len optional). */
static void dep_item(Omp *o, int kind)
{
  int t = pos;
  Span it = expr_span(1);
  if (bad) return;
  Dep *d = xcalloc(1, sizeof *d);
  d->kind = kind; d->tok = t; d->item = it;
  d->base.ft = d->lo.ft = d->len.ft = 0;
  d->base.lt = d->lo.lt = d->len.lt = -1;
  int depth = 0, open = -1, colon = -1, nsect = 0;
  for (int i = it.ft; i <= it.lt; i++) {
    const char *x = toks[i].text;
    if (!strcmp(x, "[")) { if (depth++ == 0) { open = i; colon = -1; } }
    else if (!strcmp(x, "]")) {
      if (--depth == 0 && colon >= 0) {
        nsect++;
        if (i != it.lt) { error_at(open, "an array section in depend must be the last subscript"); bad = 1; return; }
        d->sect = 1;
        d->base.ft = it.ft; d->base.lt = open - 1;
        d->lo.ft = open + 1; d->lo.lt = colon - 1;
        d->len.ft = colon + 1; d->len.lt = i - 1;
      }
    } else if (!strcmp(x, ":") && depth == 1) colon = i;
    else if (!strcmp(x, "(") || !strcmp(x, ")")) { /* balanced by expr_span */ }
  }
  if (nsect > 1 || (d->sect && d->base.ft > d->base.lt)) { error_at(t, "unsupported array section in depend"); bad = 1; return; }
  Dep **pp = &o->deps;
  while (*pp) pp = &(*pp)->next;
  *pp = d;
}

static void depend_clause(Omp *o)
{
  if (!expect("(")) return;
  if (at("iterator")) { error_at(pos, "depend modifier 'iterator' is not supported by ompdsmcc"); bad = 1; return; }
  /* mutexinoutset (OpenMP 5.0) asks that such sibling tasks do not run at
     once, in any order; as inout they run one at a time in the order they
     were made, one of the orders it allows. */
  int kind = accept("inout") || accept("mutexinoutset") ? OMPDSM_DEP_INOUT : accept("in") ? OMPDSM_DEP_IN :
             accept("out") ? OMPDSM_DEP_OUT : 0;
  if (!kind) {
    if (at("inoutset") || at("depobj") || at("source") || at("sink"))
      error_at(pos, "depend kind '%s' is not supported by ompdsmcc (only in, out, inout and mutexinoutset)", peek());
    else error_at(pos <= end ? pos : end, "expected in, out, inout or mutexinoutset in depend");
    bad = 1;
    return;
  }
  if (!expect(":")) return;
  do dep_item(o, kind); while (!bad && accept(","));
  expect(")");
}

static void clauses(Omp *o)
{
  unsigned ok = allowed(o->kind);
  int order_at = -1, nonmono_at = -1;   /* for the checks across clauses */
  while (pos <= end && !bad) {
    if (accept(",")) continue;
    int ct = pos;
    const char *c = peek();
    if (ignored_clause(o, c)) { pos++; skip_group(); continue; }
    unsigned bit = !strcmp(c, "private") ? C_PRIV : !strcmp(c, "firstprivate") ? C_FPRIV :
      !strcmp(c, "lastprivate") ? C_LPRIV : !strcmp(c, "shared") ? C_SHARED :
      !strcmp(c, "reduction") ? C_RED : !strcmp(c, "copyin") ? C_COPYIN :
      !strcmp(c, "copyprivate") ? C_COPYPRIV : !strcmp(c, "default") ? C_DEFAULT :
      !strcmp(c, "num_threads") ? C_NUMT : !strcmp(c, "if") ? C_IF :
      !strcmp(c, "schedule") ? C_SCHED : !strcmp(c, "collapse") ? C_COLLAPSE :
      !strcmp(c, "ordered") ? C_ORDERED : !strcmp(c, "nowait") ? C_NOWAIT :
      !strcmp(c, "final") ? C_FINAL : !strcmp(c, "priority") ? C_PRIO :
      !strcmp(c, "untied") ? C_UNTIED : !strcmp(c, "mergeable") ? C_MERGEABLE :
      !strcmp(c, "depend") ? C_DEPEND : !strcmp(c, "grainsize") ? C_GRAIN :
      !strcmp(c, "num_tasks") ? C_NUMTASKS : !strcmp(c, "nogroup") ? C_NOGROUP :
      !strcmp(c, "linear") ? C_LINEAR : !strcmp(c, "order") ? C_ORDER :
      !strcmp(c, "proc_bind") ? C_PROCBIND : 0;
    if (!bit && unsupported_clause(c)) { error_at(ct, "clause '%s' is not supported by ompdsmcc", c); bad = 1; return; }
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
      /* OpenMP 4.5 directive-name modifier: if(parallel: cond) */
      if (pos + 1 <= end && toks[pos].kind == IDENTIFIER && !strcmp(toks[pos + 1].text, ":")) pos += 2;
      o->if_expr = expr_span(0);
      expect(")");
      break;
    case C_SCHED: {
      if (!expect("(")) return;
      /* OpenMP 4.5 modifiers: schedule([monotonic|nonmonotonic][, simd]: kind[, chunk]).
         They are hints here: every schedule hands a thread its chunks in
         increasing order (monotonic), which nonmonotonic allows too, and
         simd's chunk rounding is for SIMD widths above one. */
      int mono = 0, nonmono = 0, mt = pos;
      while (pos + 1 <= end && (at("monotonic") || at("nonmonotonic") || at("simd")) &&
             (!strcmp(toks[pos + 1].text, ":") || !strcmp(toks[pos + 1].text, ","))) {
        if (at("monotonic")) mono = 1;
        else if (at("nonmonotonic")) nonmono = 1;
        pos++;
        if (accept(":")) break;
        pos++;   /* the ',' */
      }
      if (mono && nonmono) {
        error_at(mt, "schedule modifiers 'monotonic' and 'nonmonotonic' may not both appear");
        bad = 1;
        return;
      }
      o->sched_nonmonotonic = nonmono;
      if (nonmono) nonmono_at = mt;
      if (accept("static")) o->sched = OMPDSM_SCHED_STATIC;
      else if (accept("dynamic")) o->sched = OMPDSM_SCHED_DYNAMIC;
      else if (accept("guided")) o->sched = OMPDSM_SCHED_GUIDED;
      else if (accept("runtime")) o->sched = OMPDSM_SCHED_RUNTIME;
      else if (accept("auto")) o->sched = OMPDSM_SCHED_AUTO;
      else { error_at(pos <= end ? pos : end, "unknown schedule kind '%s'", peek()); bad = 1; return; }
      if (nonmono && o->sched != OMPDSM_SCHED_DYNAMIC && o->sched != OMPDSM_SCHED_GUIDED) {
        error_at(mt, "the 'nonmonotonic' modifier needs a dynamic or guided schedule");
        bad = 1;
        return;
      }
      if (accept(",")) o->chunk = expr_span(0);
      expect(")");
      break;
    }
    case C_LINEAR: {
      /* linear(list[: step]), and OpenMP 5.2's linear(list: step(s)) */
      if (!expect("(")) return;
      if (pos + 1 <= end && toks[pos + 1].kind != IDENTIFIER && !strcmp(toks[pos + 1].text, "(")) {
        error_at(pos, "linear modifier '%s' is not supported by ompdsmcc (list the variables alone)", peek());
        bad = 1;
        return;
      }
      VarClause *last = o->vars;
      while (last && last->next) last = last->next;
      var_list(o, DS_LINEAR, 0);
      Span step = { 0, -1 };
      if (!bad && accept(":")) {
        if (at("step") && pos + 1 <= end && !strcmp(toks[pos + 1].text, "(")) {
          pos += 2;
          step = expr_span(0);
          expect(")");
        } else {
          step = expr_span(0);
        }
      }
      if (!bad) set_steps(last ? last->next : o->vars, step);
      expect(")");
      break;
    }
    case C_ORDER:
      /* order([reproducible: | unconstrained:] concurrent): iterations
         may run in any order, at once; this implementation's schedules
         are among those orders. */
      if (!expect("(")) return;
      if ((at("reproducible") || at("unconstrained")) && pos + 1 <= end && !strcmp(toks[pos + 1].text, ":"))
        pos += 2;
      if (!accept("concurrent")) {
        error_at(pos <= end ? pos : end, "expected 'concurrent' in order");
        bad = 1;
        return;
      }
      o->order_concurrent = 1;
      order_at = ct;
      expect(")");
      break;
    case C_PROCBIND:
      /* Where threads run is decided for the job as a whole (dsmrun
         --bind-to, one CPU per thread of a process); the policy a region
         asks for changes nothing, as OpenMP allows. */
      if (!expect("(")) return;
      if (!(accept("master") || accept("primary") || accept("close") || accept("spread"))) {
        error_at(pos <= end ? pos : end, "expected master, primary, close or spread in proc_bind");
        bad = 1;
        return;
      }
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
    case C_FINAL: case C_PRIO: case C_GRAIN: case C_NUMTASKS: {
      if (!expect("(")) return;
      /* OpenMP 5.1: grainsize(strict: g), num_tasks(strict: n) */
      if ((bit == C_GRAIN || bit == C_NUMTASKS) && pos + 1 <= end && at("strict") && !strcmp(toks[pos + 1].text, ":")) {
        pos += 2;
        if (bit == C_GRAIN) o->grain_strict = 1;
      }
      Span e = expr_span(0);
      if (bit == C_FINAL) o->final_expr = e;
      else if (bit == C_PRIO) o->priority = e;
      else if (bit == C_GRAIN) o->grainsize = e;
      else o->num_tasks = e;
      expect(")");
      if (o->grainsize.ft <= o->grainsize.lt && o->num_tasks.ft <= o->num_tasks.lt) {
        error_at(ct, "grainsize and num_tasks may not both appear");
        bad = 1;
      }
      break;
    }
    case C_UNTIED: o->untied = 1; break;
    case C_MERGEABLE: o->mergeable = 1; break;
    case C_NOGROUP: o->nogroup = 1; break;
    case C_DEPEND: depend_clause(o); break;
    }
  }
  if (!bad && o->ordered && (o->order_concurrent || o->sched_nonmonotonic)) {
    error_at(o->order_concurrent ? order_at : nonmono_at, "an 'ordered' loop may not have %s",
             o->order_concurrent ? "order(concurrent)" : "a nonmonotonic schedule");
    bad = 1;
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

/* The words of a (combined) construct: "parallel for", "for simd",
   "target teams distribute parallel for simd", "loop". Work is shared the
   way its parallel/for/sections part says; what is left (simd, target,
   teams, distribute) runs as is on the thread that meets it, which OpenMP
   allows: one team, the host as the device, a SIMD width of one. */
static int construct_words(Omp *o)
{
  static const char *names[] = { "parallel", "for", "sections", "loop", "simd", "target",
                                 "teams", "distribute", "data", "master", "taskloop", NULL };
  enum { PAR = 1, FOR = 2, SECT = 4, LOOP = 8, SIMD = 16, TARGET = 32, TEAMS = 64, DIST = 128, DATA = 256,
         MASTER = 512, TASKLOOP = 1024 };
  int w = 0, first = pos;
  for (;;) {
    int k = -1;
    for (int i = 0; names[i]; i++)
      if (at(names[i])) k = i;
    if (k < 0 || (w & (1 << k))) break;
    w |= 1 << k;
    pos++;
  }
  if (!w || w == DATA || w == MASTER) { pos = first; return 0; }
  if (w & (MASTER | TASKLOOP)) {
    /* taskloop, master taskloop, parallel master taskloop (simd: a width of
       one), parallel master */
    int rest = w & ~(PAR | MASTER | TASKLOOP | SIMD);
    int ok = !rest && (!(w & PAR) || (w & MASTER)) && (w & (TASKLOOP | PAR));
    if (!ok || (w & SIMD && !(w & TASKLOOP))) {
      error_at(first, "this combination of constructs is not supported by ompdsmcc");
      bad = 1;
      pos = end + 1;
      o->kind = OMP_NOP;
      return 1;
    }
    o->kind = !(w & TASKLOOP) ? OMP_PARALLEL_MASTER : w & PAR ? OMP_PARALLEL_MASTER_TASKLOOP :
              w & MASTER ? OMP_MASTER_TASKLOOP : OMP_TASKLOOP;
    o->simd_words = (w & SIMD) != 0;
    return 1;
  }
  if (w & PAR) o->kind = w & (FOR | LOOP) ? OMP_PARALLEL_FOR : w & SECT ? OMP_PARALLEL_SECTIONS : OMP_PARALLEL;
  else if (w & (FOR | LOOP)) o->kind = OMP_FOR;
  else if (w & SECT) o->kind = OMP_SECTIONS;
  else o->kind = OMP_SERIAL;
  o->ext = (w & (LOOP | SIMD | TARGET | TEAMS | DIST)) != 0;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  for (int i = first; i < pos; i++) fprintf(f, "%s%s", i > first ? " " : "", toks[i].text);
  fclose(f);
  o->spelled = buf;
  if (o->ext && o->kind != OMP_SERIAL)
    note_at(first, "'%s' runs as '%s'", buf, o->kind == OMP_FOR ? "for" : o->kind == OMP_PARALLEL ? "parallel" :
            o->kind == OMP_PARALLEL_FOR ? "parallel for" : "parallel sections");
  return 1;
}

/* _Thread_local belongs to a whole declaration, so a threadprivate variable
   declared beside others ("int a, tp;") must not make them thread-local too:
   the commas where thread-locality changes split the declaration (emit.c
   prints "; _Thread_local int" there), and only a first declarator that is
   threadprivate puts _Thread_local in front of the original specifiers. */
static int mark_thread_local(Sym *y)
{
  int before = y->decl_ft - 1, after = -1, depth = 0;
  if (before <= y->spec_lt || strcmp(toks[before].text, ",")) before = -1;
  for (int i = y->decl_lt + 1; i < ntoks && depth >= 0; i++) { /* past the initializer */
    const char *s = toks[i].text;
    if (!strcmp(s, "(") || !strcmp(s, "[") || !strcmp(s, "{")) depth++;
    else if (!strcmp(s, ")") || !strcmp(s, "]") || !strcmp(s, "}")) depth--;
    else if (depth == 0 && !strcmp(s, ";")) break;
    else if (depth == 0 && !strcmp(s, ",")) { after = i; break; }
  }
  /* splitting repeats the specifiers, which an unnamed struct's cannot be */
  if (before >= 0 || after >= 0)
    for (int i = y->spec_ft + 1; i <= y->spec_lt; i++)
      if (!strcmp(toks[i].text, "{") && toks[i - 1].kind != IDENTIFIER && toks[i - 1].kind != TYPE_NAME)
        return -1;
  if (before >= 0) { toks[before].split_sym = y; toks[before].tp_next = 1; }
  else toks[y->spec_ft].thread_before = 1;
  if (after >= 0) { toks[after].split_sym = y; toks[after].tp_prev = 1; }
  return 0;
}

Omp *omp_parse(int t)
{
  Omp *o = xcalloc(1, sizeof *o);
  o->tok = t;
  o->deflt = -1;
  o->sched = -1;
  o->num_threads.lt = o->if_expr.lt = o->chunk.lt = o->index.lt = o->value.lt = o->hint.lt = -1;
  o->final_expr.lt = o->priority.lt = o->grainsize.lt = o->num_tasks.lt = -1;
  pos = t + 1;
  end = toks[t].omp_end;
  bad = 0;
  const char *d = peek();
  int dt = pos;
  if (construct_words(o)) clauses(o);
  else if (!strcmp(d, "declare") && pos + 1 <= end && !strcmp(toks[pos + 1].text, "reduction")) {
    /* User-defined reductions: their combiner would have to run where the
       runtime folds the partials, over types it does not know. Refused
       here, where the user can see it, not at the first use (issue 56). */
    o->kind = OMP_NOP;
    error_at(pos + 1, "'declare reduction' (a user-defined reduction) is not supported by ompdsmcc; "
             "combine each thread's partial result yourself, in a critical section");
    return o;
  }
  else if ((pos++, !strcmp(d, "declare")) || !strcmp(d, "end")) {
    /* declare simd / declare target / end declare target: a host build needs none */
    o->kind = OMP_NOP;
    o->spelled = xstrdup(!strcmp(d, "end") ? "end declare" : "declare");
    pos = end + 1;
    note_at(dt, "'#pragma omp %s' has nothing to do in a host build", o->spelled);
  }
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
    accept(",");
    if (!bad && accept("hint")) o->hint = hint_clause();
  } else if (!strcmp(d, "atomic")) {
    /* OpenMP 5.x: the kind and the memory order in any order, and a hint;
       the lock that implements atomic orders more strongly than any asks */
    o->kind = OMP_ATOMIC;
    static const char *words[] = { "read", "write", "update", "capture", "seq_cst", "acq_rel",
                                   "acquire", "release", "relaxed", NULL };
    while (pos <= end && !bad) {
      if (accept(",")) continue;
      int known = 0;
      for (int i = 0; words[i] && !known; i++) known = accept(words[i]);
      if (known) continue;
      if (accept("hint")) { o->hint = hint_clause(); continue; }
      error_at(pos, "unknown atomic clause '%s'", peek());
      bad = 1;
    }
  } else if (!strcmp(d, "barrier")) o->kind = OMP_BARRIER;
  else if (!strcmp(d, "taskwait")) { o->kind = OMP_TASKWAIT; clauses(o); }
  else if (!strcmp(d, "taskyield")) o->kind = OMP_TASKYIELD;
  else if (!strcmp(d, "task")) { o->kind = OMP_TASK; clauses(o); }
  else if (!strcmp(d, "taskgroup")) { o->kind = OMP_TASKGROUP; clauses(o); }
  else if (!strcmp(d, "flush")) {
    o->kind = OMP_FLUSH;
    /* a flush here is always a full one: acquire and release included */
    if (accept("acq_rel") || accept("acquire") || accept("release") || accept("seq_cst")) {}
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
        else {
          y->threadprivate = 1;
          /* Several OpenMP threads per process (dsmrun --threads): one
             copy per thread, as the directive says. */
          if (!y->is_thread && y->spec_ft >= 0 && mark_thread_local(y) < 0)
            error_at(pos, "threadprivate variable '%s' shares a declaration with other variables "
                     "and an unnamed struct or union; declare it on its own", y->name);
        }
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
