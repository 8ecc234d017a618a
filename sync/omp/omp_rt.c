/*
 * omp_rt.c — the OpenMP runtime that ompdsmcc-generated code calls
 * (include/ompdsm_rt.h) and the omp.h API, on top of libdsm.
 *
 * A process runs T OpenMP threads (dsmrun --threads, dsm/threads.c; 1 by
 * default): thread number = rank * T + its number in the process, and a
 * team of k threads is the first k of those. A parallel region is a
 * fork/join of the processes (forkjoin.c), each of which forks and joins its
 * threads (omp_team.c); a nested region runs serialized on the thread that
 * meets it. With T > 1 a barrier is first one of the process's threads, the
 * last of which does the process's DSM barrier; locks are settled among a
 * process's threads before one of them asks the DSM (omp_llock.c).
 *
 * What costs messages:
 *   static loops         nothing (each thread computes its chunks)
 *   dynamic/guided loops one round trip to rank 0 per chunk (LOOP), except
 *                        each thread's first chunk, and the final empty
 *                        claim of the thread that took the last chunk
 *   sections             nothing when there are no more than threads
 *                        (section i is thread i's), else like a dynamic loop
 *   single               nothing: the master runs it
 *   critical, atomic     a DSM lock (named criticals get their own)
 *   ordered              static schedule: a semaphore signal from the thread
 *                        that leaves to the one that enters (one round
 *                        trip); others: a DSM lock and condition variable
 *   reductions           combined inside one barrier's messages
 *   flush                2(n-1) messages: records exchanged with every peer
 *                        (a spin on a flag: one flush, then a wait for news)
 */
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dsm_internal.h"
#include "lrc.h"
#include "omp.h"
#include "ompdsm_rt.h"
#include "omp_team.h"
#include "omp_width.h"
#include "private_stack.h"
#include "sync.h"
#include "net/transport.h"


/* Lock and condition ids the runtime uses. User programs of dsm.h choose ids
 * below 0x40000000; omp locks use 0x40000000..0x6fffffff (omp_lock.c). */
#define ID_CRITICAL_BASE 0x70000000u   /* + hash of the name, 24 bits */
#define ID_ATOMIC        0x7f000000u
#define ID_ORDERED       0x7f000001u
#define ID_ORDERED_SEMA  0x7e000000u   /* + a multiple of nprocs + thread */
#define ID_SEMA_BASE     0x10000000u   /* ids of #pragma omp sema_* names */
#define BARRIER_ID       0x6f6d7000u

/* ---- team state (per process) -------------------------------------------------- */

/* Per thread: the innermost region's view. */
static __thread int thread_num;          /* in the innermost active region */
static __thread int num_threads = 1;
static __thread int level;               /* nesting depth, active or not */
static __thread int active;              /* inside an active (multi-thread) region */
static __thread unsigned nlocal = 1;     /* threads of this process in the team */
static __thread unsigned team_procs = 1; /* processes in the team */
static __thread unsigned my_local;       /* this thread's number in its process */
static __thread uint64_t region_seq;     /* which region: loop ids are per region */
static __thread uint32_t ws_seq;         /* worksharing constructs met in this region */
static int default_threads;     /* omp_set_num_threads / OMP_NUM_THREADS */
static __thread omp_sched_t run_sched = omp_sched_static;

/* This thread's current worksharing construct (loop, sections, single). A
 * serialized nested region saves and restores it around its own. */
struct loop_req { uint64_t key; int64_t count, chunk; int32_t sched, nth; };
/* local_next: the local or static schedule's position; first: the dynamic
 * schedule's first chunk, which no one is asked for (below); done: rank 0
 * said the loop has no iterations left, so asking again is pointless. */
static __thread struct { struct loop_req req; int local, first, done; int64_t local_next; } cur;
static __thread int run_chunk;

/* Threads per process for OpenMP. */
static unsigned tpp(void) { return dsm__threads; }

unsigned dsm__omp_tpp(void) { return tpp(); }

/* The most threads a team can have: every thread of the job. */
static unsigned job_threads(void) { return dsm__nprocs * tpp(); }

static unsigned team_default(void)
{
  if (default_threads > 0)
    return (unsigned)default_threads < job_threads() ? (unsigned)default_threads : job_threads();
  return job_threads();
}

/* Threads of process `rank` in a team of nth. */
static unsigned local_count(unsigned nth, unsigned rank)
{
  unsigned t = tpp(), first = rank * t;
  return nth <= first ? 0 : nth - first < t ? nth - first : t;
}

static uint32_t fnv(const char *s)
{
  uint32_t h = 2166136261u;
  for (; s && *s; s++)
    h = (h ^ (uint8_t)*s) * 16777619u;
  return h;
}

/* ---- the program ------------------------------------------------------------- */

