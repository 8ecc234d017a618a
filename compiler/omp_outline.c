/*
 * omp_outline.c — parallel regions become outlined functions.
 *
 * The body of "#pragma omp parallel" becomes
 *   static void __ompdsm_region_N(void *data)
 * placed in front of the enclosing top-level function. The master fills a
 * struct __ompdsm_args_N with the ADDRESSES of the shared locals it uses
 * (its stack lives in DSM memory, so they are valid in every process) and
 * the VALUES of firstprivate/copyin variables, then calls __ompdsm_parallel.
 * Inside, a shared local x is a pointer named x and its uses print as (*x);
 * globals are used directly (they are in the shared sections).
 * Combined "parallel for/sections" hand the loop clauses to the inline
 * worksharing lowering inside the outlined function (through the core's
 * lower_construct: no omp_*.c file calls another). What the region
 * captures travels in an argument block laid out by capture.c, which task
 * lowering shares.
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

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ */
/* parallel regions */

static Sym *combined_loop_var(Node *body)
{
  Loop L;
  if (!body || body->kind != N_FOR) return NULL;
  /* lower_for reports a bad loop; do not report it twice */
  int save = nerrors;
  diag_quiet = 1;
  int ok = loop_canonical(body, &L);
  diag_quiet = 0;
  nerrors = save;
  return ok ? L.var : NULL;
}


/* The variables that tokens from..to use and the region declares nowhere
 * inside body, added to caps with the data-sharing the region's default
 * gives them (deflt: 0 none, 1 shared, 2 private, 3 firstprivate). */
static void capture_uses(Cap **caps, int from, int to, Node *body, Sym *loopvar, int deflt)
{
  for (int i = from; i <= to; i++) {
    Token *t = &toks[i];
    if (!t->is_use || !t->sym || t->sym->kind != SYM_VAR) continue;
    Sym *s = t->sym;
    if (s->ident >= body->ft && s->ident <= body->lt) continue;   /* declared inside */
    if (cap_find(*caps, s)) continue;
    int kind = DS_SHARED;
    if (s == loopvar) kind = DS_PRIVATE;
    else if (s->threadprivate) kind = DS_SHARED;   /* each process has its own */
    else if (deflt == 0) { error_at(i, "'%s' not specified in enclosing 'parallel' with default(none)", s->name); kind = DS_SHARED; }
    else if (deflt == 2) kind = DS_PRIVATE;
    else if (deflt == 3) kind = DS_FIRSTPRIVATE;
    cap_add(caps, s, kind, 0, i);
  }
}

/* Read-only shared scalars travel by value. A shared local lives on the
 * master's stack, which is DSM memory: a slave that reads it (a loop bound,
 * a size, a pointer to the data) faults on the master's stack page, and
 * after every release in which the master wrote anything on that page (its
 * own calls' frames do) it faults again and asks again. A scalar whose
 * address the program never takes and that the region never assigns cannot
 * change while the region runs: no other code can name it, and the master
 * is inside the region. Its value in the argument block (firstprivate) is
 * then the same thing, with no page behind it. Excluded: volatile, static
 * (a recursive call from the region could assign it), and any name a
 * directive inside the region lists (a reduction, lastprivate, a task's
 * shared clause would need the original). */
static Sym **addr_syms;        /* locals whose address the unit takes anywhere */
static int naddr_syms, addr_scanned;

static int prev_is(int i, const char *text) { return i > 0 && toks[i - 1].text && !strcmp(toks[i - 1].text, text); }

static int addr_taken(Sym *s)
{
  if (!addr_scanned) {
    addr_scanned = 1;
    int cap = 0;
    for (int i = 1; i < ntoks; i++)
      if (toks[i].sym && toks[i].sym->kind == SYM_VAR && toks[i].sym->depth > 0 && prev_is(i, "&")) {
        if (naddr_syms == cap) {
          cap = cap ? 2 * cap : 64;
          addr_syms = realloc(addr_syms, (size_t)cap * sizeof *addr_syms);
          if (!addr_syms) { perror("ompdsmcc"); exit(1); }
        }
        addr_syms[naddr_syms++] = toks[i].sym;
      }
  }
  for (int k = 0; k < naddr_syms; k++)
    if (addr_syms[k] == s) return 1;
  return 0;
}

static int assigned_in(Sym *s, int from, int to)
{
  for (int i = from; i <= to && i < ntoks; i++) {
    Token *t = &toks[i];
    if (t->kind == 0 && t->omp_end > i) {      /* a directive: any mention counts */
      for (int j = i + 1; j <= t->omp_end; j++)
        if (toks[j].sym == s) return 1;
      i = t->omp_end;
      continue;
    }
    if (t->sym != s || t->is_member) continue;
    if (prev_is(i, "++") || prev_is(i, "--") || prev_is(i, "&")) return 1;
    if (i + 1 < ntoks && (is_assign_kind(toks[i + 1].kind) || toks[i + 1].kind == INC_OP ||
                          toks[i + 1].kind == DEC_OP))
      return 1;
  }
  return 0;
}

static int readonly_scalar(Sym *s, int from, int to)
{
  Type *t = s->type;
  if (!t || !cap_is_local(s) || s->is_static || s->threadprivate || (t->qual & Q_VOLATILE))
    return 0;
  if (!((t->kind >= TY_BOOL && t->kind <= TY_LDOUBLE) || t->kind == TY_ENUM || t->kind == TY_PTR))
    return 0;
  return !addr_taken(s) && !assigned_in(s, from, to);
}

