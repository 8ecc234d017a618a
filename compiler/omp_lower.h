/*
 * omp_lower.h — the entry points of the constructs' lowerings, the one
 * door into the omp_*.c files.
 *
 * lower.c hands each construct to the lowering of its kind here and runs
 * the barrier analysis on each function; the parser marks spin loops.
 * Nothing else of an omp_*.c file is called from outside it, and no
 * omp_*.c file calls another: what they share is in the core (lower.h)
 * or in a helper named for its idea (capture.h, datasharing.h, loop.h).
 * tools/check-compiler-deps.sh checks both from the objects.
 */
#ifndef OMPDSMCC_OMP_LOWER_H
#define OMPDSMCC_OMP_LOWER_H

#include "ir.h"
#include "lower.h"

/* omp_outline.c: parallel, and the combined parallel constructs */
void omp_lower_parallel(Out *o, Node *n, Omp *om, Ctx *ctx);

/* omp_worksharing.c: lowered inline */
void omp_lower_for(Out *o, Node *n, Omp *om, Ctx *ctx);
void omp_lower_sections(Out *o, Node *n, Omp *om, Ctx *ctx);
void omp_lower_single(Out *o, Node *n, Omp *om, Ctx *ctx);
void omp_lower_master(Out *o, Node *n, Omp *om, Ctx *ctx);
void omp_lower_serial(Out *o, Node *n, Omp *om, Ctx *ctx);

/* omp_task.c */
void omp_lower_task(Out *o, Node *n, Omp *om, Ctx *ctx);
void omp_lower_taskloop(Out *o, Node *n, Omp *om, Ctx *ctx);
void omp_lower_taskgroup(Out *o, Node *n, Omp *om, Ctx *ctx);

/* omp_sync.c: critical, atomic, ordered, barrier, flush, taskwait, ... */
void omp_lower_sync(Out *o, Node *n, Omp *om, Ctx *ctx);
/* A while or do loop (tokens ft..lt) whose body (bft..blt) holds nothing but
   flush directives and empty statements waits for a flag: its flushes
   become waits for news, and the loop is followed by an acquire of what
   the flag's read may have shown (sync/flush.c). Called by the parser. */
void omp_sync_mark_spin(int ft, int lt, int bft, int blt);

/* omp_nowait.c: the barriers of fn's worksharing loops that a static
   schedule makes unnecessary (marked nowait_inferred, one barrier after). */
void omp_nowait_infer(Node *fn);

#endif
