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
 * The choice is measured by the master thread of rank 0, which alone
 * forks, and it is made for the job's regions together, because where one
 * region runs moves the pages the next one uses: NAS BT's five regions,
 * judged one by one, each met the pages of the others wherever the others
 * ran, took that for its own cost, and went back and forth for dozens of
 * time steps. So the job runs its regions at one width for an epoch, and
 * each region's warm runs (not its first in the epoch, which moves the
 * pages) are timed:
 *   - the first epoch is wide and two rounds long (a round: as many runs
 *     as regions seen in the epoch);
 *   - then comes a trial of the other width, three rounds long, the
 *     faster of a region's two timed runs kept: a trial that loses to
 *     noise keeps the job at the slower width for 16 rounds or more, and
 *     one spread round of NAS LU W costs 0.8 s, so the first epoch is the
 *     shorter. After the
 *     first, the narrow width is tried again only if some region is
 *     promising: run by one process it would take about procs x its
 *     computing, under 0.8 of its wide run, or its master waited for more
 *     than half of (1 - 1/procs) of its body (narrow_promising);
 *   - the trial's width becomes the job's if the regions timed in both
 *     epochs, each weighed by its runs in the trial, took under 0.8 of
 *     what they took before;
 *   - the other width is tried again after 16 rounds, then 32, ... up to
 *     1,024 (back to 16 when the job's width changes), so that a later,
 *     larger phase of the program is judged again; and after 40 (k - 1)
 *     rounds at the least when it was k times slower, so that trials cost
 *     under 5% of the time.
 * A region first seen while the job runs narrow is probed: two runs
 * spread, two narrow, the second of each timed; it goes its own way
 * (spread) until the next trial if that took under 2/3 of the narrow run.
 * A region that keeps its
 * team (below) costs nothing here.
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
#define FIRST_ROUNDS 2       /* the first epoch: a cold run and one timed */
#define TRIAL_ROUNDS 3       /* a trial: a cold run and two timed, the faster kept */
#define GAP_FIRST  16        /* rounds until the next trial, doubling */
#define GAP_MAX    1024
#define WIN_NUM    4         /* the job's width changes for under 4/5 of the time */
#define WIN_DEN    5
#define OWN_NUM    2         /* a region goes its own way for under 2/3 of its time */
#define OWN_DEN    3

struct site {
  void (*fn)(void *);
  const char *where;      /* "file:line", when ompdsmcc said */
  unsigned procs;         /* processes of the wide team */
  uint32_t runs;          /* runs started */
  uint32_t epoch;         /* the newest epoch it ran in, and its runs there */
  uint32_t in_epoch;
  uint64_t best[2];       /* fastest warm run spread [0] and narrow [1] ... */
  uint32_t best_epoch[2]; /* ... in the newest epoch it ran so */
  uint64_t compute_ns;    /* of the newest warm wide run's body: not waiting */
  uint64_t waits_ns;      /* ... and waiting */
  int8_t own;             /* -1: the job's width; else its own (0 spread, 1 narrow) */
  uint8_t probing;        /* first seen while the job ran narrow: runs 1-4 probe */
};

static struct site sites[SITES];
static int dyn = 1;               /* dyn-var */
static int pinned;                /* the program asked its team (dsm__width_pin) */
static int dyn_said;              /* OMP_DYNAMIC=true or omp_set_dynamic(1): asking pins nothing */
static int log_on;                /* DSM_WIDTH_LOG=1: say what is decided */
static const char *next_where;

/* The job's width and its epochs (rank 0's master thread only). */
static int job_narrow;            /* 0: every process, 1: the master's alone */
static int trial;                 /* this epoch tries the other width */
static int tried;                 /* a trial was made */
static uint32_t epoch = 1, epoch_runs, epoch_sites;
static uint32_t stay_rounds = FIRST_ROUNDS;   /* the length of the epoch after a trial */

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
    if (!s->fn) {
      s->fn = fn;
      s->where = where;
      s->own = -1;
      s->probing = job_narrow && !trial;
      return s;
    }
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
  uint64_t body = s->compute_ns + s->waits_ns, wide = s->best[0];
  return wide && ((uint64_t)s->procs * s->compute_ns * WIN_DEN < wide * WIN_NUM ||
                  s->waits_ns * 2 * s->procs >= body * (s->procs - 1));
}

void dsm__width_where(const char *where)
{
  next_where = where;
}