/* ---- may the runtime narrow the team? (issue 52) ----------------------------------------
 * With dyn-var true OpenMP lets a region have fewer threads than it asks,
 * and ompdsm runs a region whose distributed runs cost more than its
 * threads gain on the master's process alone (sync/omp/omp_width.c). A
 * program may still count on its team, legitimately or not; such a region
 * keeps the team it asks for (__ompdsm_parallel). That is a region
 *   - with a num_threads clause: the program said how many it wants;
 *   - that names a function whose answer depends on the team (its thread
 *     number, the team's size) or that each thread may call once (a lock),
 *     or in a file that names one outside any region (an orphaned caller
 *     the region may reach);
 *   - that writes output (printf and the like), which each thread may do;
 *   - whose threads may each add something once: a reduction clause on
 *     the region itself (not a worksharing loop's), an atomic or critical
 *     construct, a task (`parallel { count++ under atomic }` counts the
 *     team; the corpus's reduction_region sums r once per thread), or a
 *     file with such a construct outside any region.
 * Threadprivate variables need nothing: a narrowed team is threads 0..T-1
 * of the master's process, the very threads (and copies) they are in the
 * whole team, and the absent threads' copies keep their values. NAS BT
 * keeps its scratch vectors so. */
/* A use of one of the n names in q (a call, or a function's address). */
static int names_one_of(const Token *t, const char *const *q, size_t n)
{
  if (t->kind != IDENTIFIER || !t->is_use || !t->text) return 0;
  for (size_t k = 0; k < n; k++)
    if (!strcmp(t->text, q[k])) return 1;
  return 0;
}

static int names_team_query(const Token *t)
{
  static const char *const q[] = { "omp_get_thread_num", "omp_get_num_threads",
    "omp_get_team_size", "omp_get_ancestor_thread_num", "omp_in_parallel",
    /* taken once by each thread, like a critical section (EPCC's lock test
     * counts the team's acquisitions) */
    "omp_set_lock", "omp_unset_lock", "omp_test_lock",
    "omp_set_nest_lock", "omp_unset_nest_lock", "omp_test_nest_lock" };
  return names_one_of(t, q, sizeof q / sizeof *q);
}

/* Output, which each thread of `parallel { printf(...); }` makes once: a
 * region that writes keeps its team (in the region's own text; the
 * sequential code of a file prints all the time). */
static int names_output(const Token *t)
{
  static const char *const q[] = { "printf", "fprintf", "puts", "fputs", "putchar",
    "putc", "fputc", "fwrite", "write", "perror", "vprintf", "vfprintf", "dprintf" };
  return names_one_of(t, q, sizeof q / sizeof *q);
}

/* A construct in which each thread may do something once. */
static int per_thread_kind(int k)
{
  return k == OMP_ATOMIC || k == OMP_CRITICAL || k == OMP_TASK || k == OMP_TASKLOOP ||
         k == OMP_MASTER_TASKLOOP;
}

static int is_parallel_kind(int k)
{
  return k == OMP_PARALLEL || k == OMP_PARALLEL_FOR || k == OMP_PARALLEL_SECTIONS ||
         k == OMP_PARALLEL_MASTER || k == OMP_PARALLEL_MASTER_TASKLOOP;
}

/* Whether the file pins every team (an orphaned query): computed once. */
static int file_pins_teams(void)
{
  static int known, pins;
  if (known) return pins;
  known = 1;
  for (int i = 0; i < ntoks && !pins; i++) {
    Node *c = toks[i].node;
    int per_thread = c && c->kind == N_OMP && c->omp && per_thread_kind(c->omp->kind);
    if ((!names_team_query(&toks[i]) && !per_thread) || toks[i].sys) continue;
    int inside = 0;
    for (int j = 0; j < i && !inside; j++) {
      Node *r = toks[j].node;
      if (r && r->kind == N_OMP && r->omp && is_parallel_kind(r->omp->kind) && r->lt >= i)
        inside = 1;
    }
    if (!inside) pins = 1;
  }
  return pins;
}

/* ---- what a region does the same with any team ------------------------------------------
 * Some constructs that each thread runs once do not tell the team's size:
 * output in a master or single construct is made once whatever the team,
 * and a critical or atomic construct that adds each thread's partial sum
 * to a shared total adds the same total however the iterations were
 * divided, as long as a thread that got none adds zero. NAS LU's l2norm
 * and FT's checksum reduce so (sum0 += ... in an `omp for`, then
 * `critical { sum[0] += sum0; }`). */

static Node *defined_in_file(const Sym *s);
static int calls_unseen(int i);

/* Whether token i lies in a construct of region n of one of the kinds. */
static int inside_construct(const Node *n, int i, const int *kinds, int nk)
{
  for (int j = n->ft + 1; j <= i; j++) {
    const Node *c = toks[j].node;
    if (!c || c == n || c->kind != N_OMP || !c->omp || c->lt < i) continue;
    for (int k = 0; k < nk; k++)
      if (c->omp->kind == kinds[k]) return 1;
  }
  return 0;
}

static int inside_once(const Node *n, int i)
{
  static const int once[] = { OMP_MASTER, OMP_SINGLE };
  return inside_construct(n, i, once, 2);
}

/* The innermost construct of region n holding token i whose work is
 * divided among the team, or done once (NULL: none). */
static const Node *divided_at(const Node *n, int i)
{
  const Node *in = NULL;
  for (int j = n->ft + 1; j <= i; j++) {
    const Node *c = toks[j].node;
    if (c && c != n && c->kind == N_OMP && c->omp && c->lt >= i &&
        (c->omp->kind == OMP_FOR || c->omp->kind == OMP_SECTIONS ||
         c->omp->kind == OMP_SINGLE || c->omp->kind == OMP_MASTER))
      in = c;
  }
  return in;
}

