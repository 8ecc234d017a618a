/*
 * omp_sync.c — critical, atomic, ordered, barrier, flush and the seed's
 * semaphore and condition directives.
 *
 * Checks that need the lexical nest (a barrier closely nested in a
 * worksharing/critical/ordered/master region; cond_* outside a critical)
 * use the frame stack that lower_context.c keeps; a parallel region
 * starts a new nest, because what is lexically inside it runs in a
 * different function.
 */
#include "omp_lower.h"
#include "emit.h"
#include "ir.h"
#include "lower.h"
#include "parser.h"
#include "type.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* OpenMP requires a hint to be an integer constant expression; an
   enumerator's value must be one, so the C compiler checks it for us (a
   misspelt omp_sync_hint_* is an error, as with any OpenMP compiler). */
static void check_hint(Out *o, Omp *om, Ctx *ctx)
{
  if (om->hint.ft > om->hint.lt) return;
  gen(o, " enum { __ompdsm_hint%d = (", uid++);
  o->need_mark = 1;     /* the C compiler's error points at the user's hint */
  for (int i = om->hint.ft; i <= om->hint.lt; i++) emit_tok(o, i, ctx);
  gen(o, ") };");
  o->need_mark = 1;
}

/* An atomic update written `x op= expr;` (op a compound assignment at the
   top level of the statement): the token of op, and expr's span. */
static int atomic_update_rhs(Node *body, int *op, int *rft, int *rlt)
{
  static const char *ops[] = { "+=", "-=", "*=", "/=", "&=", "|=", "^=", "<<=", ">>=", NULL };
  if (!body || body->ft >= body->lt || strcmp(toks[body->lt].text, ";")) return 0;
  int depth = 0;
  for (int i = body->ft; i < body->lt; i++) {
    const char *t = toks[i].text;
    if (!strcmp(t, "(") || !strcmp(t, "[") || !strcmp(t, "{")) depth++;
    else if (!strcmp(t, ")") || !strcmp(t, "]") || !strcmp(t, "}")) depth--;
    else if (!depth)
      for (int k = 0; ops[k]; k++)
        if (!strcmp(t, ops[k])) {
          if (i == body->ft || i + 1 >= body->lt) return 0;
          *op = i;
          *rft = i + 1;
          *rlt = body->lt - 1;
          return 1;
        }
  }
  return 0;
}

