/*
 * type.c — C types: built from declaration specifiers and declarators,
 * printed back as declarations.
 *
 * The lowering needs to declare, in an outlined function, variables that
 * were declared somewhere else: a shared local becomes a pointer to its
 * type, a private copy a fresh object of it. Reprinting the declaration's
 * own tokens gets that wrong whenever the declaration does not say the
 * type plainly: a parameter "int a[]" is an "int *" (C11 6.7.6.3p7), an
 * array bound may be a variable the outlined function cannot see, and a
 * typedef or tag declared in a block is not visible outside it. So each
 * symbol carries a Type, and declarations are printed from it.
 *
 * Types are immutable once built: adding a qualifier makes a copy. A type
 * written with a typedef name remembers the name (tdef) and prints as it,
 * so FILE, va_list and the like stay as the headers spell them. Array
 * bounds stay token spans: a constant prints as written; a variable bound
 * (is_vla) is replaced by a value the caller computed (vla_dims).
 *
 * Not modelled: the arithmetic of types (usual conversions, sizes), which
 * the system cc does on the output; typeof and the GNU extended types are
 * TY_OTHER and print as spelled.
 */
#include "type.h"
#include "ir.h"
#include "parser.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static Type *new_type(int kind)
{
  Type *t = xcalloc(1, sizeof *t);
  t->kind = kind;
  t->bound_ft = t->params_ft = t->spell_ft = 0;
  t->bound_lt = t->params_lt = t->spell_lt = -1;
  return t;
}

static Type *copy_type(Type *t)
{
  Type *c = xcalloc(1, sizeof *c);
  *c = *t;
  return c;
}

static Type *derive(int kind, Type *base)
{
  Type *t = new_type(kind);
  t->base = base;
  return t;
}

/* ---- building ---- */

/* The type named by a list of specifiers (C11 6.7.2p2). An empty list is
   int: K&R definitions and "register i;" rely on implicit int. */
Type *spec_type(Spec *s, int report_tok)
{
  Type *t;
  int kw = s->kw;
  if (s->ty) {
    t = copy_type(s->ty);
  } else if (kw & (K_COMPLEX | K_OTHER)) {
    t = new_type(TY_OTHER);
    t->spell_ft = s->ft;
    t->spell_lt = s->lt;
  } else if (kw & K_VOID) {
    t = new_type(TY_VOID);
  } else if (kw & K_BOOL) {
    t = new_type(TY_BOOL);
  } else if (kw & K_CHAR) {
    t = new_type(TY_CHAR);
    t->is_unsigned = kw & K_UNSIGNED ? 1 : kw & K_SIGNED ? 2 : 0;
  } else if (kw & K_FLOAT) {
    t = new_type(TY_FLOAT);
  } else if (kw & K_DOUBLE) {
    t = new_type(s->nlong ? TY_LDOUBLE : TY_DOUBLE);
  } else {
    t = new_type(kw & K_SHORT ? TY_SHORT : s->nlong >= 2 ? TY_LLONG : s->nlong ? TY_LONG : TY_INT);
    t->is_unsigned = (kw & K_UNSIGNED) != 0;
  }
  (void)report_tok;
  t->qual |= s->qual;
  return t;
}

Type *type_of_typedef(Sym *td, int qual)
{
  Type *t = copy_type(td->type ? td->type : new_type(TY_INT));
  t->tdef = td;
  t->qual |= qual;
  return t;
}

Type *decl_type(Type *base, Decl *d)
{
  if (!d) return base;
  int n = 0;
  for (DOp *o = d->ops; o; o = o->next) n++;
  DOp **v = xcalloc((size_t)n + 1, sizeof *v);
  n = 0;
  for (DOp *o = d->ops; o; o = o->next) v[n++] = o;
  Type *t = base;
  /* the derivation next to the name is the outermost type */
  for (int i = n - 1; i >= 0; i--) {
    DOp *o = v[i];
    if (o->kind == DO_PTR) {
      t = derive(TY_PTR, t);
      t->qual = o->qual;
    } else if (o->kind == DO_ARRAY) {
      t = derive(TY_ARRAY, t);
      t->bound_ft = o->ft;
      t->bound_lt = o->lt;
      t->is_vla = o->is_vla;
      t->qual = o->qual;   /* "[const 3]": the adjusted pointer's qualifiers */
    } else {
      t = derive(TY_FUNC, t);
      t->params_ft = o->ft;
      t->params_lt = o->lt;
    }
  }
  free(v);
  return t;
}

/* C11 6.7.6.3p7-8: a parameter of array type is a pointer to the element
   type (qualified as inside the brackets); one of function type, a pointer
   to the function. */