static void read_env(void)
{
  const char *s = getenv("OMP_NUM_THREADS");
  if (s && *s) {
    char *end;
    long v = strtol(s, &end, 10);
    if (*end && *end != ',') {
      fprintf(stderr, "ompdsm: error: OMP_NUM_THREADS='%s' is not a number\n", s);
      exit(2);
    }
    if (v > 0) default_threads = (int)v;
  }
  s = getenv("OMP_SCHEDULE");
  if (s && *s) {
    char kind[32] = "";
    int chunk = 0;
    if (sscanf(s, "%31[a-z],%d", kind, &chunk) < 1) kind[0] = 0;
    if (!strcmp(kind, "static")) run_sched = omp_sched_static;
    else if (!strcmp(kind, "dynamic")) run_sched = omp_sched_dynamic;
    else if (!strcmp(kind, "guided")) run_sched = omp_sched_guided;
    else if (!strcmp(kind, "auto")) run_sched = omp_sched_auto;
    else {
      fprintf(stderr, "ompdsm: error: OMP_SCHEDULE='%s' is not static, dynamic, guided or auto\n", s);
      exit(2);
    }
    run_chunk = chunk;
  }
}

void __ompdsm_main(int (*user_main)(int, char **), int argc, char **argv)
{
  read_env();
  dsm__width_init();
  dsm_main(user_main, argc, argv);
}

/* ---- parallel regions ------------------------------------------------------------ */

/* The argument of the forked wrapper: the outlined function, the region
 * number, the master's run-sched-var (omp_set_schedule in the sequential
 * code sets it for the team's schedule(runtime) loops, and the team must
 * agree on the schedule of a loop), and the user's argument block after
 * it. */
struct region_hdr { void (*fn)(void *); uint64_t seq; int32_t sched, chunk; uint32_t nth, pad; };

/* Reductions at the end of a region whose process runs several threads
 * (__ompdsm_reduce_join): each thread lists its partials, and the process
 * combines them in order when its threads are done, then hands the
 * process's partial to the join as a single thread would. */
struct joinred { void *shared; size_t count; int type, op; uint8_t *partial; };
struct joinreds { struct joinred *v; unsigned n, cap; };
static __thread struct joinreds my_joinreds;
static struct joinreds **joinreds;     /* [local thread]: its my_joinreds */

static void joinreds_fold(unsigned n)
{
  for (unsigned t = 1; t < n; t++)
    if (joinreds[t]->n != joinreds[0]->n)
      dsm__fatal(DSM__EXIT_FATAL, "thread %u of this process ended its region with %u "
                 "reductions, thread 0 with %u", t, joinreds[t]->n, joinreds[0]->n);
  for (unsigned k = 0; k < joinreds[0]->n; k++) {
    struct joinred *a = &joinreds[0]->v[k];
    for (unsigned t = 1; t < n; t++) {
      struct joinred *b = &joinreds[t]->v[k];
      if (b->type != a->type || b->op != a->op || b->count != a->count)
        dsm__fatal(DSM__EXIT_FATAL, "thread %u of this process ended its region with "
                   "reductions unlike thread 0's", t);
      if (dsm__red_combine(a->type, a->op, a->partial, b->partial, a->count) < 0)
        dsm__fatal(DSM__EXIT_FATAL, "reduction operator %d does not apply to type %d",
                   a->op, a->type);
    }
    dsm__join_reduce(a->shared, a->partial, a->count, a->type, a->op);
  }
  for (unsigned t = 0; t < n; t++) {
    for (unsigned k = 0; k < joinreds[t]->n; k++)
      free(joinreds[t]->v[k].partial);
    joinreds[t]->n = 0;
  }
}

static void region_body(void *p)
{
  struct region_hdr *h = p;
  dsm__width_body_begin();
  dsm__task_region_begin(h->seq, team_procs, nlocal, my_local);
  h->fn(h + 1);
  dsm__task_region_end();   /* the region's closing barrier completes its tasks */
  dsm__width_body_end();
}

/* Workers' region stacks in a program whose tasks move between processes:
 * [local thread], the top of each. */
static void **worker_stacks;

/* One thread of this process in the region: local is its number here. */
static void region_thread(void *p, unsigned local)
{
  struct region_hdr *h = p;
  int saved_tn = thread_num, saved_nt = num_threads, saved_active = active;
  unsigned saved_nl = nlocal, saved_tp = team_procs, saved_local = my_local;
  unsigned t = tpp();
  my_local = local;
  thread_num = (int)(dsm__rank * t + local);
  num_threads = (int)h->nth;
  nlocal = local_count(h->nth, dsm__rank);
  team_procs = (h->nth + t - 1) / t;
  active = 1;
  level++;
  region_seq = h->seq;
  ws_seq = 0;
  run_sched = (omp_sched_t)h->sched;
  run_chunk = h->chunk;
  if (local > 0 && dsm__tasks_on()) {
    /* A task may run on another process and write its creator's locals
     * (forkjoin.c): a worker's region frames go on a stack in shared
     * memory too, its own. */
    dsm__call_on_shared_stack(region_body, h, worker_stacks[local]);
  } else {
    region_body(h);
  }
  if (t > 1)
    joinreds[local] = &my_joinreds;   /* folded by thread 0 once all are done */
  level--;
  thread_num = saved_tn;
  num_threads = saved_nt;
  nlocal = saved_nl;
  team_procs = saved_tp;
  my_local = saved_local;
  active = saved_active;
}

