/*
 * onesided.h — page and diff fetches by one-sided RDMA READ (onesided.c).
 *
 * Over a transport that can read peers' registered memory (verbs), a cold
 * page is read straight out of its home's memory and a diff straight out of
 * its writer's diff log, without either program taking part. Whatever cannot
 * be read that way (not registered yet, being written right now, not made
 * yet) is fetched with the usual PAGE and DIFF requests. Over UDP every
 * function here is a no-op and dsm__os_fetch is dsm__tp_call_many.
 *
 * The hooks (home_*, diff_made, gc) run with dsm__mu held; the rest without.
 */
#ifndef DSM_ONESIDED_H
#define DSM_ONESIDED_H

#include <stdint.h>
#include "transport.h"

/* Before dsm__tp_init: tables and the EXPOSE handler. */
void dsm__os_init(void);
/* After dsm__tp_init: one-sided fetches are on when the transport can read
 * (verbs with DSM_VERBS_READ=1) and DSM_ONESIDED is not 0. */
void dsm__os_start(void);

/* One parallel round of PAGE and DIFF requests (the ones page validation
 * makes), answered with the same replies dsm__tp_call_many would give; as
 * much as possible is read one-sided. Without dsm__mu. */
void dsm__os_fetch(dsm__call_t *calls, unsigned n);

/* The home of page pg is about to change its contents or version vector
 * (its application may write it, or diffs are applied to it) ... */
void dsm__os_home_begin(uint32_t pg);
/* ... and is done: the page is write-protected or up to date again. */
void dsm__os_home_end(uint32_t pg);
/* The home served pg by a PAGE request: register pg's chunk for peers to
 * read, if not done yet. */
void dsm__os_home_served(uint32_t pg);

/* This process made its diff of page pg for interval idx: copy it into the
 * diff log so that peers can read it. */
void dsm__os_diff_made(uint32_t pg, uint32_t idx, const uint8_t *diff, uint32_t len);

/* Garbage collection dropped every diff (step 3 of gc.c): empty the log. */
void dsm__os_gc(void);

#endif