static int inside_reduction(const Node *n, int i)
{
  static const int red[] = { OMP_CRITICAL, OMP_ATOMIC };
  return inside_construct(n, i, red, 2);
}

/* Whether token p is in the init or the step of a for statement of x's. */
static int in_for_control(const Node *x, int p)
{
  for (; x; x = x->next) {
    if (p < x->ft || p > x->lt) continue;
    if (x->kind == N_FOR && ((p >= x->ift && p <= x->ilt) || (p >= x->sft && p <= x->slt)))
      return 1;
    if (in_for_control(x->kids, p)) return 1;
    if (x->body && x->body != x->kids && in_for_control(x->body, p)) return 1;
  }
  return 0;
}

static int is_zero(int i)
{
  return toks[i].kind == CONSTANT && isdigit((unsigned char)toks[i].text[0]) &&
         strtod(toks[i].text, NULL) == 0;
}


/* Whether tokens [a, b] and [c, c + b - a] read the same. */
static int same_tokens(int a, int b, int c)
{
  for (int i = a; i <= b; i++, c++)
    if (toks[i].kind != toks[c].kind || strcmp(toks[i].text, toks[c].text)) return 0;
  return 1;
}

/* The lvalue around the use of a variable at token i: [*a, *k]
 * (v, (v), v.f, v[e]...). */
static void lvalue_span(int i, int *a, int *k)
{
  *a = *k = i;
  if (toks[i - 1].kind == '(' && toks[i + 1].kind == ')') { --*a; ++*k; }   /* (v).re: a macro's */
  for (;;) {
    if (toks[*k + 1].kind == '.' || toks[*k + 1].kind == PTR_OP) {
      *k += 2;
    } else if (toks[*k + 1].kind == '[') {
      int depth = 0, j = *k + 1;
      for (; j < ntoks; j++) {
        if (toks[j].kind == '[') depth++;
        else if (toks[j].kind == ']' && --depth == 0) break;
      }
      *k = j;
    } else {
      return;
    }
  }
}

static int is_write(int a, int k)
{
  int next = toks[k + 1].kind, prev = toks[a - 1].kind;
  return is_assign_kind(next) || next == INC_OP || next == DEC_OP || prev == INC_OP ||
         prev == DEC_OP || prev == '&';
}

/* How region n writes variable s: 0 never, 1 only as a for statement's
 * control (for (j = 0; j < m; j++)), 2 otherwise. */
static int region_writes(const Node *n, const Sym *s)
{
  int how = 0;
  for (int i = n->ft; i <= n->lt && how < 2; i++) {
    if (toks[i].sym != s || !toks[i].is_use || toks[i].is_member) continue;
    int a, k;
    lvalue_span(i, &a, &k);
    int arg = (toks[a - 1].kind == '(' || toks[a - 1].kind == ',') &&
              (toks[k + 1].kind == ')' || toks[k + 1].kind == ',');   /* f(v): through a pointer */
    if (is_write(a, k) || (arg && s->type && (s->type->kind == TY_PTR || s->type->kind == TY_ARRAY)))
      how = in_for_control(n, i) ? 1 : 2;
  }
  return how;
}

/* Whether region n calls nothing but the C library: then nothing but its
 * own text writes the variables it reads. */
static int calls_library_only(const Node *n)
{
  for (int i = n->ft; i <= n->lt; i++) {
    if (calls_unseen(i)) return 0;
    const Token *t = &toks[i];
    if (t->kind != IDENTIFIER || !t->is_use || t->is_member || toks[i + 1].kind != '(') continue;
    if (!t->sym) {
      if (strncmp(t->text, "__builtin_", 10)) return 0;
    } else if (t->sym->kind == SYM_FUNC && (!toks[t->sym->ident].sys || defined_in_file(t->sym))) {
      return 0;
    }
  }
  return 1;
}

/* Whether what an accumulation adds at token i (in divided construct d of
 * region n) is the same whichever thread runs the iteration: each variable
 * it reads is declared in d (a value of the iteration), or is a loop's
 * control, or is not written in the region. */
static int set_each_iteration(const Node *n, const Node *d, const Sym *v, int depth);
static int expr_end(int i);

static int iteration_value_at(const Node *n, const Node *d, const Sym *v, int depth)
{
  if (!v || v->kind != SYM_VAR) return 1;
  if (v->ident > d->ft && v->ident <= d->lt && !v->is_static) return 1;
  return region_writes(n, v) < 2 || set_each_iteration(n, d, v, depth);
}

static int iteration_value(const Node *n, const Node *d, const Sym *v)
{
  return iteration_value_at(n, d, v, 0);
}

/* The '{' of the innermost block holding token i (from d's first token). */
static int block_of(const Node *d, int i)
{
  int depth = 0;
  for (int j = i - 1; j >= d->ft; j--) {
    if (toks[j].kind == '}') depth++;
    else if (toks[j].kind == '{' && depth-- == 0) return j;
  }
  return d->ft;
}

/* Whether block b (its '{' token) holds token i. */
static int block_holds(int b, int i)
{
  if (toks[b].kind != '{') return 1;   /* d itself */
  int depth = 0;
  for (int j = b; j < i; j++) {
    if (toks[j].kind == '{') depth++;
    else if (toks[j].kind == '}' && --depth == 0) return 0;
  }
  return 1;
}

