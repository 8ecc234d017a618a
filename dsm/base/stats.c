/*
 * stats.c — the counters of stats.h, their names, and the end-of-job table.
 *
 * At dsm_exit every rank sends its counter block to the master in one STATS
 * request; the master prints one row per rank and a total (DSM_STATS=1), or
 * writes the same numbers as JSON (DSM_STATS=json:FILE).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "dsm_internal.h"
#include "net/transport.h"

struct dsm__stats dsm__stats;

static const char *const scalar_names[] = {
#define N(name, desc) #name,
  DSM__STAT_SCALARS(N)
#undef N
};
#define NSCALARS (sizeof scalar_names / sizeof scalar_names[0])

/* Counters are bumped by the service thread while the application thread
 * reads them (dsm_stat); every read is an atomic load, like every update. */
static uint64_t ld(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_RELAXED); }

/* A copy of this process's counters while the service thread may still
 * be counting (the block is nothing but uint64_t counters). */
static void snapshot(struct dsm__stats *out)
{
  const uint64_t *src = (const uint64_t *)&dsm__stats;
  uint64_t *dst = (uint64_t *)out;
  for (size_t i = 0; i < sizeof *out / sizeof(uint64_t); i++)
    dst[i] = ld(&src[i]);
}

static uint64_t scalar(const struct dsm__stats *s, unsigned i)
{
  return ld(&((const uint64_t *)s)[i]);
}

static uint64_t total_msgs(const struct dsm__stats *s, int sent)
{
  uint64_t t = 0;
  for (unsigned i = 0; i < DSM__MSG_COUNT; i++)
    t += ld(sent ? &s->stat_msgs_sent[i] : &s->stat_msgs_recv[i]);
  return t;
}

/* Requests of the consistency protocol and synchronization that this
 * process originated: what its own operations cause. Not the transport's
 * traffic on timers (msg_types.h), and not replies to what others ask
 * (a peer fetching a page of ours while we allocate is not our doing). */
static uint64_t protocol_reqs(const struct dsm__stats *s)
{
  uint64_t t = 0;
  for (unsigned i = DSM__MSG_FIRST_PROTOCOL; i < DSM__MSG_COUNT; i++)
    t += ld(&s->stat_reqs_sent[i]);
  return t;
}

static uint64_t total_bytes(const struct dsm__stats *s, int sent)
{
  uint64_t t = 0;
  for (unsigned i = 0; i < DSM__MSG_COUNT; i++)
    t += ld(sent ? &s->stat_bytes_sent[i] : &s->stat_bytes_recv[i]);
  return t;
}

int64_t dsm_stat(const char *name)
{
  for (unsigned i = 0; i < NSCALARS; i++)
    if (!strcmp(name, scalar_names[i]))
      return (int64_t)scalar(&dsm__stats, i);
  if (!strcmp(name, "msgs_sent"))  return (int64_t)total_msgs(&dsm__stats, 1);
  if (!strcmp(name, "msgs_recv"))  return (int64_t)total_msgs(&dsm__stats, 0);
  if (!strcmp(name, "protocol_requests_sent")) return (int64_t)protocol_reqs(&dsm__stats);
  if (!strcmp(name, "bytes_sent")) return (int64_t)total_bytes(&dsm__stats, 1);
  if (!strcmp(name, "bytes_recv")) return (int64_t)total_bytes(&dsm__stats, 0);
  for (unsigned t = 1; t < DSM__MSG_COUNT; t++) {
    char buf[64];
    snprintf(buf, sizeof buf, "msgs_sent.%s", dsm__msg_name(t));
    if (!strcmp(name, buf)) return (int64_t)ld(&dsm__stats.stat_msgs_sent[t]);
    snprintf(buf, sizeof buf, "bytes_sent.%s", dsm__msg_name(t));
    if (!strcmp(name, buf)) return (int64_t)ld(&dsm__stats.stat_bytes_sent[t]);
  }
  return -1;
}

