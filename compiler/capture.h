/*
 * capture.h — what an outlined body (region or task) captures, and the
 * code that moves it through the argument block struct __ompdsm_args_<id>
 * (capture.c; used by omp_outline.c and omp_task.c).
 */
#ifndef OMPDSMCC_CAPTURE_H
#define OMPDSMCC_CAPTURE_H

#include "ir.h"
#include "lower.h"

#define MAX_DIMS 8
typedef struct Cap {
  Sym *sym;
  int kind, op, tok;
  int by_ref;              /* the struct holds the original's address */
  int ndims;               /* variable array bounds passed by value */
  int vla_ptr;             /* a task's firstprivate pointer to a VLA, as a void * field */
  const char *red_init;    /* a reduction copy's first value, if not the identity */
  char *dims[MAX_DIMS];
  struct Cap *next;
} Cap;
/* The declaration of a copy of (or a pointer to) captured s, under name. */
char *cap_decl(Sym *s, const char *name, char **dims);
Cap *cap_find(Cap *l, Sym *s);
Cap *cap_add(Cap **l, Sym *s, int kind, int op, int tok);
int  cap_is_local(Sym *s);
void caps_layout(Cap *caps, int for_task);
void caps_fields(Out *R, Cap *caps);
Ctx *caps_unpack(Out *R, Cap *caps, Node *body);   /* caps_replay, then caps_unpack_vars */
void caps_replay(Out *R, Cap *caps, Node *body);
Ctx *caps_unpack_vars(Out *R, Cap *caps);
void caps_pack(Out *o, Cap *caps, int id, Ctx *ctx);

#endif