Type *param_adjust(Type *t)
{
  if (t->kind == TY_ARRAY) {
    Type *p = derive(TY_PTR, t->base);
    p->qual = t->qual;
    if (t->tdef) {            /* a typedef'd array: its qualifiers are the elements' */
      p->base = copy_type(t->base);
      p->base->qual |= t->qual;
      p->qual = 0;
    }
    return p;
  }
  if (t->kind == TY_FUNC) return derive(TY_PTR, t);
  return t;
}

/* ---- questions ---- */

int type_is_const_object(Type *t)
{
  for (; t; t = t->base) {
    if (t->qual & Q_CONST) return 1;
    if (t->kind != TY_ARRAY) return 0;
  }
  return 0;
}

int type_is_scalar(Type *t)
{
  return t->kind <= TY_LDOUBLE || t->kind == TY_ENUM || t->kind == TY_PTR;
}

int type_is_void(Type *t) { return t->kind == TY_VOID; }

int type_has_vla(Type *t)
{
  for (; t && t->kind != TY_FUNC; t = t->base)
    if (t->kind == TY_ARRAY && t->is_vla) return 1;
  return 0;
}

/* ---- printing ---- */

static void put_span(FILE *f, int a, int b)
{
  for (int i = a; i <= b; i++) {
    fprintf(f, " %s", toks[i].text);
    if (toks[i].post) fprintf(f, " %s", toks[i].post);
  }
}

static void put_quals(FILE *f, int q)
{
  if (q & Q_CONST) fputs(" const", f);
  if (q & Q_VOLATILE) fputs(" volatile", f);
  if (q & Q_RESTRICT) fputs(" __restrict", f);
  if (q & Q_ATOMIC) fputs(" _Atomic", f);
}

static int is_storage_or_qual(int k)
{
  return k == STATIC || k == EXTERN || k == REGISTER || k == AUTO || k == TYPEDEF ||
         k == THREAD_LOCAL || k == INLINE || k == CONST || k == VOLATILE || k == RESTRICT ||
         k == ATOMIC;
}

/* The specifier part of a type that is not derived (no *, [], ()). */
static void put_base(FILE *f, Type *t, int q)
{
  static const char *names[] = { "void", "_Bool", "char", "short", "int", "long", "long long",
                                 "float", "double", "long double" };
  put_quals(f, q);
  if (t->tdef) { fprintf(f, " %s", t->tdef->name); return; }
  switch (t->kind) {
  case TY_OTHER:
    for (int i = t->spell_ft; i <= t->spell_lt; i++)
      if (!is_storage_or_qual(toks[i].kind)) fprintf(f, " %s", toks[i].text);
    return;
  case TY_STRUCT: case TY_UNION: case TY_ENUM: {
    Tag *g = t->tag;
    if (g && g->name) fprintf(f, " %s %s", t->kind == TY_STRUCT ? "struct" : t->kind == TY_UNION ? "union" : "enum", g->name);
    else if (g && g->def_ft >= 0) put_span(f, g->def_ft, g->def_lt);  /* anonymous: its body */
    else fputs(" int", f);
    return;
  }
  default:
    if (t->kind == TY_CHAR && t->is_unsigned == 2) fputs(" signed", f);
    else if (t->is_unsigned) fputs(" unsigned", f);
    fprintf(f, " %s", names[t->kind]);
  }
}

/* Print t around the declarator text inner, from the outermost type in. */
static void put_decl(FILE *f, Type *t, const char *inner, char **dims, int *di, int extra_q)
{
  if (t->tdef || t->kind < TY_PTR) {
    put_base(f, t, t->qual | extra_q);
    fprintf(f, " %s", inner);
    return;
  }
  char *buf = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&buf, &len);
  switch (t->kind) {
  case TY_PTR: {
    int paren = !t->base->tdef && (t->base->kind == TY_ARRAY || t->base->kind == TY_FUNC);
    fprintf(m, "%s*", paren ? "(" : "");
    put_quals(m, t->qual);
    fprintf(m, " %s%s", inner, paren ? ")" : "");
    fclose(m);
    put_decl(f, t->base, buf, dims, di, 0);
    break;
  }
  case TY_ARRAY:
    fprintf(m, "%s[", inner);
    if (t->is_vla && dims) fputs(dims[(*di)++], m);
    else put_span(m, t->bound_ft, t->bound_lt);
    fputs("]", m);
    fclose(m);
    /* qualifiers of an array type are its elements' (C11 6.7.3p9) */
    put_decl(f, t->base, buf, dims, di, t->qual | extra_q);
    break;
  default:  /* TY_FUNC */
    fprintf(m, "%s", inner);
    put_span(m, t->params_ft, t->params_lt);
    fclose(m);
    put_decl(f, t->base, buf, dims, di, 0);
    break;
  }
  free(buf);
}

char *type_decl(Type *t, const char *name, char **dims)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  int di = 0;
  put_decl(f, t, name, dims, &di, 0);
  fclose(f);
  return buf;
}

