/*
 * omp_nowait.c — barriers that a static schedule makes unnecessary.
 *
 * NAS SP's solvers run a worksharing loop inside a sequential one:
 *
 *     for (i = 0; i <= nx - 3; i++) {
 *       #pragma omp for
 *       for (j = 1; j <= ny - 2; j++)
 *         ... lhs[n][i][j][k], lhs[n][i + 1][j][k], rhs[m][i + 2][j][k] ...
 *     }
 *
 * Every iteration of the i loop ends in the omp for's barrier: ~400 per
 * solver and step at class A, each a round of messages and, after it,
 * faults on every page that both processes wrote. Yet a thread touches only
 * the j of its own chunk, and the static schedule gives it the same chunk
 * in every instance of the loop: no thread reads what another wrote until
 * the i loop ends. So its worksharing loops need no barrier of their own,
 * and one barrier after the sequential loop keeps what follows ordered as
 * before (all threads run the loop the same number of times).
 *
 * A sequential loop S (for, while, do) inside a parallel region or an
 * orphaned function qualifies when, over all of its tokens:
 *   - every OpenMP construct in it is an omp for with a static schedule
 *     (or none), without ordered, collapse, reduction, lastprivate or a
 *     chunk size, and all of them have the same bounds and step, spelled
 *     with names that S does not assign;
 *   - every shared array that S writes is only ever indexed, in S, inside
 *     those loops and with one subscript that is exactly the loop's
 *     variable, at the same position each time (the partition is the same
 *     in every loop), with no other subscript naming it;
 *   - shared arrays that S reads otherwise, it never writes; it assigns no
 *     shared scalar, takes no shared address, dereferences no pointer
 *     (aliases are unknown), uses no private pointer, and calls only pure
 *     math functions; and it has no return or goto.
 * Then its loops become nowait and a barrier follows S. Anything else keeps
 * its barriers: this is a proof, not a guess. The outermost qualifying loop
 * wins (SP's m loop around the i loop, around the omp for).
 *
 * A variable is private here when it is a non-static local declared inside
 * the enclosing parallel construct, or any non-static local of a function
 * with no parallel construct around the loop (an orphaned loop: the
 * function runs on each thread's stack), or listed private/firstprivate on
 * the parallel construct, or threadprivate; every other variable is shared.
 */
#include "ir.h"
#include "parser.h"
#include "../include/ompdsm_rt.h"

#include <stdlib.h>
#include <string.h>

static int is(int i, const char *s) { return i >= 0 && i < ntoks && !strcmp(toks[i].text, s); }

/* The analysis of one candidate loop. */
typedef struct Part { Sym *arr; int dim; int written; int unpart_read; struct Part *next; } Part;
typedef struct Scan {
  Node *par;              /* the enclosing parallel construct, or NULL */
  Node *loops[64];        /* the omp for constructs in S */
  Loop L[64];
  int nloops;
  Part *parts;
  int ok;
} Scan;

static Part *part_of(Scan *sc, Sym *a)
{
  for (Part *p = sc->parts; p; p = p->next)
    if (p->arr == a) return p;
  Part *p = xcalloc(1, sizeof *p);
  p->arr = a;
  p->dim = -1;
  p->next = sc->parts;
  sc->parts = p;
  return p;
}

/* The omp for whose body holds token i (its loop variable partitions), or -1. */
static int loop_at(Scan *sc, int i)
{
  for (int k = 0; k < sc->nloops; k++)
    if (i >= sc->L[k].body->ft && i <= sc->L[k].body->lt) return k;
  return -1;
}

static int is_private(Scan *sc, Sym *y, int at)
{
  if (y->threadprivate || y->is_thread) return 1;
  if (y->depth == 0 || y->is_static || y->is_extern) return 0;
  if (!sc->par) return 1;                       /* an orphaned function's local */
  if (y->ident > sc->par->ft && y->ident <= sc->par->lt) return 1;
  for (VarClause *v = sc->par->omp->vars; v; v = v->next)
    if (v->sym == y && (v->kind == DS_PRIVATE || v->kind == DS_FIRSTPRIVATE)) return 1;
  for (int k = 0; k < sc->nloops; k++)
    if (sc->L[k].var == y) return 1;
  int k = loop_at(sc, at);      /* privatized by the loop that holds the use */
  if (k >= 0)
    for (VarClause *v = sc->loops[k]->omp->vars; v; v = v->next)
      if (v->sym == y) return 1;
  return 0;
}

static int is_assign_op(int i)
{
  static const char *ops[] = { "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
                               "++", "--", NULL };
  for (int k = 0; ops[k]; k++)
    if (is(i, ops[k])) return 1;
  return 0;
}