/* A scalar declared outside divided construct d that each iteration sets
 * before it reads it (NAS FT's checksum: q = j % NX + 1; if (q ...) {
 * r = ...; ... u1[s][r][q] ...}): written only in d, each write a
 * statement of its own block (not under an if without braces) of the form
 * v = e, e a value of the iteration, each read in d after a write whose
 * block holds it, and no read outside d; d has no goto. */
static int set_each_iteration(const Node *n, const Node *d, const Sym *v, int depth)
{
  if (depth > 8 || !v->type || v->type->kind < TY_BOOL || v->type->kind > TY_LDOUBLE)
    return 0;
  for (int i = d->ft; i <= d->lt; i++)
    if (toks[i].kind == GOTO) return 0;
  for (int i = n->ft; i <= n->lt; i++) {
    if (toks[i].sym != v || !toks[i].is_use || toks[i].is_member) continue;
    int inside = i > d->ft && i <= d->lt;
    int a, k;
    lvalue_span(i, &a, &k);
    if (toks[a - 1].kind == '&') return 0;
    if (is_write(a, k)) {
      if (!inside || toks[k + 1].kind != '=' || k != i ||
          (toks[a - 1].kind != ';' && toks[a - 1].kind != '{' && toks[a - 1].kind != '}'))
        return 0;
      int e = expr_end(k + 2);
      for (int j = k + 2; j < e; j++)
        if (toks[j].kind == IDENTIFIER && toks[j].is_use && !toks[j].is_member &&
            (toks[j].sym == v || !iteration_value_at(n, d, toks[j].sym, depth + 1)))
          return 0;
      i = e;
      continue;
    }
    if (!inside) return 0;
    int set = 0;   /* a write before it whose block holds it */
    for (int w = d->ft; w < i && !set; w++)
      if (toks[w].sym == v && toks[w].is_use && toks[w + 1].kind == '=' &&
          block_holds(block_of(d, w), i))
        set = 1;
    if (!set) return 0;
  }
  return 1;
}

/* A write that adds to what it writes: v += e, v -= e, v++, v = v + e,
 * v = v - e (the lvalue is tokens [a, k]; e does not name s again, and
 * is the same whichever thread runs the iteration). */
static int accumulates(const Node *n, const Node *d, const Sym *s, int a, int k)
{
  int op = toks[k + 1].kind;
  if (op == INC_OP || op == DEC_OP || toks[a - 1].kind == INC_OP || toks[a - 1].kind == DEC_OP)
    return 1;
  int e = k + 2;
  if (op == '=') {
    int len = k - a;
    if (!same_tokens(a, k, e) || (toks[e + len + 1].kind != '+' && toks[e + len + 1].kind != '-'))
      return 0;
    e += len + 2;
  } else if (op != ADD_ASSIGN && op != SUB_ASSIGN) {
    return 0;
  }
  for (int end = expr_end(e); e < end; e++) {
    const Token *t = &toks[e];
    if (t->kind == IDENTIFIER && t->is_use && !t->is_member &&
        (t->sym == s || !iteration_value(n, d, t->sym)))
      return 0;
  }
  return 1;
}

/* A private of region n that starts at zero in every thread and sums what
 * the thread did: declared in the region (initialized to 0, if at all),
 * its address never taken, written outside the region's divided
 * constructs only to be set to 0, and inside them only added to. A thread
 * that got no iterations holds zero in it, and the threads' values add up
 * to the same however the iterations were divided. */
static int zero_start(const Node *n, const Sym *s)
{
  if (!s || s->kind != SYM_VAR || s->is_static || s->depth == 0 || s->ident <= n->ft ||
      s->ident > n->lt || !s->type ||
      !((s->type->kind >= TY_BOOL && s->type->kind <= TY_LDOUBLE) || s->type->kind == TY_STRUCT))
    return 0;   /* a number, or a struct of them (FT's dcomplex); not a pointer or an array */
  if (toks[s->ident + 1].kind == '=' &&
      !(is_zero(s->ident + 2) && (toks[s->ident + 3].kind == ',' || toks[s->ident + 3].kind == ';')))
    return 0;
  if (!calls_library_only(n))
    return 0;
  for (int i = n->ft; i <= n->lt; i++) {
    if (toks[i].sym != s || !toks[i].is_use || toks[i].is_member) continue;
    int a, k;
    lvalue_span(i, &a, &k);
    if (toks[a - 1].kind == '&' || toks[k].kind == ']') return 0;
    if (!is_write(a, k)) {
      /* read only where it is added to a total (which adds_partials
       * checks): an `if (part > 10)` would tell the partition */
      if (!inside_reduction(n, i)) return 0;
      continue;
    }
    const Node *d = divided_at(n, i);
    if (d) {
      if (!accumulates(n, d, s, a, k)) return 0;
      if (toks[k + 1].kind == '=') i = 2 * k - a + 2;   /* past v = v: the read of itself */
    } else if (!(toks[k + 1].kind == '=' && is_zero(k + 2) &&
                 (toks[k + 3].kind == ';' || toks[k + 3].kind == ','))) {
      return 0;
    }
  }
  return 1;
}

/* A critical or atomic construct c of region n that only adds to shared
 * totals sums of zero-start privates: `total += part;`, `t.re -= p.re;`. */