/* The region on this process: its threads, then what they reduce. */
static void region_entry(void *p)
{
  struct region_hdr *h = p;
  unsigned n = local_count(h->nth, dsm__rank);
  if (tpp() == 1) {
    region_thread(h, 0);
    return;
  }
  if (!joinreds)
    joinreds = dsm__xcalloc(tpp(), sizeof *joinreds);
  if (dsm__tasks_on() && !worker_stacks) {
    worker_stacks = dsm__xcalloc(tpp(), sizeof *worker_stacks);
    for (unsigned t = 1; t < tpp(); t++)
      worker_stacks[t] = dsm__shared_stack_new();
  }
  dsm__team_run(region_thread, h, n);
  joinreds_fold(n);
}

static void parallel(void (*fn)(void *), void *data, size_t size, unsigned nthreads,
                     int if_cond, int may_narrow)
{
  unsigned team = nthreads ? nthreads : team_default();
  if (team > job_threads()) team = job_threads();
  if (active || !if_cond || team <= 1 || dsm__rank != 0) {
    /* Serialized: a team of one, this thread. The enclosing construct's
     * dynamic-loop state must survive the inner region's constructs. */
    int saved_tn = thread_num, saved_nt = num_threads;
    uint32_t saved_ws = ws_seq;
    __typeof__(cur) saved_cur = cur;
    thread_num = 0;
    num_threads = 1;
    level++;
    int tasks_were = dsm__task_suspend();
    fn(data);
    dsm__task_resume(tasks_were);
    level--;
    thread_num = saved_tn;
    num_threads = saved_nt;
    ws_seq = saved_ws;
    cur = saved_cur;
    return;
  }
  if (may_narrow)
    team = dsm__width_choose(fn, team, tpp(), may_narrow == 2);
  size_t total = sizeof(struct region_hdr) + size;
  struct region_hdr *h = malloc(total);
  if (!h) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  h->fn = fn;
  h->seq = ++region_seq;
  h->sched = (int32_t)run_sched;
  h->chunk = run_chunk;
  h->nth = team;
  h->pad = 0;
  if (size) memcpy(h + 1, data, size);
  unsigned procs = (team + tpp() - 1) / tpp();
  if (procs == 1) {
    /* Threads of this process only: no other process takes part. */
    if (tpp() > 1)
      dsm__join_answer_held();
    region_entry(h);
  } else {
    dsm__fork_team(region_entry, h, total, procs);
    dsm_join();
  }
  if (may_narrow)
    dsm__width_done();
  free(h);
}

void __ompdsm_parallel(void (*fn)(void *), void *data, size_t size, unsigned nthreads, int if_cond)
{
  parallel(fn, data, size, nthreads, if_cond, 0);
}

void __ompdsm_parallel_dynamic(void (*fn)(void *), void *data, size_t size, unsigned nthreads,
                               int if_cond)
{
  parallel(fn, data, size, nthreads, if_cond, 1);
}

void __ompdsm_parallel_sealed(void (*fn)(void *), void *data, size_t size, unsigned nthreads,
                              int if_cond)
{
  parallel(fn, data, size, nthreads, if_cond, 2);
}

/* ---- a team larger than the job (issue 14) ---------------------------------------------- */

/* One OpenMP thread is one process, so a region cannot have more threads
 * than dsmrun started. The program is told once per region where that
 * happens and what it got; omp_get_max_threads() already answers with the
 * clamped size. */
void __ompdsm_team_check(unsigned nthreads, int if_cond, const char *where, int *warned)
{
  unsigned want = nthreads ? nthreads : default_threads > 0 ? (unsigned)default_threads : 0;
  if (!active)
    dsm__width_where(where);   /* names the region that follows in DSM_WIDTH_LOG */
  if (*warned || active || !if_cond || want <= job_threads())
    return;
  *warned = 1;
  fprintf(stderr, "ompdsm: warning: %s: the parallel region asks for %u threads; "
          "its team has %u, the threads of the job (%u process%s of %u thread%s)\n",
          where, want, job_threads(), dsm__nprocs, dsm__nprocs == 1 ? "" : "es", tpp(),
          tpp() == 1 ? "" : "s");
}

int __ompdsm_thread_num(void) { return thread_num; }
int __ompdsm_num_threads(void) { return num_threads; }

/* ---- worksharing: static ----------------------------------------------------------- */

int __ompdsm_static_chunk(int64_t count, int64_t chunk, int64_t k, int64_t *lo, int64_t *hi)
{
  int64_t nth = num_threads, tid = thread_num;
  if (count <= 0)
    return 0;
  if (chunk <= 0) {
    if (k > 0) return 0;
    int64_t q = count / nth, r = count % nth;
    *lo = tid * q + (tid < r ? tid : r);
    *hi = *lo + q + (tid < r);
    return *lo < *hi;
  }
  int64_t c = k * nth + tid;
  if (c > (count - 1) / chunk)
    return 0;
  *lo = c * chunk;
  *hi = *lo + chunk < count ? *lo + chunk : count;
  return 1;
}

/* ---- worksharing: dynamic, guided, sections, single ----------------------------------- */

/* Rank 0 keeps the next unclaimed iteration of each active loop, keyed by
 * (region, construct). An entry goes away when every thread of the team has
 * been told the loop is exhausted. */
struct loop_entry { uint64_t key; int64_t next, count; uint32_t done_count; struct loop_entry *next_e; };
static struct loop_entry *loops;   /* rank 0, under dsm__mu */
/* With threads, rank 0's own threads claim from the table under dsm__mu;
 * threads of other ranks ask it each, concurrently (the transport serves
 * calls from any thread). */

