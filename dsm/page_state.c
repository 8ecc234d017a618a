/*
 * page_state.c — a page's fields read as one of the states of
 * page_state.h, and the rules that keep them honest.
 *
 * The rules are the ones whose breach loses data or shows a program stale
 * data, silently:
 *   - a copy homed elsewhere that the program may access must be valid, and
 *     a valid copy has no write notice outstanding;
 *   - a writable page must have its writes recorded (dirty, with a twin),
 *     unless it is its home's only copy (exclusive);
 *   - only a copy homed elsewhere can be held (pushed, or one of a cold
 *     run), and a held copy is valid and inaccessible;
 *   - a home page with a write notice outstanding is inaccessible;
 *   - only a home page can be exclusive, and its writes are not recorded.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "dsm_internal.h"
#include "page_state.h"

int dsm__page_checks;

static const char *const names[DSM__PS_COUNT + 1] = {
  "no copy", "fetching", "held", "read copy", "write copy",
  "home behind", "home closed", "home exclusive", "home shared", "home written",
  "in no state",
};

const char *dsm__page_state_name(dsm__pstate_t s)
{
  return names[s <= DSM__PS_COUNT ? s : DSM__PS_COUNT];
}

static dsm__pstate_t broken_by(const char **broken, const char *rule)
{
  if (broken)
    *broken = rule;
  return DSM__PS_COUNT;
}

static dsm__pstate_t copy_state(const dsm__page_t *p, const char **broken)
{
  if (p->excl)
    return broken_by(broken, "only a home page can be exclusive");
  if (p->valid && p->need)
    return broken_by(broken, "a valid copy with a write notice outstanding");
  if (p->pushed) {
    if (!p->valid)
      return broken_by(broken, "a held copy that is not valid");
    if (p->prot != DSM__PROT_NONE)
      return broken_by(broken, "a held copy the program can access");
    return DSM__PS_HELD;
  }
  if (p->prot == DSM__PROT_NONE) {
    if (p->valid)
      return broken_by(broken, "a valid copy, inaccessible, and not held");
    return p->fetching ? DSM__PS_FETCHING : DSM__PS_NO_COPY;
  }
  if (!p->valid)
    return broken_by(broken, "an out-of-date copy the program can access");
  if (p->prot == DSM__PROT_READ)
    return DSM__PS_READ_COPY;
  if (!p->dirty || !p->twin)
    return broken_by(broken, "a writable copy whose writes no twin records");
  return DSM__PS_WRITE_COPY;
}

static dsm__pstate_t home_state(const dsm__page_t *p, const char **broken)
{
  if (p->pushed)
    return broken_by(broken, "a home page held as a pushed copy");
  if (p->need) {
    if (p->prot != DSM__PROT_NONE)
      return broken_by(broken, "a home page the program can access with a diff still to come");
    return DSM__PS_HOME_BEHIND;
  }
  if (p->excl) {
    /* (It may have a twin: the base of a diff it made as a copy and still
     * holds, which is dropped once the page is found homed here,
     * diff_send.c.) */
    if (p->dirty)
      return broken_by(broken, "an exclusive home page recorded as written");
    return p->prot == DSM__PROT_NONE ? DSM__PS_HOME_CLOSED : DSM__PS_HOME_EXCL;
  }
  if (p->prot == DSM__PROT_NONE)
    return DSM__PS_HOME_CLOSED;
  if (p->prot == DSM__PROT_READ)
    return DSM__PS_HOME_SHARED;
  if (!p->dirty || !p->twin)
    return broken_by(broken, "a shared home page writable without a twin");
  return DSM__PS_HOME_WRITTEN;
}

dsm__pstate_t dsm__page_state(const dsm__page_t *p, unsigned rank, const char **broken)
{
  if (broken)
    *broken = NULL;
  if (p->prot > DSM__PROT_WRITE)
    return broken_by(broken, "an unknown protection");
  return p->home == rank ? home_state(p, broken) : copy_state(p, broken);
}

/* ---- moves ------------------------------------------------------------------------------ */

static int is_home(dsm__pstate_t s) { return s >= DSM__PS_HOME_BEHIND && s < DSM__PS_COUNT; }