void omp_lower_sync(Out *o, Node *n, Omp *om, Ctx *ctx)
{
  char *t1, *t2;
  switch (om->kind) {
  case OMP_CRITICAL: {
    char q[300];
    if (om->name) snprintf(q, sizeof q, "\"%s\"", om->name); else snprintf(q, sizeof q, "(const char *)0");
    gen(o, " {");
    check_hint(o, om, ctx);
    /* its site, for the sharing profiler's table of locks (issue 56) */
    Token *d = &toks[om->tok];
    const char *file = strrchr(files[d->file], '/') ? strrchr(files[d->file], '/') + 1 : files[d->file];
    char *f = c_escape(file);
    gen_once(o, "__ompdsm_name_critical(%s, \"%s:%d\")", q, f, d->line);
    free(f);
    gen(o, " __ompdsm_critical_start(%s); {", q);
    frame_push(OMP_CRITICAL, om->name);
    o->need_mark = 1;
    lower_range(o, n->body->ft, n->body->lt, ctx);
    frame_pop();
    gen(o, " } __ompdsm_critical_end(%s); }", q);
    o->need_mark = 1;
    return;
  }
  case OMP_ATOMIC: {
    int op, rft, rlt;
    gen(o, " {");
    check_hint(o, om, ctx);
    if (atomic_update_rhs(n->body, &op, &rft, &rlt)) {
      /* The expression is evaluated before the update is made atomic (it
         is not part of it): it may call a function that does an atomic
         update itself, and the runtime's atomic lock is not recursive. */
      int id = uid++;
      gen(o, " __typeof__((");
      lower_range(o, rft, rlt, ctx);
      gen(o, ")) __ompdsm_rhs%d = (", id);
      lower_range(o, rft, rlt, ctx);
      gen(o, "); __ompdsm_atomic_start(); {");
      frame_push(OMP_ATOMIC, NULL);
      o->need_mark = 1;
      lower_range(o, n->body->ft, op, ctx);
      gen(o, " __ompdsm_rhs%d; ", id);
      frame_pop();
      gen(o, " } __ompdsm_atomic_end(); }");
      o->need_mark = 1;
      return;
    }
    gen(o, " __ompdsm_atomic_start(); {");
    frame_push(OMP_ATOMIC, NULL);
    o->need_mark = 1;
    lower_range(o, n->body->ft, n->body->lt, ctx);
    frame_pop();
    gen(o, " } __ompdsm_atomic_end(); }");
    o->need_mark = 1;
    return;
  }
  case OMP_ORDERED: {
    const char *it = NULL;
    for (Frame *f = frames; f && f->kind != OMP_PARALLEL; f = f->up)
      if (f->kind == OMP_FOR) { it = f->it; break; }
    if (it) gen(o, " { __ompdsm_ordered_start(%s); {", it); else gen(o, " { {");
    frame_push(OMP_ORDERED, NULL);
    o->need_mark = 1;
    lower_range(o, n->body->ft, n->body->lt, ctx);
    frame_pop();
    if (it) gen(o, " } __ompdsm_ordered_end(%s); }", it); else gen(o, " } }");
    o->need_mark = 1;
    return;
  }
  case OMP_BARRIER:
    if (frame_find(OMP_FOR, 1) || frame_find(OMP_SECTIONS, 1) || frame_find(OMP_SINGLE, 1) ||
        frame_find(OMP_CRITICAL, 1) || frame_find(OMP_ORDERED, 1) || frame_find(OMP_MASTER, 1))
      error_at(om->tok + 1, "barrier region may not be closely nested inside a worksharing, critical, ordered or master region");
    else if (frame_find(OMP_TASK, 1))
      error_at(om->tok + 1, "barrier region may not be closely nested inside an explicit task region");
    gen(o, " __ompdsm_barrier();");
    o->need_mark = 1;
    return;
  case OMP_FLUSH:
    gen(o, om->spin ? " __ompdsm_spin_flush();" : " __ompdsm_flush();");
    o->need_mark = 1;
    return;
  /* a depend clause on taskwait asks for less than all children */
  case OMP_TASKWAIT: gen(o, " __ompdsm_taskwait();"); o->need_mark = 1; return;
  case OMP_TASKYIELD: gen(o, " __ompdsm_taskyield();"); o->need_mark = 1; return;
  case OMP_THREADPRIVATE: return;
  case OMP_SEMA_INIT: case OMP_SEMA_WAIT: case OMP_SEMA_SIGNAL:
  case OMP_COND_WAIT: case OMP_COND_SIGNAL: case OMP_COND_BROADCAST: {
    if (!om->name) return;
    t1 = om->index.ft <= om->index.lt ? span_text(om->index.ft, om->index.lt, ctx) : xstrdup("0");
    static const char *fn[] = { "sema_init", "sema_wait", "sema_signal", "cond_wait", "cond_signal", "cond_broadcast" };
    const char *f = fn[om->kind - OMP_SEMA_INIT];
    if (om->kind == OMP_SEMA_INIT) {
      t2 = span_text(om->value.ft, om->value.lt, ctx);
      gen(o, " __ompdsm_%s(\"%s\", (__INT64_TYPE__)(%s), (int)(%s));", f, om->name, t1, t2);
      free(t2);
    } else if (om->kind <= OMP_SEMA_SIGNAL) {
      gen(o, " __ompdsm_%s(\"%s\", (__INT64_TYPE__)(%s));", f, om->name, t1);
    } else {
      Frame *cr = NULL;
      for (Frame *fr = frames; fr && fr->kind != OMP_PARALLEL; fr = fr->up)
        if (fr->kind == OMP_CRITICAL) { cr = fr; break; }
      if (!cr) error_at(om->tok + 1, "'%s' must be inside a critical construct", f);
      char q[300];
      if (cr && cr->name) snprintf(q, sizeof q, "\"%s\"", cr->name); else snprintf(q, sizeof q, "(const char *)0");
      gen(o, " __ompdsm_%s(\"%s\", (__INT64_TYPE__)(%s), %s);", f, om->name, t1, q);
    }
    free(t1);
    o->need_mark = 1;
    return;
  }
  default:
    return;
  }
}

/* The spin `while (flag == 0) { #pragma omp flush(flag) }` (NAS LU's
   pipeline) tests a flag that another thread sets, then reads what that
   thread wrote before it, with no flush in between: gcc's flush is a fence
   and the hardware keeps the order; a DSM copy of the flag's page may show
   the flag before the data's interval is acquired. So such a loop is
   followed by __ompdsm_spin_end, which acquires what the read may have
   shown, and its flushes wait for news instead of probing. A flush adds
   ordering and never removes any, so the extra acquire is always allowed.
   Braces make the loop a statement of its own wherever it stands (the body
   of an if, say). The body must be a compound: a stand-alone directive may
   not be the body of a loop. */
/* The type of an identifier's symbol with n subscripts applied, or NULL. */
static Type *subscripted(Sym *y, int n)
{
  Type *ty = y->type;
  for (; ty && n > 0; n--)
    ty = ty->kind == TY_ARRAY || ty->kind == TY_PTR ? ty->base : NULL;
  return ty;
}

/* Tokens that an address computation may hold without side effects. */
static int pure_token(int i, int b)
{
  const char *x = toks[i].text;
  if (toks[i].kind == IDENTIFIER)
    return toks[i].sym && toks[i].sym->kind != SYM_FUNC && (i == b || strcmp(toks[i + 1].text, "("));
  if (toks[i].kind == CONSTANT)
    return 1;
  static const char *ok[] = { "+", "-", "*", "/", "%", "(", ")", "[", "]", "<<", ">>", "&", "|", "^", "~" };
  for (size_t k = 0; k < sizeof ok / sizeof *ok; k++)
    if (!strcmp(x, ok[k]))
      return 1;
  return 0;
}