/* last: this claim took the final iterations; the claimer counts as told
 * that the loop is over and does not ask again. */
struct loop_rep { int64_t lo, hi, last; };

/* The first chunk of a dynamic or guided loop is each thread's without a
 * request: thread t takes the t-th chunk of that size, and rank 0's table
 * starts after nth of them. A loop of a few chunks per thread then costs
 * about half the round trips (the first claim and, with `last`, the final
 * empty one often go), and the schedule stays dynamic after the first
 * round, where imbalance shows. OpenMP lets an implementation hand out
 * chunks in any order, as long as each goes to exactly one thread. */
static int64_t first_chunk(const struct loop_req *q)
{
  int64_t chunk = q->chunk > 0 ? q->chunk : 1;
  if (q->sched == OMPDSM_SCHED_GUIDED) {
    int64_t g = q->count / (2 * (int64_t)q->nth);
    if (g > chunk) chunk = g;
  }
  return chunk;
}

/* Everyone has seen the end of the loop. */
static void loop_forget(struct loop_entry *e)
{
  struct loop_entry **pp;
  for (pp = &loops; *pp != e; pp = &(*pp)->next_e) {}
  *pp = e->next_e;
  free(e);
}

static struct loop_rep loop_claim(const struct loop_req *q)
{
  struct loop_entry *e;
  for (e = loops; e && e->key != q->key; e = e->next_e) {}
  if (!e) {
    e = calloc(1, sizeof *e);
    if (!e) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    e->key = q->key;
    e->count = q->count;
    int64_t fc = first_chunk(q);
    e->next = fc <= q->count / q->nth ? fc * q->nth : 0;
    e->next_e = loops;
    loops = e;
  }
  struct loop_rep r = { 0, 0, 0 };
  int64_t left = e->count - e->next;
  if (left <= 0) {
    if (++e->done_count >= (uint32_t)q->nth)
      loop_forget(e);
    return r;
  }
  int64_t chunk = q->chunk > 0 ? q->chunk : 1;
  if (q->sched == OMPDSM_SCHED_GUIDED) {
    int64_t g = left / (2 * (int64_t)q->nth);
    if (g > chunk) chunk = g;
  }
  if (chunk > left) chunk = left;
  r.lo = e->next;
  r.hi = e->next + chunk;
  e->next += chunk;
  if (e->next >= e->count) {
    r.last = 1;
    if (++e->done_count >= (uint32_t)q->nth)
      loop_forget(e);
  }
  return r;
}

static void on_loop(const dsm__msg_t *m)
{
  struct loop_req q;
  if (m->len != sizeof q)
    dsm__fatal(DSM__EXIT_FATAL, "malformed LOOP request from rank %u", m->origin);
  memcpy(&q, m->data, sizeof q);
  if (q.nth < 1 || q.nth > (int32_t)job_threads() || q.count < 0 ||
      (q.sched != OMPDSM_SCHED_DYNAMIC && q.sched != OMPDSM_SCHED_GUIDED))
    dsm__fatal(DSM__EXIT_FATAL, "malformed LOOP request from rank %u", m->origin);
  pthread_mutex_lock(&dsm__mu);
  struct loop_rep r = loop_claim(&q);
  pthread_mutex_unlock(&dsm__mu);
  dsm__tp_reply(dsm__reqh(m), &r, sizeof r);
}


void __ompdsm_loop_start(int sched, int64_t count, int64_t chunk)
{
  if (sched == OMPDSM_SCHED_RUNTIME) {
    sched = run_sched == omp_sched_dynamic ? OMPDSM_SCHED_DYNAMIC
          : run_sched == omp_sched_guided ? OMPDSM_SCHED_GUIDED : OMPDSM_SCHED_STATIC;
    chunk = run_chunk;
  }
  if (sched == OMPDSM_SCHED_STATIC || sched == OMPDSM_SCHED_AUTO) {
    /* Served by __ompdsm_loop_next through the static schedule below. */
    sched = OMPDSM_SCHED_STATIC;
  }
  cur.req.key = (region_seq << 32) | ++ws_seq;
  cur.req.count = count;
  cur.req.chunk = chunk;
  cur.req.sched = sched;
  cur.req.nth = num_threads;
  cur.local = !active || num_threads == 1;
  cur.local_next = 0;
  cur.first = !cur.local && sched != OMPDSM_SCHED_STATIC;
  cur.done = 0;
}

