/*
 * onesided.h — page fetches by one-sided RDMA READ (onesided.c).
 *
 * Over a transport that can read peers' registered memory (verbs), a page
 * is read straight out of its home's memory, without the home's program
 * taking part. Whatever cannot be read that way (not registered yet, being
 * written right now, lacking a write the reader needs) is fetched with the
 * usual PAGE request. Over UDP every function here is a no-op and
 * dsm__os_fetch is dsm__tp_call_many.
 *
 * The hooks (home_*, diff_made, gc) run with dsm__mu held; the rest without.
 */
#ifndef DSM_ONESIDED_H
#define DSM_ONESIDED_H

#include <stdint.h>
#include "net/transport.h"

/* Before dsm__tp_init: tables and the EXPOSE handler. */
void dsm__os_init(void);
/* After dsm__tp_init: one-sided fetches are on when the transport can read
 * (verbs with DSM_VERBS_READ=1) and DSM_ONESIDED is not 0. */
void dsm__os_start(void);

/* One parallel round of PAGE requests (fetch.c), answered with the same
 * replies dsm__tp_call_many would give; as much as possible is read
 * one-sided. Without dsm__mu. */
void dsm__os_fetch(dsm__call_t *calls, unsigned n);
/* One-sided reads are in use (one landing area: one fetch at a time). */
int dsm__os_on(void);

/* The home of page pg is about to change its contents or version vector
 * (its application may write it, or a diff is applied to it) ... */
void dsm__os_home_begin(uint32_t pg);
/* ... and is done: the page is write-protected or up to date again. */
void dsm__os_home_end(uint32_t pg);
/* The home served pg by a PAGE request: register pg's chunk for peers to
 * read, if not done yet. */
void dsm__os_home_served(uint32_t pg);

/* Is pg's chunk registered for one-sided reads by peers (who may then hold
 * copies its home never heard of)? */
int dsm__os_home_registered(uint32_t pg);

#endif
