/*
 * type.h — C types from declaration specifiers and declarators (type.c):
 * what the parser builds for each declaration, and what the lowering asks
 * when it must declare a captured variable elsewhere.
 */
#ifndef OMPDSMCC_TYPE_H
#define OMPDSMCC_TYPE_H

#include "ir.h"

#include <stdio.h>

enum { TY_VOID, TY_BOOL, TY_CHAR, TY_SHORT, TY_INT, TY_LONG, TY_LLONG, TY_FLOAT,
       TY_DOUBLE, TY_LDOUBLE, TY_OTHER, TY_STRUCT, TY_UNION, TY_ENUM,
       TY_PTR, TY_ARRAY, TY_FUNC };
enum { Q_CONST = 1, Q_VOLATILE = 2, Q_RESTRICT = 4, Q_ATOMIC = 8 };

struct Type {
  int kind;
  int is_unsigned;
  int qual;               /* Q_*, of this type itself (a pointer's own const) */
  Type *base;             /* PTR: pointee; ARRAY: element; FUNC: return type */
  int bound_ft, bound_lt; /* ARRAY: the bound's tokens (empty: []) */
  int is_vla;             /* ARRAY: the bound is not a constant expression */
  int params_ft, params_lt; /* FUNC: "(" ... ")" as written */
  int spell_ft, spell_lt; /* OTHER: the specifier tokens that spell it */
  Tag *tag;               /* STRUCT, UNION, ENUM */
  Sym *tdef;              /* written as this typedef name (printing keeps it) */
};

struct Tag {
  char *name;             /* NULL: anonymous */
  int kind;               /* TY_STRUCT, TY_UNION, TY_ENUM */
  int depth;              /* 0: file scope */
  int tok;                /* where it was first named */
  int def_ft, def_lt;     /* "struct S { ... }" when defined, else -1 */
  Tag *next;              /* in its scope */
};

/* Declaration specifiers as the parser collects them. */
enum { ST_NONE, ST_TYPEDEF, ST_EXTERN, ST_STATIC, ST_AUTO, ST_REGISTER };
enum { K_VOID = 1, K_BOOL = 2, K_CHAR = 4, K_SHORT = 8, K_INT = 16, K_FLOAT = 32,
       K_DOUBLE = 64, K_SIGNED = 128, K_UNSIGNED = 256, K_COMPLEX = 512, K_OTHER = 1024 };
typedef struct Spec { int storage, is_thread, kw, nlong, qual, ft, lt; Type *ty; } Spec;

/* A declarator: the derivations from the name outward ("*a[3]": array,
   then pointer), applied to the specifiers' type in reverse. */
enum { DK_IDENT, DK_FUNC, DK_OBJ };
enum { DO_PTR, DO_ARRAY, DO_FUNC };
typedef struct Param Param;
typedef struct DOp { int kind, qual, ft, lt, is_vla; struct DOp *next; } DOp;
typedef struct Decl {
  int ident, kind, ft, lt, nparams;
  int kr, kr_first;       /* K&R "f(a, b)": the first name of the list */
  Param *params;
  DOp *ops, *last_op;
} Decl;
struct Param { Spec spec; Decl *d; Param *next; };

Type *spec_type(Spec *s, int report_tok);
Type *decl_type(Type *base, Decl *d);
Type *param_adjust(Type *t);
Type *type_of_typedef(Sym *td, int qual);
int  type_is_const_object(Type *t);   /* const-qualified, or an array of such */
int  type_is_scalar(Type *t);         /* arithmetic, enum or pointer */
int  type_is_void(Type *t);
int  type_has_vla(Type *t);
/* A declaration of name with type t, as C text. dims, when not NULL, give
   the text of each variable array bound, outermost first (see vla_dims). */
char *type_decl(Type *t, const char *name, char **dims);
/* The expressions, over the object expression x, that compute each
   variable bound of t at run time (sizeof ratios); returns their count. */
int  vla_dims(Type *t, const char *x, char **out, int max);
/* Replays, into o, the block-scope typedefs and tags that t needs, in
   source order, skipping those already in *done (a list it extends). */
typedef struct Replayed { int ft; struct Replayed *next; } Replayed;
void type_replay_deps(FILE *o, Type *t, Replayed **done);
/* The same for the names used in tokens a..b but declared before a. */
void type_replay_span_deps(FILE *o, int a, int b, Replayed **done);
int  type_needs_block_scope(Type *t); /* names a block-scope typedef or tag */

#endif