__thread uint64_t dsm__my_blocked_ns;

void dsm__blocked_since(uint64_t t0)
{
  uint64_t d = dsm__now_ns() - t0;
  DSM__STAT_ADD(blocked_ns, d);
  dsm__my_blocked_ns += d;
}

void dsm__stats_consistency(int64_t delta)
{
  uint64_t now = __atomic_add_fetch(&dsm__stats.stat_consistency_bytes, (uint64_t)delta,
                                    __ATOMIC_RELAXED);
  uint64_t peak = __atomic_load_n(&dsm__stats.stat_consistency_peak, __ATOMIC_RELAXED);
  while (now > peak && !__atomic_compare_exchange_n(&dsm__stats.stat_consistency_peak, &peak,
                                                    now, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    ;
}

/* ---- the table ------------------------------------------------------------ */

/* Columns of the per-rank table, chosen to match the seed's Table 2. */
static void print_table(FILE *f, const struct dsm__stats *all, unsigned n)
{
  /* Each column is a counter; a heading of its own after a '=' where the
   * counter's name is too long for a column. */
  static const char *const cols[] = {
    "read_faults", "write_faults", "twins", "diffs_created", "diffs_applied",
    "pages_fetched", "barriers", "lock_acquires", "retransmits",
    "spurious_retransmits=spurious",
  };
  enum { NCOLS = sizeof cols / sizeof cols[0] };
  const char *head[NCOLS];
  unsigned idx[NCOLS];
  for (unsigned c = 0; c < NCOLS; c++) {
    const char *eq = strchr(cols[c], '=');
    size_t len = eq ? (size_t)(eq - cols[c]) : strlen(cols[c]);
    head[c] = eq ? eq + 1 : cols[c];
    idx[c] = 0;
    while (strncmp(scalar_names[idx[c]], cols[c], len) || scalar_names[idx[c]][len]) {
      idx[c]++;
      DSM__ASSERT(idx[c] < NSCALARS);
    }
  }
  fprintf(f, "\n%-6s %10s %12s", "rank", "msgs", "bytes");
  for (unsigned c = 0; c < NCOLS; c++)
    fprintf(f, " %*s", (int)(strlen(head[c]) > 8 ? strlen(head[c]) : 8), head[c]);
  fprintf(f, " %10s\n", "blocked_ms");
  struct dsm__stats tot;
  memset(&tot, 0, sizeof tot);
  for (unsigned r = 0; r <= n; r++) {
    const struct dsm__stats *s = r < n ? &all[r] : &tot;
    if (r < n) {
      uint64_t *d = (uint64_t *)&tot;
      const uint64_t *src = (const uint64_t *)s;
      for (size_t i = 0; i < sizeof tot / sizeof(uint64_t); i++)
        d[i] += src[i];
      fprintf(f, "%-6u", r);
    } else {
      fprintf(f, "%-6s", "total");
    }
    fprintf(f, " %10llu %12llu", (unsigned long long)total_msgs(s, 1),
            (unsigned long long)total_bytes(s, 1));
    for (unsigned c = 0; c < NCOLS; c++)
      fprintf(f, " %*llu", (int)(strlen(head[c]) > 8 ? strlen(head[c]) : 8),
              (unsigned long long)scalar(s, idx[c]));
    fprintf(f, " %10.1f\n", s->stat_blocked_ns / 1e6);
  }
  fprintf(f, "\nmessages by type (all ranks):\n%-12s %10s %14s\n", "type", "msgs", "bytes");
  for (unsigned t = 1; t < DSM__MSG_COUNT; t++)
    if (tot.stat_msgs_sent[t])
      fprintf(f, "%-12s %10llu %14llu\n", dsm__msg_name(t),
              (unsigned long long)tot.stat_msgs_sent[t], (unsigned long long)tot.stat_bytes_sent[t]);
}

static void write_json(FILE *f, const struct dsm__stats *all, unsigned n)
{
  fprintf(f, "{\"nprocs\": %u, \"ranks\": [\n", n);
  for (unsigned r = 0; r < n; r++) {
    fprintf(f, "  {\"rank\": %u", r);
    for (unsigned i = 0; i < NSCALARS; i++)
      fprintf(f, ", \"%s\": %llu", scalar_names[i], (unsigned long long)scalar(&all[r], i));
    fprintf(f, ", \"msgs_sent\": %llu, \"bytes_sent\": %llu, \"by_type\": {",
            (unsigned long long)total_msgs(&all[r], 1), (unsigned long long)total_bytes(&all[r], 1));
    int first = 1;
    for (unsigned t = 1; t < DSM__MSG_COUNT; t++) {
      if (!all[r].stat_msgs_sent[t] && !all[r].stat_msgs_recv[t]) continue;
      fprintf(f, "%s\"%s\": {\"msgs_sent\": %llu, \"bytes_sent\": %llu, \"msgs_recv\": %llu, "
              "\"bytes_recv\": %llu}", first ? "" : ", ", dsm__msg_name(t),
              (unsigned long long)all[r].stat_msgs_sent[t], (unsigned long long)all[r].stat_bytes_sent[t],
              (unsigned long long)all[r].stat_msgs_recv[t], (unsigned long long)all[r].stat_bytes_recv[t]);
      first = 0;
    }
    fprintf(f, "}}%s\n", r + 1 < n ? "," : "");
  }
  fprintf(f, "]}\n");
}

void dsm_stats_print(void)
{
  print_table(stderr, &dsm__stats, 1);
}

/* ---- gathering at exit ---------------------------------------------------- */

static pthread_mutex_t gather_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t gather_cv = PTHREAD_COND_INITIALIZER;
static struct dsm__stats *gathered;
static unsigned gathered_count;

static void on_stats(const dsm__msg_t *m)
{
  pthread_mutex_lock(&gather_mu);
  if (gathered && m->len == sizeof(struct dsm__stats) && m->origin < dsm__nprocs) {
    memcpy(&gathered[m->origin], m->data, sizeof(struct dsm__stats));
    gathered_count++;
    pthread_cond_broadcast(&gather_cv);
  }
  pthread_mutex_unlock(&gather_mu);
  dsm__tp_reply(dsm__reqh(m), NULL, 0);
}

/* Registered before bootstrap by the runtime; the master allocates the
 * gathering table then too, so a STATS request can never arrive before it. */
void dsm__stats_init(void);
void dsm__stats_init(void)
{
  dsm__tp_handle(DSM__MSG_STATS, on_stats);
  if (dsm__rank == 0 && getenv("DSM_STATS") && *getenv("DSM_STATS") && strcmp(getenv("DSM_STATS"), "0"))
    gathered = calloc(dsm__nprocs, sizeof *gathered);
}

void dsm__stats_report(void)
{
  const char *mode = getenv("DSM_STATS");
  if (!mode || !*mode || !strcmp(mode, "0"))
    return;
  if (dsm__rank != 0) {
    struct dsm__stats snap;
    snapshot(&snap);
    dsm__tp_call(0, DSM__MSG_STATS, &snap, sizeof snap, NULL, NULL);
    return;
  }
  pthread_mutex_lock(&gather_mu);
  snapshot(&gathered[0]);
  while (gathered_count < dsm__nprocs - 1)
    pthread_cond_wait(&gather_cv, &gather_mu);
  pthread_mutex_unlock(&gather_mu);
  if (!strncmp(mode, "json:", 5)) {
    FILE *f = fopen(mode + 5, "w");
    if (!f)
      dsm__fatal(DSM__EXIT_FATAL, "DSM_STATS: cannot write %s", mode + 5);
    write_json(f, gathered, dsm__nprocs);
    fclose(f);
  } else {
    fflush(stdout);
    print_table(stderr, gathered, dsm__nprocs);
  }
}
