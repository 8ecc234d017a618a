/*
 * scope.c — nested scopes and symbol tables.
 *
 * A stack of singly linked symbol lists, and of tag lists: struct, union
 * and enum tags are a name space of their own with the same block scope.
 * Symbols are never freed: tokens point at them until the output is
 * written. The lexer asks
 * scope_is_typedef() to tell typedef names from identifiers, and OpenMP
 * clauses resolve with scope_lookup_before() so that a declaration after
 * the directive cannot capture a name.
 */
#include "scope.h"
#include "ir.h"
#include "type.h"

#include <string.h>

typedef struct Scope { Sym *syms; Tag *tags; struct Scope *up; } Scope;
static Scope file_scope;
static Scope *cur = &file_scope;
static int depth;

void scope_push(void)
{
  Scope *s = xcalloc(1, sizeof *s);
  s->up = cur;
  cur = s;
  depth++;
}

void scope_pop(void)
{
  if (cur->up) { cur = cur->up; depth--; }  /* scopes stay reachable via syms */
}

int scope_depth(void) { return depth; }

Sym *scope_declare(const char *name, int kind, int ident)
{
  Sym *s = xcalloc(1, sizeof *s);
  s->name = xstrdup(name);
  s->kind = kind;
  s->depth = depth;
  s->ident = ident;
  s->next = cur->syms;
  cur->syms = s;
  return s;
}

Sym *scope_lookup_before(const char *name, int pos)
{
  for (Scope *s = cur; s; s = s->up)
    for (Sym *y = s->syms; y; y = y->next)
      if (!strcmp(y->name, name) && (pos < 0 || y->ident < pos))
        return y;
  return NULL;
}

Sym *scope_lookup(const char *name) { return scope_lookup_before(name, -1); }

int scope_is_typedef(const char *name)
{
  Sym *s = scope_lookup(name);
  return s && s->kind == SYM_TYPEDEF;
}


Tag *tag_lookup(const char *name, int this_scope_only)
{
  for (Scope *s = cur; s; s = this_scope_only ? NULL : s->up)
    for (Tag *g = s->tags; g; g = g->next)
      if (g->name && !strcmp(g->name, name))
        return g;
  return NULL;
}

Tag *tag_declare(const char *name, int kind, int tok)
{
  Tag *g = xcalloc(1, sizeof *g);
  g->name = name ? xstrdup(name) : NULL;
  g->kind = kind;
  g->depth = depth;
  g->tok = tok;
  g->def_ft = g->def_lt = -1;
  g->next = cur->tags;
  cur->tags = g;
  return g;
}
