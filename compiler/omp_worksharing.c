/*
 * omp_worksharing.c — for, sections, single and master, lowered inline.
 *
 * A canonical loop is normalized to iterations 0..count-1 of an int64
 * counter; the runtime hands out [lo, hi) chunks (static: computed locally,
 * dynamic/guided/runtime: from the runtime) and the user's variable is
 * recomputed as lb + it*step at the top of each iteration. collapse(n)
 * linearizes a rectangular nest the same way, and a linear variable is
 * set the same way from its value at the loop. The thread that runs the
 * final iteration (or section) copies lastprivate and linear values out.
 * The loops are taken apart by loop.c, the private copies made by
 * datasharing.c.
 */
#include "omp_lower.h"
#include "datasharing.h"
#include "emit.h"
#include "ir.h"
#include "loop.h"
#include "lower.h"
#include "type.h"
#include "../include/ompdsm_rt.h"

#include <stdio.h>
#include <stdlib.h>

/* The iterations a halo writer runs on this thread (omp_nowait.c): its own
   static chunk, and around each reading loop's chunk the indices that
   loop reads (both loops step by 1 upwards). Leaves them in lo/hi, its
   own chunk in own_lo/own_hi. */
static void halo_range(Out *o, Omp *om, int id, Ctx *ctx)
{
  gen(o, " if (!__ompdsm_static_chunk(__ompdsm_cnt%d, 0, 0, &__ompdsm_lo%d, &__ompdsm_hi%d)) __ompdsm_lo%d = __ompdsm_hi%d = 0;",
      id, id, id, id, id);
  gen(o, " __INT64_TYPE__ __ompdsm_own_lo%d = __ompdsm_lo%d, __ompdsm_own_hi%d = __ompdsm_hi%d;", id, id, id, id);
  for (HaloRead *hr = om->halo_reads; hr; hr = hr->next) {
    Loop R;
    int save = nerrors;
    diag_quiet = 1;
    int ok = loop_canonical(hr->loop->body, &R);
    diag_quiet = 0;
    nerrors = save;
    if (!ok) continue;    /* cannot happen: omp_nowait.c checked it */
    int rid = ++uid;
    gen(o, " {");
    loop_bounds(o, &R, 1, rid, ctx);
    gen(o, " __INT64_TYPE__ __ompdsm_rlo, __ompdsm_rhi; if (__ompdsm_static_chunk(__ompdsm_cnt%d, 0, 0, &__ompdsm_rlo, &__ompdsm_rhi)) {"
        " __INT64_TYPE__ __ompdsm_f = __ompdsm_lb%d_0 + __ompdsm_rlo + (%d) - __ompdsm_lb%d_0,"
        " __ompdsm_t = __ompdsm_lb%d_0 + __ompdsm_rhi + (%d) - __ompdsm_lb%d_0;"
        " if (__ompdsm_lo%d >= __ompdsm_hi%d) { __ompdsm_lo%d = __ompdsm_f; __ompdsm_hi%d = __ompdsm_t; }"
        " else { if (__ompdsm_f < __ompdsm_lo%d) __ompdsm_lo%d = __ompdsm_f; if (__ompdsm_t > __ompdsm_hi%d) __ompdsm_hi%d = __ompdsm_t; } } }",
        rid, rid, hr->lo, id, rid, hr->hi, id, id, id, id, id, id, id, id, id);
  }
  gen(o, " if (__ompdsm_lo%d < 0) __ompdsm_lo%d = 0; if (__ompdsm_hi%d > __ompdsm_cnt%d) __ompdsm_hi%d = __ompdsm_cnt%d;",
      id, id, id, id, id, id);
}

