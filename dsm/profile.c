/*
 * profile.c — the sharing profiler's counters and its output (profile.h).
 *
 * Counters live in a table with one entry per shared page, reserved like
 * the page table (untouched entries cost no memory). They are bumped from
 * the application thread (faults) and the service thread (diffs applied at
 * the home, pushes), so the counts are atomic; the record of who wrote which
 * bytes of a page in the current epoch is only touched under dsm__mu.
 *
 * False sharing is judged at the home, which sees every writer's bytes: its
 * own (page against twin at its release) and everyone else's (the diffs it
 * applies, each tagged with the epoch its writer made it in). When a page's
 * record moves to a new epoch, the old one is judged: two writers whose
 * byte sets overlap nowhere are false sharing, any overlap is true sharing
 * (data that really moves between them). Up to four writers per page and
 * epoch are kept; more are counted as sharing of the first four only.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
#endif

#include "diff.h"
#include "dsm_internal.h"
#include "profile.h"
#include "net/transport.h"
#include "region.h"

int dsm__prof_on;

#define COVER_WRITERS 4
#define COVER_WORDS (DSM__PAGE / 64)

struct cover {
  uint32_t epoch;
  unsigned n;
  unsigned who[COVER_WRITERS];
  uint64_t bits[COVER_WRITERS][COVER_WORDS];   /* bit b: byte b written */
};

struct prof_page {
  uint32_t read_faults, write_faults, diffs_made, fetches_in, pushes_in, diffs_in;
  uint32_t false_epochs, true_epochs;
  uint64_t bytes_in;
  /* Bit r: rank r faulted on it (ranks above 63 share bit 63). A copy that
   * arrived ahead of use (prefetched, pushed) and was never touched makes
   * no reader: it shows as bytes moved for nobody. */
  uint64_t readers, writers;
  struct cover *cov;
};

struct span {
  const char *name;
  uint64_t t0, t1, what;
};

struct alloc_rec {
  uintptr_t addr;
  size_t size;
  const char *site;
  uintptr_t caller;
};

static char *path;
static uint64_t t_start;           /* when the job started: the run time is from here */
static uint64_t t_end;             /* when its shutdown began; 0: at the writing */
static struct prof_page *pages;
static struct span *spans;
static size_t nspans, spans_cap, spans_dropped;
static struct alloc_rec *allocs;
static size_t nallocs, allocs_cap;

struct name_rec {
  int kind;
  uint64_t key;
  size_t size;
  char *text;
};
static struct name_rec *names;
static size_t nnames, names_cap;

/* The message timeline: every message sent or taken in (transport.h's
 * hook), with the time and the thread. Slots are claimed with an atomic
 * counter: the hook runs under the transport's lock, on any thread. */
struct msg_rec {
  uint64_t t, rid;
  uint32_t len, peer, origin;
  uint8_t dir, kind, type, svc;
  uint8_t ready;           /* written: set last (release), read first (acquire) */
};
static struct msg_rec *msgs;
static size_t msgs_cap, nmsgs_claimed;
static pthread_mutex_t rec_mu = PTHREAD_MUTEX_INITIALIZER;   /* spans and allocs */

static uint64_t rank_bit(unsigned r) { return 1ull << (r < 63 ? r : 63); }

static void prof_msg(int dir, int kind, unsigned type, unsigned peer, unsigned origin,
                     uint64_t rid, size_t len, int on_svc)
{
  size_t i = __atomic_fetch_add(&nmsgs_claimed, 1, __ATOMIC_RELAXED);
  if (i >= msgs_cap)
    return;
  struct msg_rec *m = &msgs[i];
  m->t = dsm__now_ns();
  m->rid = rid;
  m->len = len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
  m->peer = peer;
  m->origin = origin;
  m->dir = (uint8_t)dir;
  m->kind = (uint8_t)kind;
  m->type = (uint8_t)type;
  m->svc = (uint8_t)on_svc;
  __atomic_store_n(&m->ready, 1, __ATOMIC_RELEASE);
}

