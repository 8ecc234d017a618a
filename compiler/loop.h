/*
 * loop.h — canonical loops taken apart (loop.c; used by omp_worksharing.c,
 * omp_task.c's taskloop, omp_outline.c and omp_nowait.c).
 */
#ifndef OMPDSMCC_LOOP_H
#define OMPDSMCC_LOOP_H

#include "ir.h"
#include "lower.h"

/* for (var = lb; var op ub; step): spans of tokens; op 0..3 is <, <=, >, >= */
typedef struct Loop { Sym *var; int var_tok; Span lb, ub, step; int op; int step_neg; Node *body; int decl; } Loop;
/* 1 when f is a canonical loop (L filled), else 0 after an error */
int  loop_canonical(Node *f, Loop *L);
int  loop_nest(Node *n, Omp *om, Loop *L);
void loop_bounds(Out *o, Loop *L, int depth, int id, Ctx *ctx);

#endif