void omp_lower_for(Out *o, Node *n, Omp *om, Ctx *ctx)
{
  Loop L[8];
  int depth = loop_nest(n, om, L);
  if (!depth) return;
  int id = ++uid;
  ds_check_ws_reductions(om);
  DsEnv *env = dsenv;
  gen(o, " {");
  Priv pv[64];
  Ctx *c = ctx;
  /* evaluate bounds in the enclosing context, before any shadowing */
  loop_bounds(o, L, depth, id, ctx);
  int np = ds_privs_open(o, om, &c, pv, 64);
  /* Every thread reads a linear variable's original at the loop, and the
     thread of the last iteration writes it back when its chunks are done,
     which may be before a slower thread has read it (seen: a pointer read
     back past its array's end). A barrier puts every read first. */
  for (int i = 0; i < np; i++)
    if (pv[i].v->kind == DS_LINEAR) {
      gen(o, " __ompdsm_barrier();");
      break;
    }
  /* loop variables are private */
  for (int d = 0; d < depth; d++) {
    Sym *v = L[d].var;
    int listed = 0;
    for (int i = 0; i < np; i++) if (pv[i].v->sym == v) listed = 1;
    if (listed) continue;
    if (L[d].decl) { char *t = type_decl(v->type, v->name, NULL); gen(o, " %s;", t); free(t); }
    else gen(o, " __typeof__(%s) %s;", sym_text(ctx, v), v->name);
    c = ctx_add(c, v, v->name);
    ds_var(v, 0);
  }
  gen(o, " int __ompdsm_last%d = 0; (void)__ompdsm_last%d; __INT64_TYPE__ __ompdsm_lo%d, __ompdsm_hi%d;", id, id, id, id);
  char *chunk = om->chunk.ft <= om->chunk.lt ? span_text(om->chunk.ft, om->chunk.lt, ctx) : xstrdup("0");
  int sched = om->sched < 0 ? OMPDSM_SCHED_STATIC : om->sched;
  /* an ordered loop registers with the runtime, which keys the ordered
     sequence by the construct; a static one still computes its chunks locally */
  if (om->halo_writer) {
    halo_range(o, om, id, ctx);
    gen(o, " if (__ompdsm_lo%d < __ompdsm_hi%d)", id, id);
  } else if (sched == OMPDSM_SCHED_STATIC && !om->ordered)
    gen(o, " for (__INT64_TYPE__ __ompdsm_k%d = 0; __ompdsm_static_chunk(__ompdsm_cnt%d, (__INT64_TYPE__)(%s), __ompdsm_k%d, &__ompdsm_lo%d, &__ompdsm_hi%d); __ompdsm_k%d++)",
        id, id, chunk, id, id, id, id);
  else
    gen(o, " __ompdsm_loop_start(%d, __ompdsm_cnt%d, (__INT64_TYPE__)(%s)); while (__ompdsm_loop_next(&__ompdsm_lo%d, &__ompdsm_hi%d))",
        sched, id, chunk, id, id);
  free(chunk);
  gen(o, " for (__INT64_TYPE__ __ompdsm_it%d = __ompdsm_lo%d; __ompdsm_it%d < __ompdsm_hi%d; __ompdsm_it%d++) {", id, id, id, id, id);
  gen(o, " if (__ompdsm_it%d == __ompdsm_cnt%d - 1) __ompdsm_last%d = 1;", id, id, id);
  gen(o, " __INT64_TYPE__ __ompdsm_r%d = __ompdsm_it%d;", id, id);
  for (int d = depth - 1; d >= 0; d--)
    gen(o, " %s = (__typeof__(%s))(__ompdsm_lb%d_%d + (__ompdsm_r%d %% __ompdsm_cnt%d_%d) * __ompdsm_st%d_%d); __ompdsm_r%d /= __ompdsm_cnt%d_%d;",
        L[d].var->name, L[d].var->name, id, d, id, id, d, id, d, id, id, d);
  gen(o, " (void)__ompdsm_r%d;", id);
  /* linear: at the start of logical iteration it, base + it * step (a
     loop variable listed keeps its own value) */
  for (int i = 0; i < np; i++) {
    if (pv[i].v->kind != DS_LINEAR) continue;
    int is_loop_var = 0;
    for (int d = 0; d < depth; d++) if (pv[i].v->sym == L[d].var) is_loop_var = 1;
    if (!is_loop_var)
      gen(o, " %s = (__typeof__(%s))(%s + __ompdsm_it%d * %s);", pv[i].v->sym->name,
          pv[i].v->sym->name, pv[i].base, id, pv[i].step);
  }
  frame_push(OMP_FOR, NULL);
  snprintf(frames->it, sizeof frames->it, "__ompdsm_it%d", id);
  o->need_mark = 1;
  for (HaloSub *hs = om->halo_subs; hs; hs = hs->next) {
    char nm[300];
    snprintf(nm, sizeof nm, "__ompdsm_halo_%s", hs->arr->name);
    c = ctx_add(c, hs->arr, nm);
  }
  Node *body = L[depth - 1].body;
  lower_range(o, body->ft, body->lt, c);
  frame_pop();
  gen(o, " }");
  /* a lastprivate loop variable gets the value after the final increment */
  for (int i = 0; i < np; i++)
    for (int d = 0; d < depth; d++)
      if (pv[i].v->sym == L[d].var && d == 0)
        gen(o, " if (__ompdsm_last%d) %s = (__typeof__(%s))(__ompdsm_lb%d_0 + __ompdsm_cnt%d_0 * __ompdsm_st%d_0);", id, L[d].var->name, L[d].var->name, id, id, id);
  char lf[32];
  snprintf(lf, sizeof lf, "__ompdsm_last%d", id);
  ds_privs_close(o, pv, np, lf, om->ends_region);
  /* A halo writer's own chunk goes to the shared vectors (omp_nowait.c).
     Relaxed atomic stores (plain moves): the process's other threads may
     be copying the vector at the same time (a copy whose values there they
     never use, but a race in C's terms). */
  for (HaloSub *hs = om->halo_writer ? om->halo_subs : NULL; hs; hs = hs->next)
    if (hs->written)
      gen(o, " for (__INT64_TYPE__ __ompdsm_c = __ompdsm_own_lo%d; __ompdsm_c < __ompdsm_own_hi%d; __ompdsm_c++) __atomic_store(&%s[__ompdsm_lb%d_0 + __ompdsm_c], &__ompdsm_halo_%s[__ompdsm_lb%d_0 + __ompdsm_c], __ATOMIC_RELAXED);",
          id, id, hs->arr->name, id, hs->arr->name, id);
  gen(o, " __ompdsm_loop_end(%d); }", om->nowait || om->nowait_inferred);
  o->need_mark = 1;
  dsenv = env;
}