int __ompdsm_loop_next(int64_t *lo, int64_t *hi)
{
  if (cur.req.sched == OMPDSM_SCHED_STATIC) {
    /* local_next counts this thread's chunks */
    return __ompdsm_static_chunk(cur.req.count, cur.req.chunk, cur.local_next++, lo, hi);
  }
  if (cur.local) {
    if (cur.local_next >= cur.req.count) return 0;
    int64_t c = cur.req.chunk > 0 ? cur.req.chunk : 1;
    *lo = cur.local_next;
    *hi = *lo + c < cur.req.count ? *lo + c : cur.req.count;
    cur.local_next = *hi;
    return 1;
  }
  if (cur.first) {
    /* The first chunk, by thread number (first_chunk). A loop too short
     * for nth of them has none handed out this way: every thread asks. */
    cur.first = 0;
    int64_t fc = first_chunk(&cur.req);
    if (fc <= cur.req.count / cur.req.nth) {
      *lo = fc * thread_num;
      *hi = *lo + fc;
      return 1;
    }
  }
  if (cur.done)
    return 0;
  struct loop_rep r;
  if (dsm__rank == 0) {
    /* The loops live here: claiming is a table update, not a request to
     * ourselves (which the service thread would serve: two hand-offs). */
    pthread_mutex_lock(&dsm__mu);
    r = loop_claim(&cur.req);
    pthread_mutex_unlock(&dsm__mu);
  } else {
    void *reply = NULL;
    size_t len = 0;
    dsm__tp_call(0, DSM__MSG_LOOP, &cur.req, sizeof cur.req, &reply, &len);
    if (len != sizeof r)
      dsm__fatal(DSM__EXIT_FATAL, "malformed LOOP reply");
    memcpy(&r, reply, sizeof r);
    free(reply);
  }
  *lo = r.lo;
  *hi = r.hi;
  cur.done = r.last != 0;
  return r.hi > r.lo;
}

static void process_barrier(void *unused)
{
  (void)unused;
  dsm__barrier_red(BARRIER_ID, NULL);
}

void __ompdsm_barrier(void)
{
  dsm__flush_settle();   /* a flush that waited happens before we wait (flush.c) */
  dsm__task_barrier();
  if (!active || num_threads <= 1)
    return;
  if (tpp() == 1)
    dsm__barrier_red(BARRIER_ID, NULL);
  else
    dsm__team_barrier(nlocal, team_procs > 1 ? process_barrier : NULL, NULL);
}

void __ompdsm_loop_end(int nowait)
{
  if (!nowait)
    __ompdsm_barrier();
}

/* Sections: when there are no more of them than threads, section i is
 * thread i's (a static schedule with chunk 1), which balances as well as
 * any claim could and costs no message; more sections than threads are
 * claimed one at a time from rank 0, as a dynamic loop. */
void __ompdsm_sections_start(unsigned n)
{
  if (active && num_threads > 1 && n <= (unsigned)num_threads)
    __ompdsm_loop_start(OMPDSM_SCHED_STATIC, n, 1);
  else
    __ompdsm_loop_start(OMPDSM_SCHED_DYNAMIC, n, 1);
}

int __ompdsm_sections_next(void)
{
  int64_t lo, hi;
  return __ompdsm_loop_next(&lo, &hi) ? (int)lo : -1;
}

/* single: the master runs every single block of a region. OpenMP lets any
 * one thread run it; choosing by rule instead of by who arrives first
 * costs no claim (a round trip to rank 0 for every other process, then a
 * second one to learn that the block is taken), and the bytes a single
 * block writes stay at one process, the one that also runs the sequential
 * code around the region, instead of moving with whoever won. A single
 * block is almost always followed by its barrier, which waits for the
 * master anyway. The construct still counts as a worksharing construct,
 * so the loop ids after it agree on every process. */
int __ompdsm_single_start(void)
{
  ++ws_seq;
  return !active || num_threads == 1 || thread_num == 0;
}

/* copyprivate: the executor leaves its bytes in a shared scratch buffer
 * (shared memory, so one barrier publishes them), the others copy them. */
#define CP_SCRATCH 65536
DSM_SHARED_BSS static unsigned char cp_scratch[CP_SCRATCH] __attribute__((aligned(4096)));

void __ompdsm_copyprivate(void *buf, size_t size, int executed)
{
  if (!active || num_threads == 1) {
    __ompdsm_barrier();
    return;
  }
  for (size_t off = 0; off < size || off == 0; off += CP_SCRATCH) {
    size_t n = size - off < CP_SCRATCH ? size - off : CP_SCRATCH;
    if (executed) memcpy(cp_scratch, (char *)buf + off, n);
    __ompdsm_barrier();
    if (!executed) memcpy((char *)buf + off, cp_scratch, n);
    __ompdsm_barrier();
    if (size == 0) break;
  }
}

/* ---- ordered ----------------------------------------------------------------------- */

/* Under a static schedule the thread of every iteration is known, so an
 * ordered block is a handoff between two threads: the end of iteration i
 * signals a semaphore of the thread that runs i+1 (a release, which carries
 * the writes of the block with it) and the start of i+1 waits on it (an
 * acquire). One round trip from the thread that leaves to the one that
 * enters, none between two iterations of one thread. Thread t's semaphore
 * is managed by rank t, so its waits ask nobody. Each handoff signals
 * once and is waited for once, so the counts are back at zero when the
 * loop ends. (Like any implementation that hands the turn from iteration
 * to iteration, it assumes every iteration runs the ordered block, as
 * loops with an ordered block almost always do.) */
/* The thread of iteration i (0 <= i < count) of the current static loop. */
static int64_t static_owner(int64_t i)
{
  int64_t nth = num_threads, count = cur.req.count, chunk = cur.req.chunk;
  if (chunk > 0)
    return (i / chunk) % nth;
  int64_t q = count / nth, r = count % nth;     /* the first r blocks have q+1 */
  return i < r * (q + 1) ? i / (q + 1) : r + (i - r * (q + 1)) / q;
}

/* Thread t's turn in an ordered loop: a semaphore managed by t's process
 * (threads are numbered in blocks of tpp() per process), which waits on it. */