void dsm__prof_init(void)
{
  const char *p = getenv("DSM_PROFILE");
  if (!p || !*p || dsm__nprocs < 2)
    return;
  path = strdup(p);
  pages = mmap(NULL, (size_t)dsm__npages * sizeof *pages, PROT_READ | PROT_WRITE,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (!path || pages == MAP_FAILED)
    dsm__fatal(DSM__EXIT_FATAL, "DSM_PROFILE: cannot reserve the profile's page table");
#if defined(__SANITIZE_ADDRESS__)
  __lsan_register_root_region(pages, (size_t)dsm__npages * sizeof *pages);
#endif
  msgs_cap = (size_t)dsm__env_long("DSM_PROFILE_MSGS", 262144, 0, 1 << 26);
  msgs = msgs_cap ? calloc(msgs_cap, sizeof *msgs) : NULL;
  if (msgs_cap && !msgs)
    dsm__fatal(DSM__EXIT_FATAL, "DSM_PROFILE: out of memory for %zu messages", msgs_cap);
  if (msgs_cap)
    __atomic_store_n(&dsm__tp_msg_hook, prof_msg, __ATOMIC_RELAXED);
  spans_cap = (size_t)dsm__env_long("DSM_PROFILE_SPANS", 262144, 0, 1 << 26);
  spans = spans_cap ? malloc(spans_cap * sizeof *spans) : NULL;
  if (spans_cap && !spans)
    dsm__fatal(DSM__EXIT_FATAL, "DSM_PROFILE: out of memory for %zu spans", spans_cap);
  t_start = dsm__now_ns();
  dsm__prof_on = 1;
}

void dsm__prof_fault_impl(uint32_t pg, int write)
{
  struct prof_page *pp = &pages[pg];
  __atomic_fetch_add(write ? &pp->write_faults : &pp->read_faults, 1, __ATOMIC_RELAXED);
  __atomic_fetch_or(write ? &pp->writers : &pp->readers, rank_bit(dsm__rank), __ATOMIC_RELAXED);
}

void dsm__prof_in_impl(uint32_t pg, size_t bytes, int how)
{
  struct prof_page *pp = &pages[pg];
  __atomic_fetch_add(&pp->bytes_in, bytes, __ATOMIC_RELAXED);
  __atomic_fetch_add(how == DSM__PROF_FETCHED ? &pp->fetches_in :
                     how == DSM__PROF_PUSHED ? &pp->pushes_in : &pp->diffs_in, 1, __ATOMIC_RELAXED);
}

void dsm__prof_diff_made_impl(uint32_t pg)
{
  __atomic_fetch_add(&pages[pg].diffs_made, 1, __ATOMIC_RELAXED);
}

/* ---- false sharing, at the home (under dsm__mu) ------------------------------------ */

static void cover_judge(struct prof_page *pp)
{
  struct cover *c = pp->cov;
  if (!c || c->n < 2)
    return;
  for (unsigned i = 0; i < c->n; i++)
    for (unsigned j = i + 1; j < c->n; j++)
      for (unsigned w = 0; w < COVER_WORDS; w++)
        if (c->bits[i][w] & c->bits[j][w]) {
          pp->true_epochs++;
          return;
        }
  pp->false_epochs++;
}

static uint64_t *cover_of(struct prof_page *pp, unsigned writer, uint32_t epoch)
{
  struct cover *c = pp->cov;
  if (!c) {
    /* Freed when the profile is written; until then only this table points
     * at it (an anonymous mapping LeakSanitizer is told about below). */
    c = pp->cov = calloc(1, sizeof *c);
    if (!c)
      return NULL;      /* the profile loses this page's sharing verdict, nothing else */
    c->epoch = epoch;
  }
  if (epoch < c->epoch)
    return NULL;        /* a late diff of an epoch already judged */
  if (epoch > c->epoch) {
    cover_judge(pp);
    c->epoch = epoch;
    c->n = 0;
  }
  for (unsigned i = 0; i < c->n; i++)
    if (c->who[i] == writer)
      return c->bits[i];
  if (c->n == COVER_WRITERS)
    return NULL;
  memset(c->bits[c->n], 0, sizeof c->bits[c->n]);
  c->who[c->n] = writer;
  return c->bits[c->n++];
}

/* The bytes a diff writes (diff.h's encoding, already validated). */
static void mark_runs(uint64_t *bits, const uint8_t *d, size_t len)
{
  size_t at = 0;
  while (at + DSM__DIFF_RUN_HDR <= len) {
    unsigned off = d[at] | (unsigned)d[at + 1] << 8;
    unsigned n = (d[at + 2] | (unsigned)d[at + 3] << 8) + 1u;
    at += DSM__DIFF_RUN_HDR + n;
    for (unsigned b = off; b < off + n && b < DSM__PAGE; b++)
      bits[b / 64] |= 1ull << (b % 64);
  }
}

void dsm__prof_wrote_impl(uint32_t pg, unsigned writer, uint32_t epoch, const void *diff,
                          size_t len)
{
  struct prof_page *pp = &pages[pg];
  __atomic_fetch_or(&pp->writers, rank_bit(writer), __ATOMIC_RELAXED);
  uint64_t *bits = cover_of(pp, writer, epoch);
  if (bits)
    mark_runs(bits, diff, len);
}

void dsm__prof_home_wrote_impl(uint32_t pg, uint32_t epoch, const void *twin, const void *page)
{
  struct prof_page *pp = &pages[pg];
  __atomic_fetch_or(&pp->writers, rank_bit(dsm__rank), __ATOMIC_RELAXED);
  uint64_t *bits = cover_of(pp, dsm__rank, epoch);
  if (!bits)
    return;
  /* A word at a time: a byte loop with a branch per byte took most of the
   * time of a profiled sort_task's releases (82% of one rank's samples
   * while it released a stolen task's pages), and slowed the job it
   * measured by a quarter. Each differing word's bytes are folded to one
   * bit each (bit k of the byte mask: byte k of the word, as the word was
   * loaded little-endian). */
  _Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "byte k is bits 8k..8k+7");
  const uint8_t *a = twin, *b = page;
  for (unsigned i = 0; i < DSM__PAGE; i += 8) {
    uint64_t x, y;
    memcpy(&x, a + i, 8);
    memcpy(&y, b + i, 8);
    x ^= y;
    if (!x)
      continue;
    x |= x >> 4;
    x |= x >> 2;
    x |= x >> 1;
    x &= 0x0101010101010101ull;
    bits[i / 64] |= ((x * 0x0102040810204080ull) >> 56) << (i % 64);
  }
}

