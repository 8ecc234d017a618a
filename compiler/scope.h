/*
 * scope.h — the scopes of symbols and tags while the unit is parsed
 * (scope.c): a stack of block scopes, each a list of what it declares.
 */
#ifndef OMPDSMCC_SCOPE_H
#define OMPDSMCC_SCOPE_H

#include "ir.h"

void scope_push(void);
void scope_pop(void);
int  scope_depth(void);
Sym *scope_declare(const char *name, int kind, int ident);
Sym *scope_lookup(const char *name);
/* The declaration of name visible at token position pos (ignores later ones). */
Sym *scope_lookup_before(const char *name, int pos);
int  scope_is_typedef(const char *name);
/* Tags (struct, union, enum names) have block scope like symbols. */
Tag *tag_lookup(const char *name, int this_scope_only);
Tag *tag_declare(const char *name, int kind, int tok);

#endif
