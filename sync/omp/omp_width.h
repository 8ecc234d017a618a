/*
 * omp_width.h — the width of a parallel region that the runtime may choose
 * (omp_width.c): all the processes its team asks for, or the master's
 * process alone, whichever the region's own runs measured faster.
 */
#ifndef OMP_WIDTH_H
#define OMP_WIDTH_H

#include <stdint.h>

/* dyn-var: OMP_DYNAMIC (true unless it says false; read by init, before
 * any thread starts), omp_set_dynamic. */
void dsm__width_init(void);
int dsm__width_dynamic(void);
/* The program asked its thread number or team size: no region is narrowed
 * from now on. */
void dsm__width_pin(void);
void dsm__width_set_dynamic(int d);

/* The team for this run of the region fn, which asks for team threads,
 * tpp per process: team, or tpp (the master's process alone); a sealed
 * region (__ompdsm_parallel_sealed) is narrowed even when pinned. Called by
 * rank 0's master thread outside any region; dsm__width_done() ends the
 * run, and between the two the master's waits are counted. */
unsigned dsm__width_choose(void (*fn)(void *), unsigned team, unsigned tpp, int sealed);
void dsm__width_done(void);

/* The master's body of the region, begun and ended (on other threads and
 * outside a timed run, nothing): its length, and how long of it the
 * master waited (dsm__my_blocked_ns, dsm/base/stats.h) rather than computed. */
void dsm__width_body_begin(void);
void dsm__width_body_end(void);

/* "file:line" of the region about to start (ompdsmcc's team check), for
 * the decisions that DSM_WIDTH_LOG=1 prints. */
void dsm__width_where(const char *where);

#endif