void omp_lower_sections(Out *o, Node *n, Omp *om, Ctx *ctx)
{
  Node *b = n->body;
  if (!b || b->kind != N_COMPOUND) { error_at(om->tok, "'omp sections' must be followed by a compound statement"); return; }
  int ns = 0;
  for (Node *k = b->kids; k; k = k->next) ns++;
  int id = ++uid;
  ds_check_ws_reductions(om);
  Priv pv[64];
  Ctx *c = ctx;
  DsEnv *env = dsenv;
  gen(o, " {");
  int np = ds_privs_open(o, om, &c, pv, 64);
  gen(o, " int __ompdsm_last%d = 0; (void)__ompdsm_last%d; __ompdsm_sections_start(%d); for (;;) { int __ompdsm_s%d = __ompdsm_sections_next(); if (__ompdsm_s%d < 0) break; if (__ompdsm_s%d == %d) __ompdsm_last%d = 1; switch (__ompdsm_s%d) {",
      id, id, ns, id, id, id, ns - 1, id, id);
  int i = 0;
  frame_push(OMP_SECTIONS, NULL);
  for (Node *k = b->kids; k; k = k->next, i++) {
    Node *s = k;
    if (k->kind == N_OMP && k->omp->kind == OMP_SECTION) s = k->body;
    else if (k->kind == N_OMP && i > 0) error_at(k->ft, "statement in 'omp sections' is not a 'section'");
    gen(o, " case %d: {", i);
    o->need_mark = 1;
    if (s) lower_range(o, s->ft, s->lt, c);
    gen(o, " } break;");
  }
  frame_pop();
  gen(o, " } }");
  char lf[32];
  snprintf(lf, sizeof lf, "__ompdsm_last%d", id);
  ds_privs_close(o, pv, np, lf, om->ends_region);
  gen(o, " __ompdsm_loop_end(%d); }", om->nowait);
  o->need_mark = 1;
  dsenv = env;
}