/* ---- timeline and allocations ------------------------------------------------------- */

void dsm__prof_span_impl(const char *name, uint64_t t0, uint64_t t1, uint64_t what)
{
  pthread_mutex_lock(&rec_mu);
  if (nspans < spans_cap)
    spans[nspans++] = (struct span){ name, t0, t1, what };
  else
    spans_dropped++;
  pthread_mutex_unlock(&rec_mu);
}

void dsm__prof_alloc_impl(const void *addr, size_t size, const char *site, const void *caller)
{
  pthread_mutex_lock(&rec_mu);
  if (nallocs == allocs_cap) {
    size_t cap = allocs_cap ? 2 * allocs_cap : 256;
    struct alloc_rec *n = realloc(allocs, cap * sizeof *n);
    if (!n) {
      pthread_mutex_unlock(&rec_mu);
      return;
    }
    allocs = n;
    allocs_cap = cap;
  }
  allocs[nallocs++] = (struct alloc_rec){ (uintptr_t)addr, size, site, (uintptr_t)caller };
  pthread_mutex_unlock(&rec_mu);
}

void dsm__prof_job_started(void)
{
  if (dsm__prof_on)
    t_start = dsm__now_ns();
}

void dsm__prof_job_ending(void)
{
  if (dsm__prof_on && !t_end)
    t_end = dsm__now_ns();
}

