/*
 * datasharing.h — what is shared where while constructs are lowered, the
 * first value of a reduction's copy, and the private copies of inline
 * constructs (datasharing.c).
 */
#ifndef OMPDSMCC_DATASHARING_H
#define OMPDSMCC_DATASHARING_H

#include "ir.h"
#include "lower.h"

/* While a construct's body is lowered, its data environment is on this
   stack: a parallel region or task (a "boundary", with its body's span)
   and, inside it, the variables it or an inline construct made shared or
   private. A task asks it whether a local it names is shared. A lowering
   that pushes entries restores dsenv when its body is done. */
typedef struct DsEnv { int boundary, ft, lt; Sym *sym; int shared; struct DsEnv *up; } DsEnv;
extern DsEnv *dsenv;
void ds_boundary(int ft, int lt);
void ds_var(Sym *s, int shared);
/* 1: s is shared where the task is; 0: private there (a task makes it firstprivate) */
int  ds_is_shared(Sym *s);
/* error for each reduction of a worksharing construct on a variable
   private in the enclosing region or task */
void ds_check_ws_reductions(Omp *om);

/* A reduction copy's first value: the operator's identity (min, max: the
   original's value, read through orig_ptr). */
const char *ds_red_identity(int op, const char *orig_ptr, const char *name);

/* A variable a worksharing construct privatizes: ptr names a pointer to
   the original; a linear one also has its value at the construct (base)
   and its step, evaluated once (omp_worksharing.c adds base + it * step
   at each iteration). */
typedef struct Priv { VarClause *v; char ptr[48], base[48], step[48]; } Priv;
int  ds_privs_open(Out *o, Omp *om, Ctx **ctx, Priv *pv, int max);
void ds_privs_close(Out *o, Priv *pv, int n, const char *last_flag, int at_join);

#endif