static int adds_partials(const Node *n, const Node *c)
{
  if (!c->body) return 0;
  int a = c->body->ft, b = c->body->lt;
  if (toks[a].kind == '{' && toks[b].kind == '}') { a++; b--; }
  if (a > b) return 0;
  for (int s = a; s <= b;) {
    int op = -1, depth = 0, e = s;
    for (; e <= b && !(depth == 0 && toks[e].kind == ';'); e++) {
      int k = toks[e].kind;
      if (k == '(' || k == '[' || k == '{') depth++;
      else if (k == ')' || k == ']' || k == '}') depth--;
      else if (depth == 0 && is_assign_kind(k)) {
        if (op >= 0 || (k != ADD_ASSIGN && k != SUB_ASSIGN)) return 0;
        op = e;
      }
    }
    if (op < 0 || e > b || toks[s].kind != IDENTIFIER) return 0;
    for (int i = s; i < op; i++)   /* an lvalue, not a condition */
      if (toks[i].kind == IF || toks[i].kind == '?' || toks[i].kind == '(') return 0;
    for (int i = op + 1; i < e; i++) {
      const Token *t = &toks[i];
      if (t->kind == IDENTIFIER) {
        if (!t->is_member && !zero_start(n, t->sym)) return 0;
      } else if (t->kind != '.' && t->kind != '(' && t->kind != ')' &&
                 t->kind != '+' && t->kind != '-') {
        return 0;
      }
    }
    s = e + 1;
  }
  return 1;
}

/* A construct of region n that each thread runs once and that tells the
 * team's size (self: outside any region, every such construct does). */
static int counts_team(const Node *self, const Node *c)
{
  if (!c || c == self || c->kind != N_OMP || !c->omp || !per_thread_kind(c->omp->kind))
    return 0;
  return !(self && (c->omp->kind == OMP_CRITICAL || c->omp->kind == OMP_ATOMIC) &&
           adds_partials(self, c));
}

/* ---- values computed from the team ------------------------------------------------------
 * A region that asks nothing can still see its team through a value the
 * program asked for before: apps/bench/ompbench.c sets
 * nthreads = omp_get_num_threads() once, and a later region runs
 * `omp for` over nthreads iterations and checks that each thread got one.
 * So the file's values that come from the team are followed: from a call
 * of an OpenMP routine (but the clocks), through assignments and
 * initializers (to the variable the lvalue names), the arguments of calls
 * to the file's functions (to their parameters), and return statements
 * (to the function, whose calls are then such values); another file's
 * function that gets one may keep it in what its pointer arguments point
 * to. A value that goes where this cannot follow (its address taken, a
 * store through a pointer) loses the track, and no region of the file is
 * sealed. */
static int track_lost;

static int is_team_source(const Token *t)
{
  if (t->kind != IDENTIFIER || !t->is_use || t->is_member) return 0;
  if (t->sym && t->sym->team_value) return 1;
  return !strncmp(t->text, "omp_", 4) && strcmp(t->text, "omp_get_wtime") &&
         strcmp(t->text, "omp_get_wtick") && toks[t - toks + 1].kind == '(';
}

/* The end of the expression starting at i: the ';' or ',' at its depth,
 * or the ')', ']' or '}' that closes what holds it. */
static int expr_end(int i)
{
  for (int depth = 0; i < ntoks; i++) {
    int k = toks[i].kind;
    if (k == '(' || k == '[' || k == '{') depth++;
    else if (k == ')' || k == ']' || k == '}') { if (--depth < 0) return i; }
    else if (depth == 0 && (k == ';' || k == ',')) return i;
  }
  return ntoks;
}

static int span_has_team_value(int a, int b)
{
  for (int i = a; i < b; i++)
    if (is_team_source(&toks[i])) return 1;
  return 0;
}

/* The variable an lvalue ending at token e names (x, x[i], x.f, (x)), or
 * NULL when it is reached through a pointer (*p, p->f, f()[i]). */
static Sym *lvalue_base(int e)
{
  int i = e;
  for (;;) {
    if (toks[i].kind == ']') {
      int depth = 0;
      for (; i >= 0; i--) {
        if (toks[i].kind == ']') depth++;
        else if (toks[i].kind == '[' && --depth == 0) break;
      }
      i--;
    } else if (toks[i].kind == IDENTIFIER && toks[i].is_member) {
      if (toks[i - 1].kind != '.') return NULL;   /* -> */
      i -= 2;
    } else if (toks[i].kind == ')' && toks[i - 2].kind == '(' && toks[i - 1].kind == IDENTIFIER) {
      i--;
    } else {
      break;
    }
  }
  if (i < 0 || toks[i].kind != IDENTIFIER || !toks[i].sym || toks[i].sym->kind != SYM_VAR)
    return NULL;
  if (i > 0 && toks[i - 1].kind == '*') {
    int p = toks[i - 2].kind;   /* a unary *, not a product */
    if (p != IDENTIFIER && p != ')' && p != ']' && p != CONSTANT) return NULL;
  }
  return toks[i].sym;
}

static int mark_team(Sym *s)
{
  if (!s) { track_lost = 1; return 0; }
  if (s->team_value) return 0;
  s->team_value = 1;
  return 1;
}

/* The i-th parameter's symbol of function f (a definition in this file). */
static Sym *param_of(const Node *f, int k)
{
  int open = -1;
  for (int i = f->ft; i <= f->lt && open < 0; i++)
    if (toks[i].kind == IDENTIFIER && toks[i].sym == f->fsym && toks[i + 1].kind == '(')
      open = i + 1;
  if (open < 0) return NULL;
  int depth = 0, n = 0;
  Sym *last = NULL;
  for (int i = open; i <= f->lt; i++) {
    int t = toks[i].kind;
    if (t == '(') depth++;
    else if (t == ')' && --depth == 0) break;
    else if (depth == 1 && t == ',') { if (n++ == k) return last; last = NULL; }
    else if (t == IDENTIFIER && toks[i].sym && toks[i].sym->is_param) last = toks[i].sym;
  }
  return n == k ? last : NULL;
}

