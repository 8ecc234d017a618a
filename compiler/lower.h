/*
 * lower.h — the lowering's core: the walk over constructs (lower.c) and
 * what every lowering writes with (lower_context.c).
 *
 * The core is below the constructs' lowerings: the omp_*.c files and the
 * helpers they share (capture.c, datasharing.c, loop.c) call it, and it
 * calls them only through the entry points of omp_lower.h. Its names say
 * what they act on: lower_* the walk, out_* and gen* an output buffer,
 * ctx_* and sym_text a substitution context, frame_* the construct stack.
 */
#ifndef OMPDSMCC_LOWER_H
#define OMPDSMCC_LOWER_H

#include "ir.h"

#include <stdio.h>

/* ---- lower_context.c: output buffers, substitution contexts, the construct stack ---- */
/* Where printed C goes. col: the column the next character lands in when
 * only the user's tokens were printed since the line began (0: unknown),
 * tok_end the stream's position after the last of them, and last its
 * last character (emit.c). */
typedef struct Out { FILE *f; char *buf; size_t len; int file, line, sys, need_mark, col, last; long tok_end; } Out;
typedef struct Ctx { Sym *sym; char *repl; struct Ctx *up; } Ctx;
typedef struct Frame { int kind; const char *name; char it[48]; struct Frame *up; } Frame;
extern Frame *frames;             /* lexically enclosing constructs being lowered */
extern int uid;                   /* numbers generated names */
extern Out *prelude;              /* outlined functions of the current function */
extern Node *cur_function;        /* the function being lowered (set by lower.c) */
extern int unit_uses_tasks;       /* set by omp_task.c; emit.c registers the unit
                                     with __ompdsm_tasks_used */
/* Once per site, the call text of a name for the sharing profiler:
   "{ static int flag; if (!flag) { flag = 1; call; } }" (capture.c, omp_sync.c). */
void gen_once(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* s as a C string literal's contents (quotes and backslashes escaped). */
char *c_escape(const char *s);
Out *out_mem(void);
char *out_take(Out *o);
void gen(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
Ctx *ctx_add(Ctx *up, Sym *s, const char *repl);
const char *sym_text(Ctx *ctx, Sym *s);
int  frame_find(int kind, int stop_at_parallel);
void frame_push(int kind, const char *name);
void frame_pop(void);

/* ---- lower.c: the walk over constructs ---- */
void lower_unit(void);            /* fills Node.lowered and Node.outlined */
/* Tokens a..b, each construct among them lowered. */
void lower_range(Out *o, int a, int b, Ctx *ctx);
/* One construct: n with the directive om, which is n's own or, for a
   combined construct, the half inside the region (omp_outline.c). */
void lower_construct(Out *o, Node *n, Omp *om, Ctx *ctx);

#endif
