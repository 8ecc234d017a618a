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

void dsm__page_check_slow(uint32_t pg, const char *event)
{
  if (!dsm__protect)
    return;                     /* a job of one process: every page writable, nothing tracked */
  const dsm__page_t *p = dsm__page(pg);
  const char *broken;
  if (dsm__page_state(p, dsm__rank, &broken) == DSM__PS_COUNT)
    dsm__fatal(DSM__EXIT_FATAL, "internal error: page %u after %s: %s (home %u, valid %u, "
               "prot %u, pushed %u, excl %u, dirty %u, twin %s, need %s)", pg, event, broken,
               p->home, p->valid, p->prot, p->pushed, p->excl, p->dirty, p->twin ? "yes" : "no",
               p->need ? "yes" : "no");
}

void dsm__page_checks_init(void)
{
  dsm__page_checks = (int)dsm__env_long("DSM_CHECK_PAGES", 0, 0, 1);
}
