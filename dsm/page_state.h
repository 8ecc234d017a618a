/*
 * page_state.h — a page's state as this process sees it, named, and the
 * rules its fields obey in each state (docs/protocol.md, "A page's
 * states", draws the table and the events that move a page between them).
 *
 * dsm__page_t (region.h) keeps the state in small fields that several
 * files set: home, valid, prot, pushed, excl, twin, dirty, need. This file
 * names what their combinations mean and says which combinations must
 * never be left behind when dsm__mu is let go: a writable page whose
 * writes no twin records (they would never reach the home), a readable copy
 * that is out of date, a home page held as a pushed copy. The protocol
 * calls dsm__page_check at the end of each event that changes a page
 * (a fault served, a request answered, an invalidation, a home moved, a
 * copy pushed or carried in); with DSM_CHECK_PAGES=1 (the test suites
 * set it) a page left in no state, or moved from the state its last check
 * found to one that no events lead to, stops the process with the page,
 * the event and the rule it breaks.
 */
#ifndef DSM_PAGE_STATE_H
#define DSM_PAGE_STATE_H

#include "region.h"

typedef enum dsm__pstate {
  /* Homed elsewhere. */
  DSM__PS_NO_COPY,      /* no valid copy: never held, or a write notice made it out of date */
  DSM__PS_FETCHING,     /* ... and a thread of this process waits for one from the home */
  DSM__PS_HELD,         /* a valid copy, inaccessible until its first touch says it was used:
                           pushed by the home, or one of a cold run (fetch.c, pushed.c) */
  DSM__PS_READ_COPY,    /* a valid copy, readable */
  DSM__PS_WRITE_COPY,   /* a valid copy, writable: written in the open interval, its twin
                           what the release's diff is made against */
  /* Homed here. */
  DSM__PS_HOME_BEHIND,  /* a write notice's diff has not come yet: inaccessible until it has */
  DSM__PS_HOME_CLOSED,  /* inaccessible for a moment: being given to a first toucher, or its
                           protection restored by the next fault (home.c) */
  DSM__PS_HOME_EXCL,    /* no other copy exists: writable, and its writes not tracked */
  DSM__PS_HOME_SHARED,  /* copies exist elsewhere: write-protected, so the next write faults */
  DSM__PS_HOME_WRITTEN, /* shared and writable: written in the open interval (or hot, hot.c),
                           its twin what requests are answered with until the release */
  DSM__PS_COUNT
} dsm__pstate_t;

/* The state of page p in process `rank`; when its fields fit no state,
 * DSM__PS_COUNT, and *broken (if not NULL) names the rule they break. */
dsm__pstate_t dsm__page_state(const dsm__page_t *p, unsigned rank, const char **broken);
const char *dsm__page_state_name(dsm__pstate_t s);

/* May a page be in state `to` at one check after `from` at the one
 * before? NULL, or the reason it may not (a move no events make). */
const char *dsm__page_move_rule(dsm__pstate_t from, dsm__pstate_t to);

/* After an event changed page pg (under dsm__mu): with DSM_CHECK_PAGES=1,
 * a page in no state, or one whose move since its last check no events
 * make, is a fatal internal error naming pg, the event and the rule.
 * Otherwise a load and a branch. */
extern int dsm__page_checks;
void dsm__page_check_slow(uint32_t pg, const char *event);
static inline void dsm__page_check(uint32_t pg, const char *event)
{
  if (__builtin_expect(dsm__page_checks, 0))
    dsm__page_check_slow(pg, event);
}
void dsm__page_checks_init(void);

#endif