/* Does token i end an operand (so a following '*' or '&' is binary)? */
static int ends_operand(int i)
{
  if (i < 0) return 0;
  int k = toks[i].kind;
  return k == IDENTIFIER || k == CONSTANT || k == STRING_LITERAL || is(i, ")") || is(i, "]") ||
         is(i, "++") || is(i, "--");
}

static const char *pure_fns[] = {
  "sqrt", "fabs", "pow", "exp", "log", "log10", "sin", "cos", "tan", "atan", "atan2", "floor",
  "ceil", "fmax", "fmin", "fmod", "abs", "labs", "sqrtf", "fabsf", "exp2", "cbrt", "hypot", NULL
};

/* Uses of shared variables in tokens a..b. */
static void scan_uses(Scan *sc, int a, int b)
{
  for (int i = a; i <= b && sc->ok; i++) {
    if (is(i, "return") || is(i, "goto") || is(i, "->") || is(i, "asm") || is(i, "__asm__")) {
      sc->ok = 0;
      return;
    }
    if ((is(i, "*") || is(i, "&")) && !ends_operand(i - 1)) {
      sc->ok = 0;               /* a dereference or an address: unknown aliases */
      return;
    }
    Token *t = &toks[i];
    if (t->kind != IDENTIFIER || t->is_member) continue;
    Sym *y = t->sym;
    if (is(i + 1, "(") && (!y || y->kind != SYM_ENUMC)) {
      /* A call: only of a function known to touch nothing but its
         arguments (never through a variable). */
      int pure = 0;
      for (int k = 0; pure_fns[k]; k++) pure |= !strcmp(t->text, pure_fns[k]);
      if (!pure || (y && y->kind == SYM_VAR)) { sc->ok = 0; return; }
      continue;
    }
    if (!y || y->kind != SYM_VAR) continue;
    Type *ty = y->type;
    if (!ty) { sc->ok = 0; return; }
    if (is_private(sc, y, i)) {
      if (ty->kind == TY_PTR) { sc->ok = 0; return; }
      continue;
    }
    /* A shared variable. */
    if (ty->kind != TY_ARRAY) {
      if (ty->kind == TY_STRUCT || ty->kind == TY_UNION || ty->kind == TY_PTR || is_assign_op(i + 1) ||
          is(i - 1, "++") || is(i - 1, "--") || is(i + 1, ".")) {
        sc->ok = 0;
        return;
      }
      continue;
    }
    /* Its subscripts, one per dimension. */
    int rank = 0;
    for (Type *u = ty; u && u->kind == TY_ARRAY; u = u->base) rank++;
    int j = i + 1, nsub = 0, pdim = -1, mentions = 0;
    int k = loop_at(sc, i);
    Sym *var = k >= 0 ? sc->L[k].var : NULL;
    while (is(j, "[")) {
      int depth = 1, e = j + 1;
      for (; e <= b && depth; e++) {
        if (is(e, "[")) depth++;
        else if (is(e, "]")) depth--;
      }
      e--;                       /* the matching ']' */
      if (depth) { sc->ok = 0; return; }
      if (var) {
        if (e == j + 2 && toks[j + 1].sym == var) {
          if (pdim >= 0) mentions = 1;
          pdim = nsub;
        } else {
          for (int x = j + 1; x < e; x++)
            if (toks[x].sym == var) mentions = 1;
        }
      }
      nsub++;
      j = e + 1;
    }
    if (nsub != rank || mentions || is(j, ".")) { sc->ok = 0; return; }
    int write = is_assign_op(j) || is(i - 1, "++") || is(i - 1, "--");
    Part *p = part_of(sc, y);
    p->written |= write;
    if (pdim < 0) {
      p->unpart_read = 1;        /* the same element(s) for every thread */
    } else if (p->dim < 0) {
      p->dim = pdim;
    } else if (p->dim != pdim) {
      sc->ok = 0;
      return;
    }
    i = j - 1;
  }
}

/* Identifiers of tokens a..b that S assigns (or whose address it takes). */
static int assigned_in(int a, int b, int sa, int sb)
{
  for (int i = a; i <= b; i++) {
    if (toks[i].kind != IDENTIFIER || !toks[i].sym) continue;
    for (int x = sa; x <= sb; x++)
      if (toks[x].sym == toks[i].sym &&
          (is_assign_op(x + 1) || is(x - 1, "++") || is(x - 1, "--") || is(x - 1, "&")))
        return 1;
  }
  return 0;
}

