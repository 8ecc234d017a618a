/*
 * capture.c — what an outlined body captures, and the argument block that
 * carries it: the layout shared by parallel regions (omp_outline.c) and
 * tasks (omp_task.c).
 *
 * A region or task lists its captures (Cap: a variable and its
 * data-sharing kind, cap_add); caps_layout decides which travel by address
 * and which by value, caps_fields declares the fields of struct
 * __ompdsm_args_<id>, caps_pack fills it on the encountering thread's
 * side, and caps_unpack declares each capture under its own name inside
 * the outlined function. cap_decl prints the declaration of a copy of (or
 * a pointer to) a captured variable.
 */
#include "capture.h"
#include "datasharing.h"
#include "ir.h"
#include "lower.h"
#include "type.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The declaration of a copy of (or a pointer to) captured s, under name.
   A file-scope name is visible where outlined functions go, so its type is
   taken from it; a local's is printed from its Type (type.c). */
char *cap_decl(Sym *s, const char *name, char **dims)
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

Cap *cap_find(Cap *l, Sym *s) { for (; l; l = l->next) if (l->sym == s) return l; return NULL; }

Cap *cap_add(Cap **l, Sym *s, int kind, int op, int tok)
{
  Cap *c = xcalloc(1, sizeof *c), **pp = l;
  c->sym = s; c->kind = kind; c->op = op; c->tok = tok;
  while (*pp) pp = &(*pp)->next;
  *pp = c;
  return c;
}

int cap_is_local(Sym *s) { return s->depth > 0 && !s->is_extern; }
#define is_local cap_is_local

/* What each capture needs: a variable bound travels as a value computed
   by the master (vla_dims); a copy whose type is only visible in the
   enclosing function cannot be a field, so it is copied from the original.
   A taskloop's lastprivate needs the original's address as well. */
void caps_layout(Cap *caps, int for_task)
{
  for (Cap *c = caps; c; c = c->next) {
    Sym *s = c->sym;
    c->ndims = is_local(s) ? vla_dims(s->type, "", c->dims, MAX_DIMS) : 0;
    c->by_ref = c->kind == DS_SHARED || c->kind == DS_REDUCTION || c->kind == DS_LASTPRIVATE || c->kind == DS_FIRSTLAST ||
                (c->kind == DS_FIRSTPRIVATE && is_local(s) && (c->ndims || type_needs_block_scope(s->type)));
    if (!is_local(s) || s->threadprivate) c->by_ref = 0;
    if (c->ndims && c->kind == DS_REDUCTION) c->ndims = 0;
    /* a task copies a pointer to a VLA (a parameter "double a[n][m]") by
       value: an object pointer is a void * in size, the bounds travel */
    if (for_task && (c->kind == DS_FIRSTPRIVATE || c->kind == DS_FIRSTLAST) && c->ndims &&
        s->type && s->type->kind == TY_PTR && !type_needs_block_scope(s->type)) {
      c->vla_ptr = 1;
      c->by_ref = c->kind == DS_FIRSTLAST;
    }
    /* a task copies a value of a block-scope type into a block whose
       struct is then declared where that type is visible (omp_task.c) */
    if (for_task && c->kind == DS_FIRSTPRIVATE && !c->ndims && is_local(s) && type_needs_block_scope(s->type))
      c->by_ref = 0;
  }
}

void caps_fields(Out *R, Cap *caps)
{
  for (Cap *c = caps; c; c = c->next) {
    Sym *s = c->sym;
    if (c->by_ref) gen(R, " void *%s;", s->name);
    if (c->vla_ptr) gen(R, " void *fp_%s;", s->name);
    else if ((c->kind == DS_FIRSTPRIVATE && !c->by_ref) || c->kind == DS_COPYIN || c->kind == DS_FIRSTLAST) {
      char nm[300]; snprintf(nm, sizeof nm, "fp_%s", s->name);
      char *t = cap_decl(s, nm, NULL); gen(R, " %s;", t); free(t);
    }
    for (int k = 0; k < c->ndims; k++) gen(R, " __SIZE_TYPE__ __ompdsm_vla_%s_%d;", s->name, k);
  }
}

/* Inside the outlined function: the block-scope types it needs, then each
   capture under its own name (a shared one through a pointer printed as
   (*x), a private one as a copy). Returns the substitutions for the body. */
void caps_replay(Out *R, Cap *caps, Node *body)
{
  Replayed *done = NULL;
  for (Cap *c = caps; c; c = c->next)
    if (is_local(c->sym)) type_replay_deps(R->f, c->sym->type, &done);
  type_replay_span_deps(R->f, body->ft, body->lt, &done);
}

Ctx *caps_unpack(Out *R, Cap *caps, Node *body)
{
  caps_replay(R, caps, body);
  return caps_unpack_vars(R, caps);
}

