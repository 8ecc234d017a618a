/*
 * omp_names.c — names that only the compiler knows, for the sharing
 * profiler (dsm/profile.h, tools/dsmprof.py).
 *
 * dsmprof names a shared page by the executable's symbols (globals) and by
 * allocation sites (the heap). A local of main that a region reaches by
 * address lives on the master's shared stack, and a critical section is a
 * lock whose id is a hash of its name: neither is in the symbol table, so
 * the report said "master stack page at 0x500404000000" and "lock
 * 0x70000000" (issue 56). ompdsmcc calls these once per site and process;
 * unless the job is profiled they return at once.
 */
#include <stdio.h>
#include <string.h>

#include "dsm_internal.h"
#include "ompdsm_rt.h"
#include "omp_team.h"
#include "profile.h"
#include "region.h"

void __ompdsm_name_local(void *addr, size_t size, const char *text)
{
  /* Only the master's shared stack needs it; a local elsewhere (a slave's
   * region stack) is private and moves nowhere. */
  if (dsm__prof_on && dsm__is_shared(addr))
    dsm__prof_name(DSM__PROF_NAME_VAR, (uintptr_t)addr, size, text);
}

void __ompdsm_name_critical(const char *name, const char *site)
{
  if (!dsm__prof_on)
    return;
  char text[300];
  if (name)
    snprintf(text, sizeof text, "critical(%s) at %s", name, site);
  else
    snprintf(text, sizeof text, "critical at %s", site);
  dsm__prof_name(DSM__PROF_NAME_LOCK, dsm__omp_critical_id(name), 0, text);
}
