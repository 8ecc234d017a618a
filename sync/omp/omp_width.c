/*
 * omp_width.c — how many processes a parallel region spans when the
 * program lets the runtime choose (dyn-var, OMP_DYNAMIC; issue 52).
 *
 * A region of many short worksharing loops costs a barrier per loop, and a
 * barrier across processes costs a message trip and a wake-up (~35 us on
 * this VM) where one between threads of a process costs ~1 us. NAS SP's
 * lhsx/lhsy/lhsz run two `omp for` loops of 36 iterations inside two
 * sequential loops: ~7,000 barriers per time step at class W, 2.8 million
 * in the run, with a few hundred flops between them. Spread over two
 * processes it spends nearly all its time in barriers; run by the
 * master's process alone, it runs at the speed of one process.
 *
 * OpenMP lets the implementation give a region fewer threads than asked
 * when dyn-var is true. ompdsm's dyn-var is true unless OMP_DYNAMIC=false
 * or omp_set_dynamic(0) says otherwise, and ompdsmcc marks the regions
 * that may be narrowed (__ompdsm_parallel_dynamic): not those with a
 * num_threads clause, nor those that ask their thread number or team size,
 * nor any in a file that asks outside its regions. And once the program
 * has asked (omp_get_num_threads, omp_get_thread_num, omp_get_max_threads,
 * omp_in_parallel: from any file), every region has its whole team, unless
 * dyn-var was said to be true (OMP_DYNAMIC=true, omp_set_dynamic(1)): a
 * program that says so expects any team, which is what OpenMP promises it.
 * A sealed region (__ompdsm_parallel_sealed: ompdsmcc saw all it runs, and
 * none of it asks) cannot count on its team, and is narrowed all the same.
 *
 * The choice is measured, per region (its outlined function), by the
 * master thread of rank 0, which alone forks:
 *   - the first run is cold (its pages move) and is not judged;
 *   - a wide run is timed, and so is the part of its body the master
 *     spent computing: not blocked on the network (barriers, reductions,
 *     fetching faults, spins on a flag, locks) nor waiting for the other
 *     threads of its process (dsm__my_blocked_ns). Run by one process,
 *     the region would take about procs x compute; only if that is under
 *     0.8 of the wide run, or the master waited for more than half of
 *     (1 - 1/procs) of the body (narrow_promising), is a narrow run tried;
 *   - a narrow run (the master's process alone, its threads; the
 *     `procs == 1` path of omp_rt.c) is timed, and the region stays
 *     narrow if it took under 0.8 of the wide run;
 *   - the other width is tried again after 16 runs, then 32, ... up to
 *     1,024, so that a region whose cost changes (a larger phase of the
 *     program) is judged again, at a cost of one run in that many; and
 *     when any region changes its width, every other one is judged again
 *     two runs later (the pages they share have moved).
 * A region that computes nearly all its time is never tried narrow, and
 * costs four clock reads per run; one that keeps its team (below), none.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dsm_internal.h"
#include "omp_width.h"
#include "stats.h"

#define SITES      256       /* regions followed; more are left wide */
#define GAP_FIRST  16
#define GAP_MAX    1024
#define WIN_NUM    4         /* a width wins when under 4/5 of the other */
#define WIN_DEN    5

struct site {
  void (*fn)(void *);
  uint32_t runs;          /* runs started */
  uint32_t next_try;      /* run at which the other width is tried again */
  uint32_t gap;
  uint8_t narrow;         /* the chosen width */
  uint8_t trying;         /* this run tries the other width */
  uint64_t wide_ns, narrow_ns;   /* the newest time of each (0: none yet) */
  uint64_t compute_ns;    /* of the newest wide run's body: not waiting */
  uint64_t waits_ns;      /* ... and waiting */
  unsigned procs;         /* processes of the wide team */
  const char *where;      /* "file:line", when ompdsmcc said */
};

static struct site sites[SITES];
static int dyn = 1;               /* dyn-var */
static int pinned;                /* the program asked its team (dsm__width_pin) */
static int dyn_said;              /* OMP_DYNAMIC=true or omp_set_dynamic(1): asking pins nothing */
static int log_on;                /* DSM_WIDTH_LOG=1: say what is decided */
static const char *next_where;

/* The run under way (only rank 0's master thread forks, outside any region). */
static struct site *cur_site;
static int cur_narrow;
static uint64_t cur_start, cur_body, cur_waits;   /* the run, its body, the body's waits */
static uint64_t body_start, body_blocked0;
static __thread int is_master;    /* this thread forked the run being timed */

/* Read once by __ompdsm_main before any thread starts; omp_set_dynamic
 * may then come from any thread. */
void dsm__width_init(void)
{
  const char *l = getenv("DSM_WIDTH_LOG");
  log_on = l && *l && strcmp(l, "0");
  const char *s = getenv("OMP_DYNAMIC");
  if (!s || !*s) return;
  if (!strcasecmp(s, "false") || !strcmp(s, "0")) dyn = 0;
  else if (!strcasecmp(s, "true") || !strcmp(s, "1")) dyn = dyn_said = 1;
  else {
    fprintf(stderr, "ompdsm: error: OMP_DYNAMIC='%s' is not true or false\n", s);
    exit(2);
  }
}

int dsm__width_dynamic(void)
{
  return __atomic_load_n(&dyn, __ATOMIC_RELAXED);
}

void dsm__width_pin(void)
{
  if (!__atomic_load_n(&pinned, __ATOMIC_RELAXED))
    __atomic_store_n(&pinned, 1, __ATOMIC_RELAXED);
}

void dsm__width_set_dynamic(int d)
{
  __atomic_store_n(&dyn, d != 0, __ATOMIC_RELAXED);
  if (d) __atomic_store_n(&dyn_said, 1, __ATOMIC_RELAXED);
}