static const char *where_of(const struct site *s)
{
  return s->where ? s->where : "?";
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
  if (s->epoch != epoch) {
    s->epoch = epoch;
    s->in_epoch = 0;
    epoch_sites++;
  }
  s->in_epoch++;
  epoch_runs++;
  if (s->probing) cur_narrow = s->runs > 2;
  else if (s->own >= 0) cur_narrow = s->own;
  else cur_narrow = job_narrow ^ trial;
  cur_site = s;
  cur_body = 0;
  is_master = 1;
  cur_waits = 0;
  cur_start = dsm__now_ns();
  if (cur_narrow) DSM__STAT_INC(regions_narrow);
  if (trial || s->probing) DSM__STAT_INC(regions_width_tried);
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

static void new_epoch(void)
{
  epoch++;
  epoch_runs = 0;
  epoch_sites = 0;
}

/* The end of a trial: the regions timed in it and in the epoch before
 * (each at one width, and the pages where that width puts them) decide
 * the job's width. No region goes its own way here: what it took at the
 * other width was timed with every other region there too, and alone at
 * that width it meets their pages. NAS BT's z_solve, 8.6 ms spread among
 * spread regions against 19.9 ms narrow, went its own way among narrow
 * ones, and BT W took 19 s instead of 7. */
static void judge_trial(void)
{
  int tw = job_narrow ^ 1;
  uint64_t before = 0, now = 0;
  unsigned n = 0;
  for (unsigned k = 0; k < SITES; k++) {
    struct site *s = &sites[k];
    if (s->fn && s->epoch == epoch && s->best_epoch[tw] == epoch &&
        s->best_epoch[!tw] == epoch - 1) {
      now += s->in_epoch * s->best[tw];
      before += s->in_epoch * s->best[!tw];
      n++;
    }
  }
  int change = n && now * WIN_DEN < before * WIN_NUM;
  if (change) job_narrow = tw;
  if (log_on)
    fprintf(stderr, "ompdsm: regions run %s (%u regions timed in both: %.3f ms on every process, "
            "%.3f ms on the master's alone)\n",
            job_narrow ? "on the master's process alone" : "on every process", n,
            (tw ? before : now) / 1e6, (tw ? now : before) / 1e6);
  stay_rounds = change ? GAP_FIRST : stay_rounds < GAP_FIRST ? GAP_FIRST
              : stay_rounds < GAP_MAX ? stay_rounds * 2 : GAP_MAX;
  /* A trial of a width k times slower costs 2 (k - 1) rounds: it comes
   * after 40 (k - 1) rounds at the least, under 5% of the time. NAS SP at
   * class W spent 10 of its 12 s in trials of every process, 30-50 times
   * slower than the master's alone, every 16, 32, ... rounds. */
  uint64_t win = now < before ? now : before, lose = now < before ? before : now;
  if (n && win) {
    uint64_t k1 = lose / win - 1, least = 40 * k1;
    if (least > stay_rounds) stay_rounds = least > GAP_MAX ? GAP_MAX : (uint32_t)least;
  }
  trial = 0;
  new_epoch();
}

/* After each run: does the epoch end? */
static void epoch_check(void)
{
  uint32_t rounds = trial ? TRIAL_ROUNDS : stay_rounds;
  if (epoch_runs < rounds * epoch_sites || epoch_runs < 2 * rounds)
    return;
  if (trial) {
    judge_trial();
    return;
  }
  /* The first trial is always made: the master's share of a barrier's
   * protocol work counts as computing, and a region of many barriers and
   * little work (the corpus's region_width lines(): 0.28 ms spread, 0.17 of
   * it "computing", 0.05 ms narrow) looked computing-bound one run in
   * three. Later ones, only if a region could gain. */
  int promising = job_narrow || !tried;
  for (unsigned k = 0; k < SITES && !promising; k++)
    promising = sites[k].fn && sites[k].epoch == epoch && sites[k].best_epoch[0] == epoch &&
                narrow_promising(&sites[k]);
  if (!promising) {
    if (log_on)
      fprintf(stderr, "ompdsm: regions stay on every process (%u regions: none waits)\n",
              epoch_sites);
    stay_rounds = stay_rounds < GAP_FIRST ? GAP_FIRST
                : stay_rounds < GAP_MAX ? stay_rounds * 2 : GAP_MAX;
    new_epoch();
    return;
  }
  /* A trial runs every region at the other width, a probed one's own
   * way too. */
  for (unsigned k = 0; k < SITES; k++)
    if (sites[k].fn && !sites[k].probing) sites[k].own = -1;
  if (log_on)
    fprintf(stderr, "ompdsm: regions tried %s (%u regions, %u runs on %s)\n",
            job_narrow ? "on every process" : "on the master's process alone", epoch_sites,
            epoch_runs, job_narrow ? "the master's alone" : "every process");
  trial = 1;
  tried = 1;
  new_epoch();
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
  int w = cur_narrow;
  /* Warm: not the region's first run at this width here (its pages move).
   * A probe's runs 2 and 4 are; an epoch's first run of a region is not. */
  int warm = s->probing ? (s->runs == 2 || s->runs == 4) : s->in_epoch > 1;
  if (warm) {
    if (s->best_epoch[w] != epoch || t < s->best[w]) s->best[w] = t;
    s->best_epoch[w] = epoch;
    if (!w) {
      s->compute_ns = busy > waits ? busy - waits : 0;
      s->waits_ns = waits < busy ? waits : busy;
    }
  }
  if (s->probing && s->runs == 4) {
    s->probing = 0;
    int own = s->best[0] * OWN_DEN < s->best[1] * OWN_NUM;
    s->own = own ? 0 : -1;
    if (log_on)
      fprintf(stderr, "ompdsm: region %s, probed: %s (%.3f ms a run on every process, %.3f ms on "
              "the master's alone)\n", where_of(s),
              own ? "runs on every process" : "runs on the master's process alone",
              s->best[0] / 1e6, s->best[1] / 1e6);
  }
  epoch_check();
}