void omp_lower_single(Out *o, Node *n, Omp *om, Ctx *ctx)
{
    int id = ++uid;
    Priv pv[64];
    Ctx *c = ctx;
    DsEnv *env = dsenv;
    gen(o, " { int __ompdsm_ex%d = __ompdsm_single_start(); if (__ompdsm_ex%d) {", id, id);
    int np = ds_privs_open(o, om, &c, pv, 64);
    frame_push(OMP_SINGLE, NULL);
    o->need_mark = 1;
    lower_range(o, n->body->ft, n->body->lt, c);
    frame_pop();
    dsenv = env;
    gen(o, " }");
    int ncp = 0;
    for (VarClause *v = om->vars; v; v = v->next)
      if (v->kind == DS_COPYPRIVATE) {
        const char *x = sym_text(ctx, v->sym);
        gen(o, " __ompdsm_copyprivate(&(%s), sizeof (%s), __ompdsm_ex%d);", x, x, id);
        ncp++;
      }
    (void)np;
    if (!ncp) gen(o, " __ompdsm_loop_end(%d);", om->nowait);
    gen(o, " }");
    o->need_mark = 1;
}

void omp_lower_master(Out *o, Node *n, Omp *om, Ctx *ctx)
{
    (void)om;
    gen(o, " if (__ompdsm_thread_num() == 0) {");
    frame_push(OMP_MASTER, NULL);
    o->need_mark = 1;
    lower_range(o, n->body->ft, n->body->lt, ctx);
    frame_pop();
    gen(o, " }");
    o->need_mark = 1;
}

/* simd, target, teams, distribute and what combines only them: the body
   runs on the thread that meets it, as one team on the host with a SIMD
   width of one. Private copies still matter (the thread may share the
   originals with its team); a reduction combines into the original
   directly, since no other thread runs this code; the loop variable is
   private and keeps its final value, as simd's linear rule says. */
void omp_lower_serial(Out *o, Node *n, Omp *om, Ctx *ctx)
{
  note_at(om->tok + 1, "'%s' runs serially on the thread that meets it", om->spelled);
  Omp own = *om;
  own.vars = NULL;
  VarClause **tail = &own.vars;
  for (VarClause *v = om->vars; v; v = v->next) {
    if (v->kind == DS_REDUCTION || v->kind == DS_SHARED) continue;
    VarClause *c = xcalloc(1, sizeof *c);
    *c = *v;
    c->next = NULL;
    *tail = c;
    tail = &c->next;
  }
  Loop L;
  int save = nerrors;
  diag_quiet = 1;
  int canonical = n->body && n->body->kind == N_FOR && loop_canonical(n->body, &L);
  diag_quiet = 0;
  nerrors = save;
  if (canonical && !L.decl) {
    int listed = 0;
    for (VarClause *v = own.vars; v; v = v->next) listed |= v->sym == L.var;
    if (!listed) {
      VarClause *c = xcalloc(1, sizeof *c);
      c->sym = L.var;
      c->kind = DS_LASTPRIVATE;
      c->tok = L.var_tok;
      *tail = c;
    }
  }
  Priv pv[64];
  Ctx *c = ctx;
  DsEnv *env = dsenv;
  gen(o, " {");
  int np = ds_privs_open(o, &own, &c, pv, 64);
  frame_push(OMP_SERIAL, NULL);
  o->need_mark = 1;
  if (n->body) lower_range(o, n->body->ft, n->body->lt, c);
  frame_pop();
  dsenv = env;
  ds_privs_close(o, pv, np, "1", om->ends_region);
  gen(o, " }");
  o->need_mark = 1;
}