static unsigned ordered_sema(int64_t thread)
{
  unsigned n = dsm__nprocs, base = (ID_ORDERED_SEMA / n + 1) * n;
  return base + (unsigned)thread * n + (unsigned)(thread / tpp()) % n;
}

/* The runtime's locks and conditions: DSM locks of the process, shared by
 * its threads when it has several (omp_llock.c). With one thread per
 * process they are not needed at all where no other process can run: in a
 * job of one process, in a team on the master's process alone (a narrowed
 * region, omp_width.c) and in the master's serial code, while every other
 * process waits for a fork, and the fork that ends the wait makes what
 * was written theirs (as for a flush: team_alone, below). A release there
 * closed an interval and sent every page written in it home as diffs: NAS
 * FT at class A, narrowed, sent its 128 MB array to the idle process at
 * each checksum's critical, 537 MB of diffs in a run (2026-12-07). */
static int lock_needed(void)
{
  return dsm__nprocs > 1 && active && team_procs > 1;
}
static void lock_acquire(unsigned id)
{
  if (tpp() > 1) dsm__llock_acquire(id);
  else if (lock_needed()) dsm_lock_acquire(id);
}
static void lock_release(unsigned id)
{
  if (tpp() > 1) dsm__llock_release(id);
  else if (lock_needed()) dsm_lock_release(id);
}
static void cond_wait(unsigned cond, unsigned lock)
{
  if (tpp() > 1) dsm__llock_cond_wait(cond, lock, my_local);
  else dsm_cond_wait(cond, lock);
}
static void cond_signal(unsigned cond, unsigned lock, int all)
{
  if (tpp() > 1) dsm__llock_cond_signal(cond, lock, all);
  else if (all) dsm_cond_broadcast(cond, lock);
  else dsm_cond_signal(cond, lock);
}

/* Other schedules: the next iteration allowed into the ordered block, in
 * shared memory and guarded by one DSM lock and condition variable. A
 * construct is identified by its key so a new loop starts again from
 * iteration 0. */
DSM_SHARED_BSS static struct { uint64_t key; int64_t next; } ord;

void __ompdsm_ordered_start(int64_t i)
{
  dsm__flush_settle();   /* a flush that waited happens before we wait (flush.c) */
  if (!active || num_threads == 1)
    return;
  if (cur.req.sched == OMPDSM_SCHED_STATIC) {
    if (i > 0 && static_owner(i - 1) != thread_num)
      dsm_sema_wait(ordered_sema(thread_num));
    return;
  }
  lock_acquire(ID_ORDERED);
  while (!((ord.key == cur.req.key && ord.next == i) || (ord.key != cur.req.key && i == 0)))
    cond_wait(ID_ORDERED, ID_ORDERED);
  /* Iteration 0 of a new loop claims the record for it: next must be
   * this loop's too, or a thread waiting for iteration k would take the
   * previous loop's count k for its turn. */
  ord.key = cur.req.key;
  ord.next = i;
  lock_release(ID_ORDERED);
}

void __ompdsm_ordered_end(int64_t i)
{
  if (!active || num_threads == 1)
    return;
  if (cur.req.sched == OMPDSM_SCHED_STATIC) {
    if (i + 1 < cur.req.count && static_owner(i + 1) != thread_num)
      dsm_sema_signal(ordered_sema(static_owner(i + 1)));
    return;
  }
  lock_acquire(ID_ORDERED);
  ord.key = cur.req.key;
  ord.next = i + 1;
  cond_signal(ID_ORDERED, ID_ORDERED, 1);
  lock_release(ID_ORDERED);
}

/* ---- critical, atomic, flush ----------------------------------------------------------- */

static unsigned critical_id(const char *name)
{
  return name ? ID_CRITICAL_BASE + (fnv(name) & 0xffffffu) + 1 : ID_CRITICAL_BASE;
}

unsigned dsm__omp_critical_id(const char *name) { return critical_id(name); }

void __ompdsm_critical_start(const char *name) { lock_acquire(critical_id(name)); }
void __ompdsm_critical_end(const char *name) { lock_release(critical_id(name)); }
void __ompdsm_atomic_start(void) { lock_acquire(ID_ATOMIC); }
void __ompdsm_atomic_end(void) { lock_release(ID_ATOMIC); }

/* Flush and the spin loops built from it: sync/flush.c. */
/* A team on the master's process alone (a narrowed region, omp_width.c, or
 * a team no larger than its threads) runs while every other process waits
 * for a fork: a flush need tell no other process anything, and the fork
 * after the region makes the writes theirs. It is a fence among the
 * process's threads, and a spin lets the flag's writer run. Releasing at
 * each flush, NAS LU narrowed took ~95 ms a step where one process takes
 * 15: an interval and pushes to the idle process every millisecond. */
static int team_alone(void) { return active && team_procs == 1; }

void __ompdsm_flush(void)
{
  if (team_alone()) __atomic_thread_fence(__ATOMIC_SEQ_CST);
  else dsm__flush_user();
}

void __ompdsm_spin_flush(void)
{
  if (team_alone()) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    sched_yield();
  } else {
    dsm__flush_spin();
  }
}

void __ompdsm_spin_end(void) { if (!team_alone()) dsm__flush_spin_end(); }
void __ompdsm_spin_watch(const void *addr, size_t size)
{
  if (!team_alone()) dsm__flush_spin_watch(addr, size);
}