static int same_span(Span p, Span q)
{
  if (p.ft < 0 || q.ft < 0) return p.ft < 0 && q.ft < 0;   /* ++/--: no step tokens */
  if (p.lt - p.ft != q.lt - q.ft) return 0;
  for (int k = 0; p.ft + k <= p.lt; k++) {
    Token *a = &toks[p.ft + k], *c = &toks[q.ft + k];
    if (strcmp(a->text, c->text) || a->sym != c->sym) return 0;
  }
  return 1;
}

static void collect(Scan *sc, Node *n)
{
  for (; n && sc->ok; n = n->next) {
    if (n->kind == N_OMP) {
      Omp *om = n->omp;
      int bad = om->kind != OMP_FOR || om->ordered || om->collapse > 1 ||
                (om->sched >= 0 && om->sched != OMPDSM_SCHED_STATIC) || om->chunk.ft <= om->chunk.lt ||
                sc->nloops == 64;
      for (VarClause *v = om->vars; v && !bad; v = v->next)
        bad = v->kind != DS_PRIVATE && v->kind != DS_FIRSTPRIVATE;
      if (bad) { sc->ok = 0; return; }
      int save = nerrors;
      diag_quiet = 1;
      int canon = loop_canonical(n->body, &sc->L[sc->nloops]);
      diag_quiet = 0;
      nerrors = save;
      if (!canon) { sc->ok = 0; return; }
      sc->loops[sc->nloops++] = n;
      collect(sc, n->body ? n->body->kids : NULL);   /* nothing may hide in its body */
      continue;
    }
    collect(sc, n->kids);
  }
}

static int is_seq_loop(Node *n)
{
  return n->kind == N_FOR || (n->kind == N_OTHER && (is(n->ft, "while") || is(n->ft, "do")));
}

static int qualifies(Node *s, Node *par)
{
  Scan sc = { .par = par, .ok = 1 };
  collect(&sc, s->kids);
  if (!sc.ok || !sc.nloops) return 0;
  for (int k = 1; k < sc.nloops; k++)
    if (sc.L[k].op != sc.L[0].op || sc.L[k].step_neg != sc.L[0].step_neg ||
        !same_span(sc.L[k].lb, sc.L[0].lb) || !same_span(sc.L[k].ub, sc.L[0].ub) ||
        !same_span(sc.L[k].step, sc.L[0].step))
      return 0;
  Loop *L = &sc.L[0];
  if (assigned_in(L->lb.ft, L->lb.lt, s->ft, s->lt) || assigned_in(L->ub.ft, L->ub.lt, s->ft, s->lt) ||
      (L->step.ft >= 0 && assigned_in(L->step.ft, L->step.lt, s->ft, s->lt)))
    return 0;
  scan_uses(&sc, s->ft, s->lt);
  for (Part *p = sc.parts; p && sc.ok; p = p->next)
    if (p->written && p->unpart_read) sc.ok = 0;
  while (sc.parts) { Part *p = sc.parts; sc.parts = p->next; free(p); }
  if (!sc.ok) return 0;
  /* Loops that are nowait already gain nothing, and the barrier after S
     would be one more. */
  int dropped = 0;
  for (int k = 0; k < sc.nloops; k++)
    dropped += !sc.loops[k]->omp->nowait;
  if (!dropped) return 0;
  for (int k = 0; k < sc.nloops; k++)
    if (!sc.loops[k]->omp->nowait) sc.loops[k]->omp->nowait_inferred = 1;
  return dropped;
}

static void walk(Node *n, Node *par, int in_ws)
{
  for (; n; n = n->next) {
    if (n->kind == N_OMP) {
      int k = n->omp->kind;
      int p = k == OMP_PARALLEL || k == OMP_PARALLEL_FOR || k == OMP_PARALLEL_SECTIONS ||
              k == OMP_PARALLEL_MASTER;
      /* Inside a worksharing or single-thread construct a loop is not run
         by the whole team. */
      int ws = !p && k != OMP_FOR && k != OMP_CRITICAL && k != OMP_ATOMIC;
      if (n->body) walk(n->body, p ? n : par, p ? 0 : in_ws || ws);
      continue;
    }
    if (!in_ws && is_seq_loop(n)) {
      int got = qualifies(n, par);
      if (got) {
        toks[n->ft].wrap_open = 1;
        toks[n->lt].wrap_close = " __ompdsm_barrier();";
        note_at(n->ft, "the barriers of %d worksharing loop%s in this loop are dropped, and one "
                "follows it: each thread touches only its own chunk, the same in every instance",
                got, got > 1 ? "s" : "");
        continue;
      }
    }
    walk(n->kids, par, in_ws);
  }
}

void nowait_infer(Node *fn)
{
  if (fn && fn->body)
    walk(fn->body, NULL, 0);
}