static const Node *function_at(int i)
{
  for (Node *f = unit_first; f; f = f->next)
    if (f->kind == N_FUNC && f->ft <= i && i <= f->lt) return f;
  return NULL;
}

static void team_values(void)
{
  static int done;
  if (done) return;
  done = 1;
  for (int changed = 1; changed && !track_lost;) {
    changed = 0;
    for (int i = 1; i < ntoks && !track_lost; i++) {
      Token *t = &toks[i];
      if (t->sys) continue;
      if (is_assign_kind(t->kind) && span_has_team_value(i + 1, expr_end(i + 1))) {
        changed |= mark_team(lvalue_base(i - 1));
      } else if (t->kind == RETURN && span_has_team_value(i + 1, expr_end(i + 1))) {
        const Node *f = function_at(i);
        if (f && f->fsym) changed |= mark_team(f->fsym);
      } else if (t->kind == '&' && toks[i + 1].kind == IDENTIFIER && toks[i + 1].sym &&
                 toks[i + 1].sym->team_value) {
        track_lost = 1;
      } else if (t->kind == '(' && toks[i - 1].kind == IDENTIFIER && toks[i - 1].is_use &&
                 toks[i - 1].sym && toks[i - 1].sym->kind == SYM_FUNC) {
        /* a call: each argument that holds a value of the team */
        Sym *fs = toks[i - 1].sym;
        Node *f = defined_in_file(fs);
        int close = i + 1;
        for (int depth = 1; close < ntoks; close++)
          if (toks[close].kind == '(') depth++;
          else if (toks[close].kind == ')' && --depth == 0) break;
        for (int a = i + 1, k = 0; a < close; k++) {
          int e = expr_end(a);
          if (span_has_team_value(a, e)) {
            if (f) {
              changed |= mark_team(param_of(f, k));
            } else {
              /* Another file's function, or the C library's (NAS's
               * c_print_results, printf): what it keeps, it writes through
               * a pointer argument, or into globals, which a sealed region
               * does not read unless they are this file's statics. */
              for (int b = i + 1; b < close; b++) {
                Sym *s = toks[b].kind == IDENTIFIER && toks[b].is_use && !toks[b].is_member
                         ? toks[b].sym : NULL;
                int whole = toks[b + 1].kind == ',' || toks[b + 1].kind == ')';
                if (s && s->kind == SYM_VAR && s->type && whole &&
                    (toks[b - 1].kind == '&' || s->type->kind == TY_PTR ||
                     s->type->kind == TY_ARRAY))
                  changed |= mark_team(s);   /* x, &x: not x[i] or x.f, values */
              }
            }
          }
          if (toks[e].kind != ',') break;
          a = e + 1;
        }
      }
    }
  }
}

/* Whether the use at token i may read a value of the team: one the file
 * computed, or one another file may have put there (a global with external
 * linkage, a parameter of a function others can call). */
static int reads_team_value(int i)
{
  const Token *t = &toks[i];
  if (t->kind != IDENTIFIER || !t->is_use || t->is_member || !t->sym) return 0;
  const Sym *s = t->sym;
  if (s->team_value) return 1;
  if (s->kind != SYM_VAR) return 0;
  if (s->depth == 0 && !s->is_static && !toks[s->ident].sys) return 1;
  if (s->is_param) {
    const Node *f = function_at(s->ident);
    return !f || !f->fsym || !f->fsym->is_static;
  }
  return 0;
}

/* ---- sealed regions: nothing they run can see the team ----------------------------------
 * The runtime stops narrowing regions once the program has asked its team
 * (omp_width.c): from then on the program may count on the team it was
 * told of, in code the region reaches that ompdsmcc does not see (another
 * file's function that asks its thread number and strides by the size it
 * was told). A region all of whose code ompdsmcc sees, none of which asks,
 * prints or has each thread do something once, cannot tell how many
 * threads run it; the runtime may narrow it whenever dyn-var is true
 * (__ompdsm_parallel_sealed). NAS LU asks its team's size once, before
 * its time steps, to print it. Everything a region may run is seen when
 * each function it names (called or taken as a value: qsort's comparison)
 * is defined in this file and sealed in turn, or is declared only in a
 * system header (the C library, which asks nothing of OpenMP), and no
 * call goes through a pointer. */
static Node *defined_in_file(const Sym *s)
{
  for (Node *f = unit_first; f; f = f->next)
    if (f->kind == N_FUNC && f->fsym && f->body && !toks[f->ft].sys &&
        !strcmp(f->fsym->name, s->name))
      return f;
  return NULL;
}

/* A type's first token: "(" followed by one makes a cast, not a call. */
static int starts_type(const Token *t)
{
  switch (t->kind) {
  case VOID: case CHAR: case SHORT: case INT: case LONG: case FLOAT: case DOUBLE:
  case SIGNED: case UNSIGNED: case BOOL: case COMPLEX: case EXTTYPE: case STRUCT:
  case UNION: case ENUM: case CONST: case VOLATILE: case RESTRICT: case ATOMIC:
  case TYPE_NAME: case TYPEOF:
    return 1;
  }
  return 0;
}

/* Whether the "(" at i calls something ompdsmcc cannot name: a pointer
 * (a variable, a member, an expression in parentheses or brackets). */
static int calls_unseen(int i)
{
  if (i == 0 || toks[i].kind != '(') return 0;
  const Token *p = &toks[i - 1];
  if (p->kind == IDENTIFIER)
    return p->is_member || (p->is_use && p->sym && p->sym->kind == SYM_VAR);
  if (p->kind == ']') return 1;
  if (p->kind != ')') return 0;
  int depth = 0, j = i - 1;
  for (; j >= 0; j--) {
    if (toks[j].kind == ')') depth++;
    else if (toks[j].kind == '(' && --depth == 0) break;
  }
  return j < 0 || j + 1 >= i || !starts_type(&toks[j + 1]);
}