/* ---- the seed's semaphores and condition variables ------------------------------------- */

/* name[index] is managed by the process of thread `index` (threads are
 * numbered in blocks of tpp() per process). In the seed's idiom,
 * sema_wait(s[me]) and sema_signal(s[me + 1]), that is the waiter: its wait
 * costs no message, and the signal (one-way) lands on the thread waiting for
 * it. A hash of name and index placed Sweep3D's `down` semaphores at their
 * signallers on 2 processes, so each wait was a call that woke the
 * signaller's service thread while it computed. Ids are unique as far as
 * the hash of (name, index) goes, as before. */
static unsigned sema_id(const char *name, int64_t index)
{
  uint32_t n = dsm__nprocs ? dsm__nprocs : 1, t = tpp() ? tpp() : 1;
  uint64_t ui = (uint64_t)index;
  uint32_t slots = 0x0fffffffu / n - 1;
  uint32_t h = (fnv(name) * 31u + (uint32_t)ui * 2654435761u) % slots;
  uint32_t base = ID_SEMA_BASE + (n - ID_SEMA_BASE % n) % n;     /* a multiple of n */
  return base + h * n + (uint32_t)((ui / t) % n);
}

void __ompdsm_sema_init(const char *name, int64_t index, int value) { dsm_sema_init(sema_id(name, index), value); }
void __ompdsm_sema_wait(const char *name, int64_t index) { dsm_sema_wait(sema_id(name, index)); }
void __ompdsm_sema_signal(const char *name, int64_t index) { dsm_sema_signal(sema_id(name, index)); }
void __ompdsm_cond_wait(const char *name, int64_t index, const char *lock_name)
{
  cond_wait(sema_id(name, index), critical_id(lock_name));
}
void __ompdsm_cond_signal(const char *name, int64_t index, const char *lock_name)
{
  cond_signal(sema_id(name, index), critical_id(lock_name), 0);
}
void __ompdsm_cond_broadcast(const char *name, int64_t index, const char *lock_name)
{
  cond_signal(sema_id(name, index), critical_id(lock_name), 1);
}

void omp_sema_init(const char *name, int index, int value) { __ompdsm_sema_init(name, index, value); }
void omp_sema_wait(const char *name, int index) { __ompdsm_sema_wait(name, index); }
void omp_sema_signal(const char *name, int index) { __ompdsm_sema_signal(name, index); }

/* ---- reductions ------------------------------------------------------------------------ */

/* A reduction among the threads of a process: each leaves its partial in
 * its slot, and the last to arrive at the barrier combines them in thread
 * order (the result does not depend on who arrived first), does the
 * process's part of the team's reduction (one DSM barrier that carries it,
 * combined in rank order there) and, on rank 0, folds the result into the
 * shared variable before anyone leaves. */
struct team_red { void *shared; size_t count; int type, op; };
static uint8_t *red_slots;            /* [local thread]: its partial */
static size_t red_cap;

static void team_red_last(void *p)
{
  struct team_red *r = p;
  size_t bytes = dsm__red_size(r->type) * r->count;
  for (unsigned t = 1; t < nlocal; t++)
    if (dsm__red_combine(r->type, r->op, red_slots, red_slots + t * bytes, r->count) < 0)
      dsm__fatal(DSM__EXIT_FATAL, "reduction operator %d does not apply to type %d", r->op, r->type);
  void *combined = malloc(bytes + 1);
  if (!combined) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  if (team_procs > 1) {
    dsm__red_t red = { r->type, r->op, r->count, red_slots, combined };
    dsm__barrier_red(BARRIER_ID, &red);
  } else {
    memcpy(combined, red_slots, bytes);
  }
  if (dsm__rank == 0 && dsm__red_combine(r->type, r->op, r->shared, combined, r->count) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "reduction operator %d does not apply to type %d", r->op, r->type);
  free(combined);
}

void __ompdsm_reduce(void *shared, const void *partial, size_t count, int type, int op)
{
  size_t esz = dsm__red_size(type);
  if (!esz)
    dsm__fatal(DSM__EXIT_FATAL, "reduction of unknown type %d", type);
  if (tpp() > 1 && active && num_threads > 1) {
    dsm__task_barrier();
    /* Every thread of the process is between the previous barrier and
     * this one: the slots are free until the last one arrives. */
    dsm__team_lock();
    if (red_cap < esz * count * nlocal) {
      free(red_slots);
      red_cap = esz * count * nlocal;
      red_slots = dsm__xcalloc(1, red_cap);
    }
    dsm__team_unlock();
    memcpy(red_slots + my_local * esz * count, partial, esz * count);
    struct team_red r = { shared, count, type, op };
    dsm__team_barrier(nlocal, team_red_last, &r);
    return;
  }
  void *combined = malloc(esz * count + 1);
  if (!combined) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  if (active && num_threads > 1) {
    dsm__red_t red = { type, op, count, partial, combined };
    dsm__task_barrier();
    dsm__barrier_red(BARRIER_ID, &red);
  } else {
    memcpy(combined, partial, esz * count);
  }
  /* The master folds the team's result into the shared variable. OpenMP
   * lets the team read it only after the construct's closing barrier (or
   * the region's join), which every construct with a reduction clause ends
   * with and which makes the write visible: a barrier here would be a
   * second round trip for nothing (with nowait the program must wait for a
   * later barrier anyway). */
  if (thread_num == 0 && dsm__red_combine(type, op, shared, combined, count) < 0)
    dsm__fatal(DSM__EXIT_FATAL, "reduction operator %d does not apply to type %d", op, type);
  free(combined);
}