Ctx *caps_unpack_vars(Out *R, Cap *caps)
{
  for (Cap *c = caps; c; c = c->next)
    for (int k = 0; k < c->ndims; k++) {
      free(c->dims[k]);
      c->dims[k] = xcalloc(1, 300);
      snprintf(c->dims[k], 300, "__ompdsm_a->__ompdsm_vla_%s_%d", c->sym->name, k);
    }
  Ctx *c2 = NULL;
  /* pointers to shared originals first: private copies may shadow the names */
  for (Cap *c = caps; c; c = c->next) {
    Sym *s = c->sym;
    if (c->kind == DS_REDUCTION || c->kind == DS_LASTPRIVATE || c->kind == DS_FIRSTLAST) {
      char nm[300]; snprintf(nm, sizeof nm, "(*__ompdsm_r_%s)", s->name);
      char *t = cap_decl(s, nm, NULL);
      if (c->by_ref) gen(R, " %s = __ompdsm_a->%s;", t, s->name);
      else gen(R, " %s = &%s;", t, s->name);
      free(t);
    }
  }
  for (Cap *c = caps; c; c = c->next) {
    Sym *s = c->sym;
    const char *nm = s->name;
    char **dims = c->ndims ? c->dims : NULL;
    switch (c->kind) {
    case DS_SHARED:
      if (c->by_ref) {
        char p[300]; snprintf(p, sizeof p, "(*%s)", nm);
        char *t = cap_decl(s, p, dims); gen(R, " %s = __ompdsm_a->%s;", t, nm); free(t);
        c2 = ctx_add(c2, s, p);
      }
      break;
    case DS_PRIVATE: case DS_FIRSTPRIVATE: case DS_REDUCTION: case DS_LASTPRIVATE: case DS_FIRSTLAST: {
      /* A copy the body may leave unused, as gcc -fopenmp's would be: not
       * the user's to hear about (issue 56). The copy of a const is
       * written once, by memcpy, through a (void *). */
      char *t = cap_decl(s, nm, dims); gen(R, " %s __attribute__((unused));", t); free(t);
      /* A lastprivate copy that no iteration of this thread or task
       * writes is still copied back when its chunk is the last (a task
       * loop of zero trips): cc warns that it may be used uninitialized,
       * of code the user did not write. Its first value is free to choose;
       * zero costs no read of the shared original. */
      if (c->kind == DS_LASTPRIVATE) gen(R, " __builtin_memset((void *)&%s, 0, sizeof %s);", nm, nm);
      if (c->kind == DS_FIRSTPRIVATE && c->by_ref) gen(R, " __builtin_memcpy((void *)&%s, __ompdsm_a->%s, sizeof %s);", nm, nm, nm);
      else if (c->kind == DS_FIRSTPRIVATE || c->kind == DS_FIRSTLAST) gen(R, " __builtin_memcpy((void *)&%s, &__ompdsm_a->fp_%s, sizeof %s);", nm, nm, nm);
      if (c->kind == DS_REDUCTION) {
        char p[300]; snprintf(p, sizeof p, "__ompdsm_r_%s", nm);
        gen(R, " %s = %s;", nm, c->red_init ? c->red_init : ds_red_identity(c->op, p, nm));
      }
      break;
    }
    case DS_COPYIN:
      gen(R, " __builtin_memcpy((void *)&%s, &__ompdsm_a->fp_%s, sizeof %s);", nm, nm, nm);
      break;
    }
  }
  return c2;
}

/* The encountering thread's side: fill the argument block __ompdsm_a<id>. */
void caps_pack(Out *o, Cap *caps, int id, Ctx *ctx)
{
  for (Cap *c = caps; c; c = c->next) {
    Sym *s = c->sym;
    const char *x = sym_text(ctx, s);
    /* A local that the construct makes private may have no use left in
     * its function once the body is outlined; the construct names it, so
     * it is used, as gcc -fopenmp counts it (no "unused variable" that
     * the user's compiler would not give, issue 56). */
    if ((c->kind == DS_PRIVATE || c->kind == DS_LASTPRIVATE || c->kind == DS_REDUCTION) &&
        s->depth > 0 && !s->is_extern)
      gen(o, " (void)sizeof(%s);", x);
    /* A local the region reaches by address lives on the master's shared
     * stack: the sharing profiler can name its pages only if told (dsmprof
     * said "master stack page at 0x...", issue 56). */
    if (c->by_ref && s->depth > 0 && !s->is_extern && !s->is_static && s->ident >= 0) {
      Token *d = &toks[s->ident];
      const char *file = strrchr(files[d->file], '/') ? strrchr(files[d->file], '/') + 1 : files[d->file];
      char *f = c_escape(file);
      const char *fn = cur_function && cur_function->fsym ? cur_function->fsym->name : "a function";
      gen_once(o, "__ompdsm_name_local((void *)&(%s), sizeof(%s), \"%s, a local of %s (%s:%d)\")",
               x, x, s->name, fn, f, d->line);
      free(f);
    }
    if (c->by_ref)
      gen(o, " __ompdsm_a%d.%s = (void *)&(%s);", id, s->name, x);
    if ((c->kind == DS_FIRSTPRIVATE && !c->by_ref) || c->kind == DS_COPYIN || c->kind == DS_FIRSTLAST)
      gen(o, " __builtin_memcpy((void *)&__ompdsm_a%d.fp_%s, &(%s), sizeof __ompdsm_a%d.fp_%s);", id, s->name, x, id, s->name);
    if (c->ndims) {
      char *d[MAX_DIMS];
      int nd = vla_dims(s->type, x, d, MAX_DIMS);
      for (int k = 0; k < nd && k < c->ndims; k++) gen(o, " __ompdsm_a%d.__ompdsm_vla_%s_%d = %s;", id, s->name, k, d[k]);
      for (int k = 0; k < nd; k++) free(d[k]);
    }
  }
}
