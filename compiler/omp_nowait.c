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
#include "omp_lower.h"
#include "ir.h"
#include "loop.h"
#include "parser.h"
#include "type.h"
#include "../include/ompdsm_rt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is(int i, const char *s) { return i >= 0 && i < ntoks && !strcmp(toks[i].text, s); }

/* The analysis of one candidate loop. A use of a shared array: in which
 * of S's omp for loops (-1: outside them), at which subscript position the
 * loop's variable stands (-1: none), plus what constant. */
typedef struct Use { Sym *arr; int loop, dim, off, write; struct Use *next; } Use;
typedef struct Scan {
  Node *par;              /* the enclosing parallel construct, or NULL */
  Node *loops[64];        /* the omp for constructs in S */
  Loop L[64];
  int nloops;
  Use *uses;
  int ok;
} Scan;

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
  return i >= 0 && i < ntoks &&
         (is_assign_kind(toks[i].kind) || toks[i].kind == INC_OP || toks[i].kind == DEC_OP);
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
    /* Its subscripts, one per dimension: the loop's variable may stand in
       one of them, alone or plus or minus a constant. */
    int rank = 0;
    for (Type *u = ty; u && u->kind == TY_ARRAY; u = u->base) rank++;
    int j = i + 1, nsub = 0, pdim = -1, off = 0, bad = 0;
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
      int mentions = 0;
      for (int x = j + 1; x < e; x++)
        if (var && toks[x].sym == var) mentions = 1;
      if (mentions) {
        if (pdim >= 0) bad = 1;
        pdim = nsub;
        if (e == j + 2) {
          off = 0;
        } else if (e == j + 4 && toks[j + 1].sym == var && (is(j + 2, "+") || is(j + 2, "-")) &&
                   toks[j + 3].kind == CONSTANT && strspn(toks[j + 3].text, "0123456789") ==
                   strlen(toks[j + 3].text) && strlen(toks[j + 3].text) < 4) {
          off = atoi(toks[j + 3].text) * (is(j + 2, "-") ? -1 : 1);
        } else {
          bad = 1;
        }
      }
      nsub++;
      j = e + 1;
    }
    if (nsub != rank || bad || is(j, ".")) { sc->ok = 0; return; }
    Use *u = xcalloc(1, sizeof *u);
    *u = (Use){ y, k, pdim, off, is_assign_op(j) || is(i - 1, "++") || is(i - 1, "--"), sc->uses };
    sc->uses = u;
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

static int simple_ascending(const Loop *L)
{
  return !L->step_neg && (L->op == 0 || L->op == 1) &&
         (L->step.ft < 0 || (L->step.ft == L->step.lt && is(L->step.ft, "1")));
}

/* A 1-D file-scope array of at most 64 Ki elements (its copy goes on each
   thread's stack). */
static int small_global_vector(Sym *y)
{
  Type *t = y->type;
  if (y->depth != 0 || !t || t->kind != TY_ARRAY || !t->base || t->base->kind == TY_ARRAY ||
      t->bound_ft != t->bound_lt || toks[t->bound_ft].kind != CONSTANT)
    return 0;
  /* Elements copied by relaxed atomic loads and stores (below): scalars
     of at most 8 bytes, which need no library. */
  int k = t->base->kind;
  if (!((k >= TY_BOOL && k <= TY_DOUBLE) || k == TY_ENUM || k == TY_PTR) || (t->base->qual & Q_ATOMIC))
    return 0;
  long n = strtol(toks[t->bound_ft].text, NULL, 0);
  return n > 0 && n <= 65536;
}

/* Halo scratch (SP's lhsx: for each (j, k), one omp for fills cv[i] and
 * rhon[i], the next reads cv[i - 1] and cv[i + 1]): a vector written by
 * one loop W, at [i] only, and read by S's other loops at [i + c]. Every
 * thread then runs W itself over the indices its readers need, into a
 * copy of its own, and writes its own chunk of the shared vector from it
 * (what follows S sees the values it saw before); the readers read the
 * copy. W must write nothing else shared and read only what S does not
 * write, so computing an index twice computes it the same. */
static int halo_plan(Scan *sc, Node *s, Sym **h, int *nh)
{
  *nh = 0;
  for (Use *u = sc->uses; u; u = u->next) {
    int seen = 0;
    for (int x = 0; x < *nh; x++) seen |= h[x] == u->arr;
    if (seen) continue;
    int offs = 0;
    for (Use *v = sc->uses; v; v = v->next)
      if (v->arr == u->arr && v->off) offs = 1;
    if (!offs) continue;
    /* Written once, by one loop, at [i]; every use inside the loops. */
    int w = -1;
    for (Use *v = sc->uses; v; v = v->next) {
      if (v->arr != u->arr) continue;
      if (v->loop < 0 || v->dim != 0) return 0;
      if (v->write) {
        if (v->off || (w >= 0 && w != v->loop)) return 0;
        w = v->loop;
      }
    }
    if (w < 0 || !small_global_vector(u->arr) || *nh == 16) return 0;
    for (Use *v = sc->uses; v; v = v->next)
      if (v->arr == u->arr && v->loop == w && v->off) return 0;
    h[(*nh)++] = u->arr;
  }
  (void)s;
  return 1;
}

static int is_halo(Sym **h, int nh, Sym *y)
{
  for (int x = 0; x < nh; x++)
    if (h[x] == y) return 1;
  return 0;
}