/* The moves from one check to the next that no sequence of events can
 * make, each with the reason. Events the checks do not end (a page given
 * at a first touch, closed for a moment, a hot page cooling) may lie in
 * between, so a move here may be several events long; these are the
 * ones that would mean a page changed without its event, or an event went
 * wrong: every one of them lost a write or let a stale copy be read in
 * some earlier version of the protocol, or would. */
const char *dsm__page_move_rule(dsm__pstate_t from, dsm__pstate_t to)
{
  if (from >= DSM__PS_COUNT || to >= DSM__PS_COUNT)
    return "a state that does not exist";
  if (is_home(from) && (to == DSM__PS_WRITE_COPY || to == DSM__PS_HELD || to == DSM__PS_FETCHING))
    return "a home moving away keeps no copy (dsm__home_give): the next copy is fetched";
  if (!is_home(from) && (to == DSM__PS_HOME_BEHIND || to == DSM__PS_HOME_CLOSED ||
                         to == DSM__PS_HOME_WRITTEN))
    return "a home moving here starts shared or exclusive (dsm__home_take, a first touch)";
  if (to == DSM__PS_HOME_WRITTEN && from != DSM__PS_HOME_SHARED && from != DSM__PS_HOME_WRITTEN &&
      from != DSM__PS_HOME_CLOSED)
    return "a home page is written with a twin only after it was shared (a write fault)";
  if (from == DSM__PS_HOME_EXCL && to == DSM__PS_HOME_BEHIND)
    return "an exclusive home page has no other writer, so no notice can put it behind";
  if (from == DSM__PS_HOME_BEHIND && to == DSM__PS_HOME_EXCL)
    return "a home page behind is usable again only once its diff is applied";
  if (from == DSM__PS_WRITE_COPY && to == DSM__PS_HELD)
    return "a copy written in the open interval is released before a copy is installed over it";
  return NULL;
}

/* DSM_PAGE_MOVES=FILE (a tool for whoever changes the table below): every
 * move a check found, appended to FILE at exit as "from -> to: event". */
static uint16_t moves_seen[DSM__PS_COUNT];
static const char *moves_event[DSM__PS_COUNT][DSM__PS_COUNT];

static void moves_write(void)
{
  FILE *f = fopen(getenv("DSM_PAGE_MOVES"), "a");
  if (!f)
    return;
  for (int a = 0; a < DSM__PS_COUNT; a++)
    for (int b = 0; b < DSM__PS_COUNT; b++)
      if (moves_seen[a] >> b & 1)
        fprintf(f, "%s -> %s: %s\n", names[a], names[b], moves_event[a][b]);
  fclose(f);
}

void dsm__page_check_slow(uint32_t pg, const char *event)
{
  if (!dsm__protect)
    return;                     /* a job of one process: every page writable, nothing tracked */
  dsm__page_t *p = dsm__page(pg);
  const char *broken;
  dsm__pstate_t to = dsm__page_state(p, dsm__rank, &broken);
  if (to == DSM__PS_COUNT)
    dsm__fatal(DSM__EXIT_FATAL, "internal error: page %u after %s: %s (home %u, valid %u, "
               "prot %u, pushed %u, excl %u, dirty %u, twin %s, need %s)", pg, event, broken,
               p->home, p->valid, p->prot, p->pushed, p->excl, p->dirty, p->twin ? "yes" : "no",
               p->need ? "yes" : "no");
  dsm__pstate_t from = (dsm__pstate_t)p->checked;
  const char *rule = dsm__page_move_rule(from, to);
  if (rule)
    dsm__fatal(DSM__EXIT_FATAL, "internal error: page %u moved from %s to %s by %s, "
               "which no protocol allows: %s", pg, names[from], names[to], event, rule);
  if (!(moves_seen[from] >> to & 1)) {
    moves_seen[from] |= (uint16_t)(1u << to);
    moves_event[from][to] = event;
  }
  p->checked = (uint8_t)to;
}

void dsm__page_checks_init(void)
{
  dsm__page_checks = (int)dsm__env_long("DSM_CHECK_PAGES", 0, 0, 1);
  if (dsm__page_checks && getenv("DSM_PAGE_MOVES"))
    atexit(moves_write);
}