/* Each function's verdict, once known. While one is being judged, a
 * recursive call of it counts as sealed, and the rest of it decides: when
 * the outermost judgement fails, the functions found sealed meanwhile may
 * have counted on it, and are judged again when next named. */
struct seal { const Node *f; int sealed; struct seal *next; };
static struct seal *seals;
static int judging;

static int seals_span(int ft, int lt, const Node *self);

static int function_seals(Node *f)
{
  for (struct seal *s = seals; s; s = s->next)
    if (s->f == f) return s->sealed;
  struct seal *s = xcalloc(1, sizeof *s);
  *s = (struct seal){ f, 1, seals };
  seals = s;
  judging++;
  s->sealed = seals_span(f->ft, f->lt, NULL);
  if (--judging == 0 && !s->sealed) {
    struct seal **pp = &seals;   /* those judged during this one, newer than s */
    while (*pp != s) {
      struct seal *d = *pp;
      if (d->sealed) { *pp = d->next; free(d); }
      else pp = &d->next;
    }
  }
  return s->sealed;
}

/* Output on the way out: the block of the token at i (up to lt) ends the
 * program (exit, abort) after it. An error report (NAS FT's cfftz checks
 * its arguments) says the same whatever the team. */
static int ends_program(int i, int lt)
{
  static const char *const q[] = { "exit", "abort", "_exit", "_Exit", "quick_exit" };
  for (int depth = 0; i <= lt; i++) {
    if (toks[i].kind == '{') depth++;
    else if (toks[i].kind == '}' && --depth < 0) return 0;
    else if (!depth && names_one_of(&toks[i], q, sizeof q / sizeof *q)) return 1;
  }
  return 0;
}

static int seals_span(int ft, int lt, const Node *self)
{
  for (int i = ft; i <= lt; i++) {
    Token *t = &toks[i];
    Node *c = t->node;
    if (names_team_query(t) || calls_unseen(i) || counts_team(self, c) || reads_team_value(i) ||
        (names_output(t) && !ends_program(i, lt) && !(self && inside_once(self, i))))
      return 0;
    if (t->kind != IDENTIFIER || !t->is_use || t->is_member) continue;
    if (!t->sym) {
      /* an undeclared call (old C), or a compiler builtin */
      if (i + 1 <= lt && toks[i + 1].kind == '(' && strncmp(t->text, "__builtin_", 10) &&
          strncmp(t->text, "__atomic_", 9) && strncmp(t->text, "__sync_", 7))
        return 0;
      continue;
    }
    if (t->sym->kind != SYM_FUNC) continue;
    if (!strncmp(t->text, "omp_", 4) && strcmp(t->text, "omp_get_wtime") &&
        strcmp(t->text, "omp_get_wtick"))
      return 0;
    Node *f = defined_in_file(t->sym);
    if (f ? !function_seals(f) : !toks[t->sym->ident].sys)
      return 0;
  }
  return 1;
}

/* 0: the region keeps its team; 1: the runtime may narrow it until the
 * program asks its team; 2: whenever dyn-var is true (sealed). */
static int region_may_narrow(Node *n, Omp *om)
{
  if (om->num_threads.ft <= om->num_threads.lt)
    return 0;
  if (om->kind == OMP_PARALLEL || om->kind == OMP_PARALLEL_MASTER)
    for (VarClause *v = om->vars; v; v = v->next)
      if (v->kind == DS_REDUCTION) return 0;
  for (int i = n->ft; i <= n->lt; i++)
    if (names_team_query(&toks[i]) || counts_team(n, toks[i].node) ||
        (names_output(&toks[i]) && !inside_once(n, i)))
      return 0;
  team_values();
  if (!track_lost && seals_span(n->ft, n->lt, n))
    return 2;
  return file_pins_teams() ? 0 : 1;
}