void dsm__prof_name_impl(int kind, uint64_t key, size_t size, const char *text)
{
  pthread_mutex_lock(&rec_mu);
  for (size_t i = 0; i < nnames; i++)
    if (names[i].kind == kind && names[i].key == key) {
      /* One lock, several sites (every unnamed critical section is the
       * same lock): "critical at a.c:10" and "critical at a.c:30" make
       * "critical at a.c:10, a.c:30". */
      const char *at = strrchr(text, ' ');
      if (kind == DSM__PROF_NAME_LOCK && at && !strstr(names[i].text, at + 1) &&
          strlen(names[i].text) < 400) {
        char *t = NULL;
        if (asprintf(&t, "%s, %s", names[i].text, at + 1) >= 0) {
          free(names[i].text);
          names[i].text = t;
        }
      }
      pthread_mutex_unlock(&rec_mu);
      return;
    }
  if (nnames == names_cap) {
    size_t cap = names_cap ? 2 * names_cap : 64;
    struct name_rec *n = realloc(names, cap * sizeof *n);
    if (!n) {
      pthread_mutex_unlock(&rec_mu);
      return;
    }
    names = n;
    names_cap = cap;
  }
  char *t = strdup(text);
  if (t)
    names[nnames++] = (struct name_rec){ kind, key, size, t };
  pthread_mutex_unlock(&rec_mu);
}

/* ---- output ------------------------------------------------------------------------- */