/* Is a..b `name` or `name[e]...` of a variable, scalar when subscripted,
   with subscripts free of side effects? */
static int watch_lvalue(int a, int b)
{
  if (a > b || toks[a].kind != IDENTIFIER || !toks[a].sym || toks[a].sym->kind != SYM_VAR ||
      toks[a].is_member)
    return 0;
  Sym *y = toks[a].sym;
  for (int i = y->spec_ft; i >= 0 && i <= y->spec_lt; i++)
    if (!strcmp(toks[i].text, "register"))
      return 0;   /* no address to take */
  int n = 0;
  for (int i = a + 1; i <= b; i++) {
    if (strcmp(toks[i].text, "["))
      return 0;
    int depth = 0, j = i;
    for (; j <= b; j++) {
      depth += !strcmp(toks[j].text, "[") - !strcmp(toks[j].text, "]");
      if (!depth) break;
      if (j > i && !pure_token(j, b)) return 0;
    }
    if (j > b) return 0;
    n++;
    i = j;
  }
  Type *ty = subscripted(toks[a].sym, n);
  return ty && ty->kind != TY_ARRAY && ty->kind != TY_STRUCT && ty->kind != TY_UNION &&
         ty->kind != TY_FUNC && ty->kind != TY_VOID && !(ty->qual & Q_ATOMIC);
}

/* Is a..b an operand the spin's watch may ignore: constants, and names of
   the function's own (non-file-scope) variables, no calls? */
static int watch_other_side(int a, int b)
{
  if (a > b) return 0;
  for (int i = a; i <= b; i++) {
    if (!pure_token(i, b)) return 0;
    if (toks[i].kind == IDENTIFIER && toks[i].sym->depth == 0) return 0;
  }
  return 1;
}

/* The one word a spin's condition a..b reads, when it is `w`, `!w`, or
   `w OP e` / `e OP w` with OP a comparison and e made of constants and the
   function's own variables: a write elsewhere ends the spin only by
   changing w, so the runtime asks the writers to tell it of w's changes
   (sync/flush.c, watches). Sets *la..*lb; 0 when the condition is not of
   that form (the spin then hears of every flush). */
static int spin_word(int a, int b, int *la, int *lb)
{
  while (a < b && !strcmp(toks[a].text, "(") && !strcmp(toks[b].text, ")")) {
    int depth = 0, i = a;
    for (; i <= b; i++) {
      depth += !strcmp(toks[i].text, "(") - !strcmp(toks[i].text, ")");
      if (!depth) break;
    }
    if (i != b) break;
    a++, b--;
  }
  if (a <= b && !strcmp(toks[a].text, "!")) a++;
  int op = -1, depth = 0;
  for (int i = a; i <= b; i++) {
    const char *x = toks[i].text;
    depth += (!strcmp(x, "(") || !strcmp(x, "[")) - (!strcmp(x, ")") || !strcmp(x, "]"));
    if (depth == 0 && (!strcmp(x, "==") || !strcmp(x, "!=") || !strcmp(x, "<") || !strcmp(x, ">") ||
                       !strcmp(x, "<=") || !strcmp(x, ">="))) {
      if (op >= 0) return 0;
      op = i;
    }
  }
  if (op < 0) {
    if (!watch_lvalue(a, b)) return 0;
    *la = a, *lb = b;
    return 1;
  }
  if (watch_lvalue(a, op - 1) && watch_other_side(op + 1, b)) { *la = a, *lb = op - 1; return 1; }
  if (watch_lvalue(op + 1, b) && watch_other_side(a, op - 1)) { *la = op + 1, *lb = b; return 1; }
  return 0;
}

void omp_sync_mark_spin(int ft, int lt, int bft, int blt)
{
  int flushes = 0;
  for (int i = bft; i <= blt; i++) {
    Node *n = toks[i].node;
    if (n && n->kind == N_OMP && n->omp->kind == OMP_FLUSH) {
      flushes++;
      i = n->lt;
      continue;
    }
    const char *t = toks[i].text;
    if (*t && strcmp(t, "{") && strcmp(t, "}") && strcmp(t, ";"))
      return;
  }
  if (!flushes)
    return;
  for (int i = bft; i <= blt; i++) {
    Node *n = toks[i].node;
    if (n && n->kind == N_OMP && n->omp->kind == OMP_FLUSH) {
      n->omp->spin = 1;
      i = n->lt;
    }
  }
  toks[ft].wrap_open = 1;
  toks[lt].wrap_close = " __ompdsm_spin_end();";
  /* while ( cond ) body | do body while ( cond ) ; */
  int ca = !strcmp(toks[ft].text, "do") ? blt + 3 : ft + 2;
  int cb = !strcmp(toks[ft].text, "do") ? lt - 2 : bft - 2;
  int la, lb;
  if (spin_word(ca, cb, &la, &lb)) {
    toks[ft].spin_watch_ft = la;
    toks[ft].spin_watch_lt = lb;
  }
}
