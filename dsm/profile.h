/*
 * profile.h — the sharing profiler: where a program's pages move, and why.
 *
 * With DSM_PROFILE=FILE (dsmrun --profile FILE) every process counts, per
 * shared page, its faults, twins, diffs and the bytes that arrived for it,
 * which processes read and wrote it, and, at the page's home, in how many
 * epochs (intervals between collectives) two or more processes wrote it at
 * disjoint bytes (false sharing) or at the same bytes (true sharing). It
 * also records when it waited (barriers, locks, fork/join, page faults, GC)
 * and the shared blocks it allocated with their call sites. At exit each
 * process writes FILE.<rank> (JSON); tools/dsmprof merges them, names the
 * variables (the executable's symbols, the allocation sites) and writes a
 * Chrome trace and a plot. docs/user-guide.md shows a session.
 *
 * Off (the default), every hook is one predicted branch on dsm__prof_on.
 */
#ifndef DSM_PROFILE_H
#define DSM_PROFILE_H

#include <stddef.h>
#include <stdint.h>

extern int dsm__prof_on;

/* After the regions are mapped; reads DSM_PROFILE. */
void dsm__prof_init(void);
/* When the job has started (every process has met the others): the run
 * time that dsmprof divides is from here to dsm__prof_write. */
void dsm__prof_job_started(void);
/* When the job's collective shutdown begins: the run time ends here (the
 * master then lingers to answer late EXITs, which is no part of the run). */
void dsm__prof_job_ending(void);
/* At exit, before the transport goes down: writes FILE.<rank>. */
void dsm__prof_write(void);

void dsm__prof_fault_impl(uint32_t pg, int write);
enum { DSM__PROF_FETCHED, DSM__PROF_PUSHED, DSM__PROF_DIFF };
void dsm__prof_in_impl(uint32_t pg, size_t bytes, int how);
void dsm__prof_diff_made_impl(uint32_t pg);
void dsm__prof_wrote_impl(uint32_t pg, unsigned writer, uint32_t epoch, const void *diff,
                          size_t len);
void dsm__prof_home_wrote_impl(uint32_t pg, uint32_t epoch, const void *twin, const void *page);
void dsm__prof_alloc_impl(const void *addr, size_t size, const char *site, const void *caller);
void dsm__prof_span_impl(const char *name, uint64_t t0_ns, uint64_t t1_ns, uint64_t what);

/* A fault taken by this process (write: it takes a twin). */
static inline void dsm__prof_fault(uint32_t pg, int write)
{
  if (__builtin_expect(dsm__prof_on, 0)) dsm__prof_fault_impl(pg, write);
}
/* bytes of the page arrived here, how: a copy this process fetched
 * (DSM__PROF_FETCHED) or was pushed, or at the home a writer's diff. */
static inline void dsm__prof_in(uint32_t pg, size_t bytes, int how)
{
  if (__builtin_expect(dsm__prof_on, 0)) dsm__prof_in_impl(pg, bytes, how);
}
/* This process made a diff of the page for its home. */
static inline void dsm__prof_diff_made(uint32_t pg)
{
  if (__builtin_expect(dsm__prof_on, 0)) dsm__prof_diff_made_impl(pg);
}
/* At the home: writer's diff of the page, from the writer's epoch, applied. */
static inline void dsm__prof_wrote(uint32_t pg, unsigned writer, uint32_t epoch,
                                   const void *diff, size_t len)
{
  if (__builtin_expect(dsm__prof_on, 0)) dsm__prof_wrote_impl(pg, writer, epoch, diff, len);
}
/* At the home, at a release: the home's own writes (page against twin). */
static inline void dsm__prof_home_wrote(uint32_t pg, uint32_t epoch, const void *twin,
                                        const void *page)
{
  if (__builtin_expect(dsm__prof_on, 0)) dsm__prof_home_wrote_impl(pg, epoch, twin, page);
}
/* A shared block allocated here; site is "file:line" (ompdsmcc) or NULL,
 * caller the return address of the allocation call. */
static inline void dsm__prof_alloc(const void *addr, size_t size, const char *site,
                                   const void *caller)
{
  if (__builtin_expect(dsm__prof_on, 0)) dsm__prof_alloc_impl(addr, size, site, caller);
}
/* A name the program's compiler knows and the profile cannot find in the
 * executable (ompdsmcc registers them, sync/omp/omp_names.c): a variable at
 * [key, key + size) (a local of main on the master's shared stack), or a
 * lock by its id (a critical section, with its site). Kept once per key. */
enum { DSM__PROF_NAME_VAR, DSM__PROF_NAME_LOCK };
void dsm__prof_name_impl(int kind, uint64_t key, size_t size, const char *text);
static inline void dsm__prof_name(int kind, uint64_t key, size_t size, const char *text)
{
  if (__builtin_expect(dsm__prof_on, 0)) dsm__prof_name_impl(kind, key, size, text);
}
/* A wait or service span of the application thread, for the timeline.
 * what: the faulting address for "fault", the id for "lock", "semaphore"
 * and "barrier", else 0; dsmprof charges fault time to variables by it. */
static inline void dsm__prof_span(const char *name, uint64_t t0_ns, uint64_t t1_ns,
                                  uint64_t what)
{
  if (__builtin_expect(dsm__prof_on, 0)) dsm__prof_span_impl(name, t0_ns, t1_ns, what);
}

#endif