void omp_lower_parallel(Out *o, Node *n, Omp *om, Ctx *ctx)
{
  Omp inner = *om;       /* combined constructs: the worksharing half */
  Omp par = *om;
  int combined = om->kind == OMP_PARALLEL_FOR || om->kind == OMP_PARALLEL_SECTIONS ||
                 om->kind == OMP_PARALLEL_MASTER_TASKLOOP;
  par.vars = NULL;
  inner.vars = NULL;
  if (om->kind == OMP_PARALLEL_MASTER_TASKLOOP) {
    /* the taskloop takes every clause but num_threads, the region the
       shared ones too; what the taskloop lists is shared by the region
       (default(none) applies to both) */
    inner.kind = OMP_MASTER_TASKLOOP;
    par.if_expr.ft = 0; par.if_expr.lt = -1;
    VarClause **pi = &inner.vars, **pp = &par.vars;
    for (VarClause *v = om->vars; v; v = v->next) {
      VarClause *c = xcalloc(1, sizeof *c);
      *c = *v; c->next = NULL;
      if (v->kind == DS_SHARED) {
        VarClause *c2 = xcalloc(1, sizeof *c2);
        *c2 = *c; *pp = c2; pp = &c2->next;
      }
      *pi = c; pi = &c->next;
    }
  } else if (combined) {
    inner.kind = om->kind == OMP_PARALLEL_FOR ? OMP_FOR : OMP_SECTIONS;
    inner.nowait = 1;    /* the join ends the region */
    inner.ends_region = 1;
    VarClause **pi = &inner.vars, **pp = &par.vars;
    for (VarClause *v = om->vars; v; v = v->next) {
      VarClause *c = xcalloc(1, sizeof *c);
      *c = *v; c->next = NULL;
      int to_inner = v->kind == DS_PRIVATE || v->kind == DS_LASTPRIVATE || v->kind == DS_FIRSTLAST ||
                     v->kind == DS_REDUCTION || v->kind == DS_LINEAR;
      if (to_inner) { *pi = c; pi = &c->next; } else { *pp = c; pp = &c->next; }
    }
  } else {
    par.vars = om->vars;
  }
  Node *body = n->body;
  if (!body) return;
  Sym *loopvar = om->kind == OMP_PARALLEL_FOR ? combined_loop_var(body) : NULL;

  /* what the region uses */
  Cap *caps = NULL;
  for (VarClause *v = par.vars; v; v = v->next)
    cap_add(&caps, v->sym, v->kind, v->op, v->tok);
  for (VarClause *v = inner.vars; v; v = v->next)
    if (!cap_find(caps, v->sym)) cap_add(&caps, v->sym, DS_SHARED, 0, v->tok);
  capture_uses(&caps, body->ft, body->lt, body, loopvar, par.deflt);
  /* A combined construct's inner clause expressions are evaluated inside
   * the region (a schedule's chunk, a taskloop's grainsize): parallel for
   * schedule(dynamic, c) uses c there. */
  if (combined) {
    Span x[] = { om->chunk, om->grainsize, om->num_tasks, om->final_expr, om->priority };
    for (size_t k = 0; k < sizeof x / sizeof *x; k++)
      capture_uses(&caps, x[k].ft, x[k].lt, body, loopvar, par.deflt);
  }

  for (Cap *c = caps; c; c = c->next) {
    int listed = 0;    /* a combined construct's worksharing clause needs the original */
    for (VarClause *v = inner.vars; v; v = v->next)
      if (v->sym == c->sym) listed = 1;
    if (c->kind == DS_SHARED && !listed && readonly_scalar(c->sym, body->ft, body->lt))
      c->kind = DS_FIRSTPRIVATE;
  }

  int id = ++uid;
  Out *R = out_mem();
  caps_layout(caps, 0);
  gen(R, "\nstruct __ompdsm_args_%d {", id);
  caps_fields(R, caps);
  gen(R, " char __ompdsm_pad; };\n");
  gen(R, "static void __ompdsm_region_%d(void *__ompdsm_data) { struct __ompdsm_args_%d *__ompdsm_a = (struct __ompdsm_args_%d *)__ompdsm_data; (void)__ompdsm_a;", id, id, id);
  Ctx *c2 = caps_unpack(R, caps, body);
  DsEnv *env = dsenv;
  ds_boundary(body->ft, body->lt);
  for (Cap *c = caps; c; c = c->next) ds_var(c->sym, c->kind == DS_SHARED);
  frame_push(OMP_PARALLEL, NULL);
  Frame *saved = frames->up;
  frames->up = NULL;              /* a region starts a new lexical nest for checks */
  R->need_mark = 1;
  if (om->kind == OMP_PARALLEL_MASTER || combined) {
    /* the inner half (master, for, sections, master taskloop), lowered
       by its own file through the core */
    if (om->kind == OMP_PARALLEL_MASTER) inner.kind = OMP_MASTER;
    lower_construct(R, n, &inner, c2);
  } else {
    gen(R, " {");
    R->need_mark = 1;
    lower_range(R, body->ft, body->lt, c2);
    gen(R, " }");
  }
  frames->up = saved;
  frame_pop();
  dsenv = env;
  for (Cap *c = caps; c; c = c->next)
    if (c->kind == DS_REDUCTION)
      gen(R, " __ompdsm_reduce_join(__ompdsm_r_%s, &%s, 1, __OMPDSM_TC(%s), %d);", c->sym->name, c->sym->name, c->sym->name, c->op);
  gen(R, " }\n");
  char *text = out_take(R);
  fputs(text, prelude->f);
  free(text);

  /* the master's side */
  gen(o, " { struct __ompdsm_args_%d __ompdsm_a%d; __builtin_memset(&__ompdsm_a%d, 0, sizeof __ompdsm_a%d);", id, id, id, id);
  caps_pack(o, caps, id, ctx);
  char *nt = om->num_threads.ft <= om->num_threads.lt ? span_text(om->num_threads.ft, om->num_threads.lt, ctx) : xstrdup("0");
  char *ifx = par.if_expr.ft <= par.if_expr.lt ? span_text(par.if_expr.ft, par.if_expr.lt, ctx) : xstrdup("1");
  Token *d = &toks[om->tok];
  gen(o, " unsigned __ompdsm_nt%d = (unsigned)(%s); int __ompdsm_if%d = !!(%s);", id, nt, id, ifx);
  gen(o, " static int __ompdsm_warned%d; __ompdsm_team_check(__ompdsm_nt%d, __ompdsm_if%d, \"%s:%d\", &__ompdsm_warned%d);",
      id, id, id, files[d->file], d->line, id);
  static const char *const entry[] = { "__ompdsm_parallel", "__ompdsm_parallel_dynamic",
                                        "__ompdsm_parallel_sealed" };
  gen(o, " %s(__ompdsm_region_%d, &__ompdsm_a%d, sizeof __ompdsm_a%d, __ompdsm_nt%d, __ompdsm_if%d); }",
      entry[region_may_narrow(n, om)], id, id, id, id, id);
  free(nt); free(ifx);
  o->need_mark = 1;
}