void __ompdsm_reduce_join(void *shared, const void *partial, size_t count, int type, int op)
{
  if (active && num_threads > 1 && tpp() > 1) {
    /* Combined with the process's other threads at the region's end. */
    struct joinreds *l = &my_joinreds;
    if (l->n == l->cap) {
      l->cap = l->cap ? 2 * l->cap : 8;
      l->v = realloc(l->v, l->cap * sizeof *l->v);
      if (!l->v) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    }
    size_t bytes = dsm__red_size(type) * count;
    if (!bytes)
      dsm__fatal(DSM__EXIT_FATAL, "reduction of unknown type %d", type);
    struct joinred *j = &l->v[l->n++];
    j->shared = shared;
    j->count = count;
    j->type = type;
    j->op = op;
    j->partial = dsm__xcalloc(1, bytes);
    memcpy(j->partial, partial, bytes);
  } else if (active && num_threads > 1) {
    dsm__join_reduce(shared, partial, count, type, op);
  } else {
    __ompdsm_reduce(shared, partial, count, type, op);
  }
}

/* ---- the heap ---------------------------------------------------------------------------- */

/* The _at forms carry the call's "file:line" from ompdsmcc for the sharing
 * profiler; the plain forms remain for code that takes their address. Each
 * names its own caller, the program's call. */
#define CALLER __builtin_return_address(0)
static void *heap_malloc(size_t size, const char *site, const void *caller)
{
  return dsm__started ? dsm__malloc_from(size, site, caller) : malloc(size);
}
static void *heap_calloc(size_t n, size_t size, const char *site, const void *caller)
{
  return dsm__started ? dsm__calloc_from(n, size, site, caller) : calloc(n, size);
}
static void *heap_realloc(void *p, size_t size, const char *site, const void *caller)
{
  if (!dsm__started || (p && !dsm__is_shared(p))) return realloc(p, size);
  return dsm__realloc_from(p, size, site, caller);
}
static char *heap_strdup(const char *s, const char *site, const void *caller)
{
  return dsm__started ? dsm__strdup_from(s, site, caller) : strdup(s);
}
void *__ompdsm_malloc_at(const char *site, size_t size) { return heap_malloc(size, site, CALLER); }
void *__ompdsm_calloc_at(const char *site, size_t n, size_t size)
{
  return heap_calloc(n, size, site, CALLER);
}
void *__ompdsm_realloc_at(const char *site, void *p, size_t size)
{
  return heap_realloc(p, size, site, CALLER);
}
char *__ompdsm_strdup_at(const char *site, const char *s) { return heap_strdup(s, site, CALLER); }
void *__ompdsm_malloc(size_t size) { return heap_malloc(size, NULL, CALLER); }
void *__ompdsm_calloc(size_t n, size_t size) { return heap_calloc(n, size, NULL, CALLER); }
void *__ompdsm_realloc(void *p, size_t size) { return heap_realloc(p, size, NULL, CALLER); }
char *__ompdsm_strdup(const char *s) { return heap_strdup(s, NULL, CALLER); }
void __ompdsm_free(void *p)
{
  if (p && dsm__started && dsm__is_shared(p)) dsm_free(p);
  else free(p);
}

/* ---- omp.h --------------------------------------------------------------------------------- */

void omp_set_num_threads(int n) { if (n > 0) default_threads = n; }
/* A program that has asked how large its team is, or which thread it is,
 * may count on the answer later (`nthreads = omp_get_num_threads()` once,
 * then a loop of nthreads iterations that expects one each): from then on
 * every region has the team it asks for (omp_width.c). NAS asks only at
 * its end, to print the count. */
int omp_get_num_threads(void) { dsm__width_pin(); return num_threads; }
int omp_get_max_threads(void) { dsm__width_pin(); return (int)team_default(); }
int omp_get_thread_num(void) { dsm__width_pin(); return thread_num; }
int omp_get_num_procs(void) { return (int)job_threads(); }
int omp_in_parallel(void) { dsm__width_pin(); return active && num_threads > 1; }
void omp_set_dynamic(int d) { dsm__width_set_dynamic(d); }
int omp_get_dynamic(void) { return dsm__width_dynamic(); }
void omp_set_nested(int n) { (void)n; }
int omp_get_nested(void) { return 0; }
int omp_get_thread_limit(void) { return (int)job_threads(); }
void omp_set_schedule(omp_sched_t kind, int chunk) { run_sched = kind; run_chunk = chunk; }
void omp_get_schedule(omp_sched_t *kind, int *chunk) { *kind = run_sched; *chunk = run_chunk; }
int omp_get_level(void) { return level; }
int omp_get_active_level(void) { return active ? 1 : 0; }

double omp_get_wtime(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

double omp_get_wtick(void)
{
  struct timespec ts;
  clock_getres(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void dsm__omp_init(void)
{
  dsm__tp_handle(DSM__MSG_LOOP, on_loop);
}