static int qualifies(Node *s, Node *par)
{
  Scan sc = { .par = par, .ok = 1 };
  collect(&sc, s->kids);
  if (!sc.ok || !sc.nloops) return 0;
  scan_uses(&sc, s->ft, s->lt);
  Sym *h[16];
  int nh = 0;
  if (sc.ok && !halo_plan(&sc, s, h, &nh)) sc.ok = 0;
  /* The loops that write halo vectors, and only them, may have bounds of
     their own; every other loop must cut the same chunks. */
  int writer[64] = { 0 }, first = -1;
  for (Use *u = sc.uses; u && sc.ok; u = u->next)
    if (u->write && is_halo(h, nh, u->arr)) writer[u->loop] = 1;
  for (Use *u = sc.uses; u && sc.ok; u = u->next)
    if (u->loop >= 0 && writer[u->loop] && !is_halo(h, nh, u->arr)) {
      /* A writer reads only what S does not write. */
      for (Use *v = sc.uses; v; v = v->next)
        if (v->arr == u->arr && v->write) sc.ok = 0;
    }
  for (int k = 0; k < sc.nloops && sc.ok; k++) {
    if (nh && !simple_ascending(&sc.L[k])) sc.ok = 0;
    if (writer[k]) continue;
    if (first < 0) { first = k; continue; }
    Loop *a = &sc.L[k], *b = &sc.L[first];
    if (a->op != b->op || a->step_neg != b->step_neg || !same_span(a->lb, b->lb) ||
        !same_span(a->ub, b->ub) || !same_span(a->step, b->step))
      sc.ok = 0;
  }
  for (int k = 0; k < sc.nloops && sc.ok; k++) {
    Loop *L = &sc.L[k];
    if (assigned_in(L->lb.ft, L->lb.lt, s->ft, s->lt) || assigned_in(L->ub.ft, L->ub.lt, s->ft, s->lt) ||
        (L->step.ft >= 0 && assigned_in(L->step.ft, L->step.lt, s->ft, s->lt)))
      sc.ok = 0;
  }
  /* Other shared arrays: written only through the loop variable, at one
     position; read elsewhere only if never written. */
  for (Use *u = sc.uses; u && sc.ok; u = u->next) {
    if (is_halo(h, nh, u->arr)) continue;
    int written = 0, unpart = 0, dim = -1;
    for (Use *v = sc.uses; v; v = v->next) {
      if (v->arr != u->arr) continue;
      written |= v->write;
      if (v->dim < 0) { unpart = 1; continue; }
      if (v->off || (dim >= 0 && dim != v->dim)) sc.ok = 0;
      dim = v->dim;
    }
    if (written && unpart) sc.ok = 0;
    if (written)
      for (Use *v = sc.uses; v; v = v->next)
        if (v->arr == u->arr && v->loop >= 0 && writer[v->loop]) sc.ok = 0;
  }
  Use *uses = sc.uses;
  /* Loops that are nowait already gain nothing, and the barrier after S
     would be one more. */
  int dropped = 0;
  for (int k = 0; k < sc.nloops; k++)
    dropped += !sc.loops[k]->omp->nowait;
  if (sc.ok && dropped) {
    for (int k = 0; k < sc.nloops; k++) {
      Omp *om = sc.loops[k]->omp;
      if (!om->nowait) om->nowait_inferred = 1;
      for (int x = 0; x < nh; x++) {
        HaloSub *hs = xcalloc(1, sizeof *hs);
        hs->arr = h[x];
        for (Use *v = uses; v; v = v->next)
          if (v->arr == h[x] && v->write && v->loop == k) hs->written = 1;
        hs->next = om->halo_subs;
        om->halo_subs = hs;
      }
      if (!writer[k]) continue;
      /* The range W must cover for each loop that reads its vectors. */
      om->halo_writer = 1;
      for (int r = 0; r < sc.nloops; r++) {
        if (r == k) continue;
        int lo = 0, hi = 0, any = 0;
        for (Use *v = uses; v; v = v->next) {
          if (v->loop != r || !is_halo(h, nh, v->arr)) continue;
          int mine = 0;
          for (Use *w = uses; w; w = w->next)
            if (w->arr == v->arr && w->write && w->loop == k) mine = 1;
          if (!mine) continue;
          if (!any || v->off < lo) lo = v->off;
          if (!any || v->off > hi) hi = v->off;
          any = 1;
        }
        if (!any) continue;
        HaloRead *hr = xcalloc(1, sizeof *hr);
        *hr = (HaloRead){ sc.loops[r], lo, hi, om->halo_reads };
        om->halo_reads = hr;
      }
    }
  }
  while (uses) { Use *u = uses; uses = u->next; free(u); }
  if (!sc.ok || !dropped) return 0;
  if (nh) {
    /* Each thread's copies of the vectors, as the shared ones are when S
       begins (indices the writer does not write keep those values). By
       relaxed atomic loads (plain moves): a thread of the process that is
       ahead may be writing its chunk back meanwhile, values this copy
       never uses there, but a race in C's terms (ThreadSanitizer). */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    for (int x = 0; x < nh; x++)
      fprintf(f, " __typeof__(%s) __ompdsm_halo_%s; for (__SIZE_TYPE__ __ompdsm_k = 0; __ompdsm_k < sizeof %s / sizeof %s[0];"
              " __ompdsm_k++) __atomic_load(&%s[__ompdsm_k], &__ompdsm_halo_%s[__ompdsm_k], __ATOMIC_RELAXED);",
              h[x]->name, h[x]->name, h[x]->name, h[x]->name, h[x]->name, h[x]->name);
    fclose(f);
    toks[s->ft].wrap_open_text = buf;
    note_at(s->ft, "%d vector%s written by one worksharing loop and read by the next at "
            "neighbouring indices: each thread computes the elements it reads itself", nh,
            nh > 1 ? "s" : "");
  }
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

void omp_nowait_infer(Node *fn)
{
  if (fn && fn->body)
    walk(fn->body, NULL, 0);
}