int vla_dims(Type *t, const char *x, char **out, int max)
{
  int n = 0;
  char *e = xstrdup(x);
  for (; t && !t->tdef && (t->kind == TY_PTR || t->kind == TY_ARRAY); t = t->base) {
    char *next = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&next, &len);
    if (t->kind == TY_PTR) {
      fprintf(m, "(*(%s))", e);
    } else {
      if (t->is_vla && n < max) {
        char *d = NULL;
        size_t dl = 0;
        FILE *dm = open_memstream(&d, &dl);
        fprintf(dm, "(sizeof (%s) / sizeof ((%s)[0]))", e, e);
        fclose(dm);
        out[n++] = d;
      }
      fprintf(m, "(%s)[0]", e);
    }
    fclose(m);
    free(e);
    e = next;
  }
  free(e);
  return n;
}

/* ---- block-scope typedefs and tags an outlined function must repeat ---- */

static int replayed(Replayed **done, int ft)
{
  for (Replayed *r = *done; r; r = r->next)
    if (r->ft == ft) return 1;
  Replayed *r = xcalloc(1, sizeof *r);
  r->ft = ft;
  r->next = *done;
  *done = r;
  return 0;
}

static void replay_span(FILE *o, int a, int b, Replayed **done);

static void replay_tag(FILE *o, Tag *g, Replayed **done)
{
  if (!g || g->depth == 0 || !g->name) return;
  if (g->def_ft < 0) {       /* declared, never defined: a forward declaration */
    if (!replayed(done, -2 - g->tok))
      fprintf(o, " %s %s;", g->kind == TY_STRUCT ? "struct" : g->kind == TY_UNION ? "union" : "enum", g->name);
    return;
  }
  if (replayed(done, g->def_ft)) return;
  replay_span(o, g->def_ft, g->def_lt, done);
}

/* The end of the declaration a declarator belongs to: the ';' after it. */
static int decl_end(int from)
{
  int depth = 0;
  for (int i = from; i < ntoks; i++) {
    const char *s = toks[i].text;
    if (!strcmp(s, "(") || !strcmp(s, "[") || !strcmp(s, "{")) depth++;
    else if (!strcmp(s, ")") || !strcmp(s, "]") || !strcmp(s, "}")) depth--;
    else if (depth == 0 && !strcmp(s, ";")) return i;
  }
  return ntoks - 1;
}

static void replay_typedef(FILE *o, Sym *td, Replayed **done)
{
  if (!td || td->depth == 0 || td->kind != SYM_TYPEDEF) return;
  if (replayed(done, td->spec_ft)) return;
  int end = decl_end(td->decl_lt + 1);
  replay_span(o, td->spec_ft, end - 1, done);
}

/* Print a span after what it names from block scope. A tag definition in
   the span defines the tag itself, so is not a dependency. */
static void replay_span(FILE *o, int a, int b, Replayed **done)
{
  type_replay_span_deps(o, a, b, done);
  put_span(o, a, b);
  fputs(";", o);
}

void type_replay_span_deps(FILE *o, int a, int b, Replayed **done)
{
  for (int i = a; i <= b; i++) {
    if (toks[i].kind == TYPE_NAME && toks[i].sym && toks[i].sym->kind == SYM_TYPEDEF &&
        !toks[i].is_member && (toks[i].sym->spec_ft < a || toks[i].sym->spec_ft > b))
      replay_typedef(o, toks[i].sym, done);
    Tag *g = toks[i].tag;
    if (g && g->depth > 0 && (g->def_ft < a || g->def_ft > b) && (g->tok < a || g->tok > b))
      replay_tag(o, g, done);
  }
}

int type_needs_block_scope(Type *t)
{
  for (; t; t = t->base) {
    if (t->tdef) return t->tdef->depth > 0;
    if (t->tag) return t->tag->depth > 0;
  }
  return 0;
}

void type_replay_deps(FILE *o, Type *t, Replayed **done)
{
  for (; t; t = t->base) {
    if (t->tdef) { replay_typedef(o, t->tdef, done); return; }
    if (t->kind == TY_STRUCT || t->kind == TY_UNION || t->kind == TY_ENUM) {
      if (t->tag && t->tag->name) replay_tag(o, t->tag, done);
      else if (t->tag && t->tag->def_ft >= 0 && t->tag->depth > 0) {
        /* printed inline; what its body names must come first */
        for (int i = t->tag->def_ft; i <= t->tag->def_lt; i++) {
          if (toks[i].kind == TYPE_NAME && toks[i].sym) replay_typedef(o, toks[i].sym, done);
          if (toks[i].tag && toks[i].tag != t->tag) replay_tag(o, toks[i].tag, done);
        }
      }
      return;
    }
  }
}