static struct site *site_of(void (*fn)(void *), const char *where)
{
  uintptr_t h = ((uintptr_t)fn >> 4) * 0x9e3779b97f4a7c15u;
  for (unsigned k = 0; k < SITES; k++) {
    struct site *s = &sites[(h + k) % SITES];
    if (s->fn == fn) return s;
    if (!s->fn) { s->fn = fn; s->gap = GAP_FIRST; s->where = where; return s; }
  }
  return NULL;
}

/* Would the master's process alone plausibly beat the wide run? Yes if
 * procs x its computing is clearly less than the run. Also if it waited
 * for half the time that one process in procs would: what it computed is
 * then mostly the protocol's own work (twins, diffs, protection), which
 * one process does not have. NAS LU at class W: a step of 145 ms on 2
 * processes, 70 ms of it waiting and 75 ms "computing", against 15 ms for
 * the step on one process. */
static int narrow_promising(const struct site *s)
{
  uint64_t body = s->compute_ns + s->waits_ns;
  return s->wide_ns && ((uint64_t)s->procs * s->compute_ns * WIN_DEN < s->wide_ns * WIN_NUM ||
                        s->waits_ns * 2 * s->procs >= body * (s->procs - 1));
}

void dsm__width_where(const char *where)
{
  next_where = where;
}

unsigned dsm__width_choose(void (*fn)(void *), unsigned team, unsigned tpp, int sealed)
{
  cur_site = NULL;
  const char *where = next_where;
  next_where = NULL;
  if (!dsm__width_dynamic() || team <= tpp ||
      (!sealed && __atomic_load_n(&pinned, __ATOMIC_RELAXED) &&
       !__atomic_load_n(&dyn_said, __ATOMIC_RELAXED)))
    return team;
  struct site *s = site_of(fn, where);
  if (!s) return team;
  s->procs = (team + tpp - 1) / tpp;
  s->runs++;
  s->trying = 0;
  if (s->runs > 2 && s->runs >= s->next_try) {
    if (s->narrow || narrow_promising(s)) {
      s->trying = 1;
    } else {
      if (log_on)
        fprintf(stderr, "ompdsm: region %s, run %u: stays on %u processes (a run %.3f ms, "
                "computing %.3f ms of it, waiting %.3f ms)\n", s->where ? s->where : "?",
                s->runs, s->procs, s->wide_ns / 1e6, s->compute_ns / 1e6, s->waits_ns / 1e6);
      s->next_try = s->runs + s->gap;
      if (s->gap < GAP_MAX) s->gap *= 2;
    }
  }
  cur_site = s;
  cur_narrow = s->narrow ^ s->trying;
  cur_body = 0;
  is_master = 1;
  cur_waits = 0;
  cur_start = dsm__now_ns();
  if (cur_narrow) DSM__STAT_INC(regions_narrow);
  if (s->trying) DSM__STAT_INC(regions_width_tried);
  return cur_narrow ? tpp : team;
}

void dsm__width_body_begin(void)
{
  if (!is_master || !cur_site) return;
  body_start = dsm__now_ns();
  body_blocked0 = dsm__my_blocked_ns;
}

void dsm__width_body_end(void)
{
  if (!is_master || !cur_site) return;
  cur_body = dsm__now_ns() - body_start;
  cur_waits = dsm__my_blocked_ns - body_blocked0;
}

void dsm__width_done(void)
{
  struct site *s = cur_site;
  if (!s) return;
  cur_site = NULL;
  is_master = 0;
  uint64_t t = dsm__now_ns() - cur_start;
  uint64_t busy = cur_body ? cur_body : t;   /* the master's part of the run */
  uint64_t waits = cur_waits;
  if (s->runs == 1) return;                    /* cold */
  if (cur_narrow) {
    s->narrow_ns = t;
  } else {
    s->wide_ns = t;
    s->compute_ns = busy > waits ? busy - waits : 0;
    s->waits_ns = waits < busy ? waits : busy;
  }
  if (s->runs == 2) {                          /* the first judged wide run */
    s->next_try = 3;
    return;
  }
  if (!s->trying) return;
  /* A try decides, and the other width must win by a margin, so that
   * noise does not flip a region back and forth. */
  int narrow = s->narrow ? !(s->wide_ns * WIN_DEN < s->narrow_ns * WIN_NUM)
                         : s->narrow_ns * WIN_DEN < s->wide_ns * WIN_NUM;
  if (narrow != s->narrow) {
    /* Where one region runs moves the pages the others use: NAS BT's
     * x_solve narrow cost 107 ms against 121 ms spread while the region
     * before it wrote its half on rank 1, and 6 ms once that one ran on
     * the master too. So every other region is judged again soon, two runs
     * on (the pages move in the first). */
    s->gap = GAP_FIRST;
    for (unsigned k = 0; k < SITES; k++) {
      struct site *o = &sites[k];
      if (o->fn && o != s && o->runs >= 2 && o->next_try > o->runs + 2) {
        o->next_try = o->runs + 2;
        o->gap = GAP_FIRST;
      }
    }
  }
  if (log_on)
    fprintf(stderr, "ompdsm: region %s, run %u: %s (on %u processes a run %.3f ms, "
            "computing %.3f ms of it, waiting %.3f ms; on the master's alone %.3f ms)\n",
            s->where ? s->where : "?", s->runs,
            narrow ? "runs on the master's process alone" : "runs on every process",
            s->procs, s->wide_ns / 1e6, s->compute_ns / 1e6, s->waits_ns / 1e6,
            s->narrow_ns / 1e6);
  s->narrow = (uint8_t)narrow;
  s->next_try = s->runs + s->gap;
  if (s->gap < GAP_MAX) s->gap *= 2;
}