static void put_string(FILE *f, const char *s)
{
  fputc('"', f);
  for (; *s; s++) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

void dsm__prof_write(void)
{
  if (!dsm__prof_on)
    return;
  dsm__prof_on = 0;
  char *file = NULL;
  if (asprintf(&file, "%s.%u", path, dsm__rank) < 0)
    return;
  FILE *f = fopen(file, "w");
  if (!f) {
    fprintf(stderr, "dsm[%u]: warning: DSM_PROFILE: cannot write %s: %s\n", dsm__rank, file,
            strerror(errno));
    free(file);
    return;
  }
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = 0;
  fprintf(f, "{\"format\": \"ompdsm-profile-1\", \"rank\": %u, \"nprocs\": %u, \"page_size\": %u,"
          " \"exe\": ", dsm__rank, dsm__nprocs, DSM__PAGE);
  put_string(f, exe);
  /* The host: message times from different hosts' clocks do not compare. */
  char host[256] = "";
  gethostname(host, sizeof host - 1);
  fputs(", \"host\": ", f);
  put_string(f, host);
  /* The run time, on the spans' clock: dsmprof's share of it in the DSM. */
  fprintf(f, ", \"start_us\": %.3f, \"end_us\": %.3f", t_start / 1e3,
          (t_end ? t_end : dsm__now_ns()) / 1e3);
  fprintf(f, ",\n \"names\": [");
  for (size_t i = 0; i < nnames; i++) {
    fprintf(f, "%s\n  {\"kind\": \"%s\", \"key\": %llu, \"size\": %zu, \"name\": ", i ? "," : "",
            names[i].kind == DSM__PROF_NAME_LOCK ? "lock" : "var",
            (unsigned long long)names[i].key, names[i].size);
    put_string(f, names[i].text);
    fputc('}', f);
  }
  fputc(']', f);
  fprintf(f, ",\n \"segments\": [");
  for (unsigned i = 0; i < dsm__nsegs; i++)
    fprintf(f, "%s{\"name\": \"%s\", \"base\": %lu, \"size\": %zu, \"first_page\": %u}",
            i ? ", " : "", dsm__segs[i].name, (unsigned long)dsm__segs[i].base,
            dsm__segs[i].size, dsm__segs[i].first_page);
  fprintf(f, "],\n \"allocs\": [");
  for (size_t i = 0; i < nallocs; i++) {
    fprintf(f, "%s\n  {\"addr\": %lu, \"size\": %zu, \"caller\": %lu, \"site\": ", i ? "," : "",
            (unsigned long)allocs[i].addr, allocs[i].size, (unsigned long)allocs[i].caller);
    if (allocs[i].site)
      put_string(f, allocs[i].site);
    else
      fputs("null", f);
    fputc('}', f);
  }
  fprintf(f, "],\n \"pages\": [");
  int first = 1;
  pthread_mutex_lock(&dsm__mu);
  for (uint32_t pg = 0; pg < dsm__npages; pg++) {
    struct prof_page *pp = &pages[pg];
    cover_judge(pp);      /* the last epoch of every page */
    free(pp->cov);
    pp->cov = NULL;
    if (!pp->read_faults && !pp->write_faults && !pp->bytes_in && !pp->diffs_made &&
        !pp->writers && !pp->false_epochs && !pp->true_epochs)
      continue;
    fprintf(f, "%s\n  {\"page\": %u, \"addr\": %lu, \"read_faults\": %u, \"write_faults\": %u,"
            " \"diffs_made\": %u, \"fetches_in\": %u, \"pushes_in\": %u, \"diffs_in\": %u,"
            " \"bytes_in\": %llu,"
            " \"readers\": %llu, \"writers\": %llu, \"false_sharing_epochs\": %u,"
            " \"true_sharing_epochs\": %u}",
            first ? "" : ",", pg, (unsigned long)dsm__page_addr(pg), pp->read_faults,
            pp->write_faults, pp->diffs_made, pp->fetches_in, pp->pushes_in, pp->diffs_in,
            (unsigned long long)pp->bytes_in, (unsigned long long)pp->readers,
            (unsigned long long)pp->writers, pp->false_epochs, pp->true_epochs);
    first = 0;
  }
  pthread_mutex_unlock(&dsm__mu);
  /* Messages: [t_us, dir, kind, type, peer, origin, rid, bytes, on the
   * service thread]. The hook stops recording before the file is written:
   * what comes after is shutdown. */
  __atomic_store_n(&dsm__tp_msg_hook, NULL, __ATOMIC_RELAXED);
  size_t claimed = __atomic_load_n(&nmsgs_claimed, __ATOMIC_RELAXED);
  size_t nm = claimed < msgs_cap ? claimed : msgs_cap;
  fprintf(f, "],\n \"msgs_dropped\": %zu, \"msgs\": [", claimed - nm);
  int firstm = 1;
  for (size_t i = 0; i < nm; i++) {
    const struct msg_rec *m = &msgs[i];
    if (!__atomic_load_n(&m->ready, __ATOMIC_ACQUIRE))
      continue;                   /* still being written: a message of the shutdown */
    fprintf(f, "%s\n  [%.3f, %u, %u, \"%s\", %u, %u, %llu, %u, %u]", firstm ? "" : ",",
            m->t / 1e3, m->dir, m->kind, dsm__msg_name(m->type), m->peer, m->origin,
            (unsigned long long)m->rid, m->len, m->svc);
    firstm = 0;
  }
  fprintf(f, "],\n \"spans_dropped\": %zu, \"spans\": [", spans_dropped);
  for (size_t i = 0; i < nspans; i++)
    fprintf(f, "%s\n  [\"%s\", %.3f, %.3f, %llu]", i ? "," : "", spans[i].name,
            spans[i].t0 / 1e3, (spans[i].t1 - spans[i].t0) / 1e3,
            (unsigned long long)spans[i].what);
  fprintf(f, "]}\n");
  if (fclose(f) != 0)
    fprintf(stderr, "dsm[%u]: warning: DSM_PROFILE: writing %s: %s\n", dsm__rank, file,
            strerror(errno));
  free(file);
}
