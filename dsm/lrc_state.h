/*
 * lrc_state.h — what lazy release consistency knows in this process
 * (dsm/lrc_state.c): vector time, a copy's version and needs, twins, the
 * written set, the copies taken since the last collective. lrc.h says
 * what the words mean. All functions run with dsm__mu held.
 */
#ifndef DSM_LRC_STATE_H
#define DSM_LRC_STATE_H

#include <stddef.h>
#include <stdint.h>
#include "region.h"

/* One unsatisfied write notice of a page: at most one per writer (the
 * newest), since the home applies a writer's diffs of a page in order. */
typedef struct dsm__need {
  uint32_t proc, idx;
  struct dsm__need *next;
} dsm__need_t;

extern uint32_t *dsm__vt;      /* applied */
extern uint32_t *dsm__known;   /* records held */
/* seen[q] >= the newest interval of q whose writes may be in a page this
 * process can read: a copy it fetched or installed (the copy's version
 * vector), or a home page a diff of q's was applied to. The home serves
 * its copy as it is, often newer than what the fetcher needs, and applies
 * diffs when they come: either can show a write before its interval is
 * acquired. Programs that synchronise through a flag and flush (NAS LU)
 * read such a write and then the data written before it; dsm__acquire_seen
 * acquires what they saw first. */
extern uint32_t *dsm__seen;
extern uint32_t *dsm__gc_vt;   /* records up to here were discarded */
extern uint32_t dsm__epoch;    /* collectives that could move homes, so far */

void dsm__lrc_state_init(void);

/* A copy with version vector pv became readable here: raise seen. */
void dsm__seen_pv(const uint32_t *pv);
/* The q whose writes this process may have seen but holds no record of
 * (seen[q] > known[q]): need[q] = seen[q], else 0. Returns their count. */
unsigned dsm__seen_unknown(uint32_t *need);

/* Needs of a page. */
void dsm__need_add(uint32_t pg, dsm__page_t *p, uint32_t proc, uint32_t idx);
void dsm__need_clear(dsm__page_t *p);
/* Does version vector pv (NULL: zeros) hold every need of p, and our own
 * newest write of it? */
int  dsm__need_met(const dsm__page_t *p, const uint32_t *pv);
/* The per-page version vector, allocated on first use. */
uint32_t *dsm__page_pv(dsm__page_t *p);

/* Twins (4 KiB, counted as consistency data), from a small pool. */
uint8_t *dsm__twin_alloc(void);
void dsm__twin_free(uint8_t *t);

/* Pages written in the open interval. */
extern uint32_t *dsm__dirty;
extern size_t dsm__ndirty;
void dsm__dirty_add(uint32_t pg);

/* Make a copy the valid one, version pv (its bytes are in the system view
 * already): its needs are met, and it counts as a copy taken. */
void dsm__copy_now_valid(uint32_t pg, dsm__page_t *p, const uint32_t *pv);

/* This process took a copy of page pg from elsewhere (fetched, pushed,
 * carried): the next collective's arrival reports it (collective.c) ... */
void dsm__took_add(uint32_t pg);
/* ... as this list, sorted, each page once (the list stays ours) ... */
size_t dsm__took_sorted(const uint32_t **pages);
/* ... until a collective of the whole job ends the epoch. */
void dsm__took_clear(void);

#endif
