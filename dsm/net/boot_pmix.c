/*
 * boot_pmix.c — a job started by mpirun or srun: rank, size, the master's
 * address and the key, through the launcher's PMIx server (boot_pmix.h).
 *
 * libdsm is a static library, linked into programs that must run on hosts
 * without libpmix; so PMIx's headers are used at build time only, and the
 * eight functions called here are looked up with dlopen() when a PMIx
 * launcher is found (DSM_PMIX_LIB names another file). __typeof__ of the
 * header's declarations keeps the table's types exactly PMIx's own.
 *
 * Only rank 0 publishes: its service port, a fresh key, its host name and
 * its IPv4 addresses. A fence that collects the data makes them visible to
 * everyone, and the HELLO rendezvous then runs exactly as under dsmrun.
 */
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <pmix.h>

#include "boot_pmix.h"
#include "dsm_internal.h"
#include "region.h"

static struct {
  __typeof__(PMIx_Init) *init;
  __typeof__(PMIx_Finalize) *finalize;
  __typeof__(PMIx_Abort) *abort;
  __typeof__(PMIx_Put) *put;
  __typeof__(PMIx_Commit) *commit;
  __typeof__(PMIx_Fence) *fence;
  __typeof__(PMIx_Get) *get;
  __typeof__(PMIx_Error_string) *error_string;
} P;

static pmix_proc_t me;     /* our namespace and rank */
static int active;

/* What rank 0 publishes, under names of our own. */
#define KEY_PORT "ompdsm.port"
#define KEY_KEY  "ompdsm.key"
#define KEY_HOST "ompdsm.host"
#define KEY_IPV4 "ompdsm.ipv4"

static void load(void)
{
  const char *lib;
  void *h = dsm__lib_open("DSM_PMIX_LIB", "libpmix.so.2", RTLD_NOW | RTLD_GLOBAL, &lib);
  if (!h)
    dsm__fatal(DSM__EXIT_FATAL, "started by a PMIx launcher (PMIX_NAMESPACE is set) but cannot "
               "load %s (%s); install libpmix2, start the job with dsmrun, or set DSM_PMIX=0 to "
               "run every process as a job of one", lib, dlerror());
#define SYM(field, name) (*(void **)&P.field = dsm__lib_sym(h, lib, name, "libpmix"))
  SYM(init, "PMIx_Init");
  SYM(finalize, "PMIx_Finalize");
  SYM(abort, "PMIx_Abort");
  SYM(put, "PMIx_Put");
  SYM(commit, "PMIx_Commit");
  SYM(fence, "PMIx_Fence");
  SYM(get, "PMIx_Get");
  SYM(error_string, "PMIx_Error_string");
#undef SYM
}

static void check(pmix_status_t rc, const char *what)
{
  if (rc != PMIX_SUCCESS)
    dsm__fatal(DSM__EXIT_FATAL, "PMIx: %s: %s", what, P.error_string(rc));
}

/* Values come back malloc()ed by libpmix; only scalars and strings are
 * asked for, so freeing the string and the value is all it takes. */
static void value_free(pmix_value_t *v)
{
  if (v->type == PMIX_STRING)
    free(v->data.string);
  free(v);
}

/* An unsigned job attribute (PMIX_JOB_SIZE, ...) of our namespace; 0 when
 * the server does not know it. */
static uint64_t job_attr(const char *key)
{
  pmix_proc_t job = me;
  job.rank = PMIX_RANK_WILDCARD;
  pmix_value_t *v = NULL;
  if (P.get(&job, key, NULL, 0, &v) != PMIX_SUCCESS || !v)
    return 0;
  uint64_t x = 0;
  switch (v->type) {
  case PMIX_UINT32: x = v->data.uint32; break;
  case PMIX_UINT16: x = v->data.uint16; break;
  case PMIX_UINT64: x = v->data.uint64; break;
  case PMIX_SIZE:   x = v->data.size; break;
  case PMIX_INT:    x = v->data.integer > 0 ? (uint64_t)v->data.integer : 0; break;
  default: break;
  }
  value_free(v);
  return x;
}

int dsm__pmix_start(unsigned *rank, unsigned *size)
{
  if (!dsm__pmix_launched())
    return 0;
  /* Until PMIx says, the launcher's variable names this rank in messages. */
  long r = strtol(getenv("PMIX_RANK"), NULL, 10);
  if (r > 0 && r < DSM__MAX_PROCS)
    dsm__rank = (unsigned)r;
  load();
  check(P.init(&me, NULL, 0), "PMIx_Init");
  active = 1;
  uint64_t n = job_attr(PMIX_JOB_SIZE);
  if (n < 1 || n > DSM__MAX_PROCS)
    dsm__fatal(DSM__EXIT_FATAL, "PMIx: the job size is %llu; libdsm runs 1 to %u processes",
               (unsigned long long)n, DSM__MAX_PROCS);
  if (me.rank >= n)
    dsm__fatal(DSM__EXIT_FATAL, "PMIx: rank %u in a job of %llu", me.rank, (unsigned long long)n);
  *rank = me.rank;
  *size = (unsigned)n;
  DSM__DEBUG("PMIx: rank %u of %u in namespace %s", *rank, *size, me.nspace);
  return 1;
}

int dsm__pmix_active(void)
{
  return active;
}

/* ---- the master's address and the key ---------------------------------------- */

static void put(const char *key, const char *s)
{
  pmix_value_t v = { .type = PMIX_STRING };
  v.data.string = (char *)s;
  check(P.put(PMIX_GLOBAL, key, &v), "PMIx_Put");
}

/* A string rank 0 published; fatal if it did not (another program?). */
static char *get0(const char *key)
{
  pmix_proc_t p0 = me;
  p0.rank = 0;
  pmix_value_t *v = NULL;
  pmix_status_t rc = P.get(&p0, key, NULL, 0, &v);
  if (rc != PMIX_SUCCESS || !v || v->type != PMIX_STRING)
    dsm__fatal(DSM__EXIT_FATAL, "PMIx: rank 0 published no %s (%s): is rank 0 a libdsm program "
               "of the same version?", key, rc != PMIX_SUCCESS ? P.error_string(rc) : "wrong type");
  char *s = strdup(v->data.string);
  value_free(v);
  DSM__ASSERT(s);
  return s;
}

static void hex(char out[33], const uint8_t key[16])
{
  for (int i = 0; i < 16; i++)
    snprintf(out + 2 * i, 3, "%02x", key[i]);
}

static int unhex(const char *s, uint8_t key[16])
{
  if (strlen(s) != 32)
    return -1;
  for (int i = 0; i < 16; i++) {
    unsigned v;
    if (sscanf(s + 2 * i, "%2x", &v) != 1)
      return -1;
    key[i] = (uint8_t)v;
  }
  return 0;
}

static void draw_key(uint8_t key[16])
{
  size_t got = 0;
  while (got < 16) {
    ssize_t n = getrandom(key + got, 16 - got, 0);
    if (n < 0 && errno != EINTR)
      dsm__fatal(DSM__EXIT_FATAL, "getrandom: %s", strerror(errno));
    if (n > 0)
      got += (size_t)n;
  }
}

static int loopback(struct in_addr a)
{
  return (ntohl(a.s_addr) >> 24) == 127;
}

/* Rank 0's IPv4 addresses other than loopback, comma-separated: where the
 * others look when its host name does not resolve to one. */
static void own_addresses(char *out, size_t cap)
{
  out[0] = 0;
  struct ifaddrs *ifs;
  if (getifaddrs(&ifs) < 0)
    return;
  size_t len = 0;
  for (struct ifaddrs *i = ifs; i; i = i->ifa_next) {
    if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP))
      continue;
    struct in_addr a = ((struct sockaddr_in *)i->ifa_addr)->sin_addr;
    char ip[INET_ADDRSTRLEN];
    if (loopback(a) || !inet_ntop(AF_INET, &a, ip, sizeof ip) || len + strlen(ip) + 2 > cap)
      continue;
    len += (size_t)snprintf(out + len, cap - len, "%s%s", len ? "," : "", ip);
  }
  freeifaddrs(ifs);
}

/* Is the whole job on one host? Then everyone reaches rank 0 on loopback.
 * It must be the whole job, not just this rank's host: rank 0 gives the
 * others the address each HELLO came from, and a loopback source would be
 * useless to a rank on another host. Every rank gets the same answer. */
static int one_host(unsigned size)
{
  uint64_t local = job_attr(PMIX_LOCAL_SIZE);
  if (local)
    return local == size;
  return job_attr(PMIX_NUM_NODES) == 1;
}

/* Where a rank > 0 says HELLO: DSM_PMIX_ADDR; loopback when the job is on
 * one host; else rank 0's host name if it resolves to an address other
 * than loopback (Debian maps its own name to 127.0.1.1); else the first
 * address it published. */
static struct in_addr master_ip(unsigned size)
{
  struct in_addr a = { htonl(INADDR_LOOPBACK) };
  const char *force = getenv("DSM_PMIX_ADDR");
  if (force && *force) {
    if (inet_pton(AF_INET, force, &a) != 1)
      dsm__fatal(DSM__EXIT_FATAL, "DSM_PMIX_ADDR='%s' is not an IPv4 address", force);
    return a;
  }
  if (one_host(size))
    return a;
  char *host = get0(KEY_HOST), *ips = get0(KEY_IPV4);
  int found = 0;
  struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_DGRAM }, *res;
  if (getaddrinfo(host, NULL, &hints, &res) == 0) {
    for (struct addrinfo *r = res; r && !found; r = r->ai_next) {
      struct in_addr c = ((struct sockaddr_in *)r->ai_addr)->sin_addr;
      if (!loopback(c))
        a = c, found = 1;
    }
    freeaddrinfo(res);
  }
  if (!found) {
    char *comma = strchr(ips, ',');
    if (comma)
      *comma = 0;
    found = *ips && inet_pton(AF_INET, ips, &a) == 1;
  }
  if (!found)
    dsm__fatal(DSM__EXIT_FATAL, "PMIx: no address of rank 0's host '%s' that other hosts can "
               "reach; set DSM_PMIX_ADDR to one", host);
  DSM__DEBUG("PMIx: rank 0 on %s at %s", host, inet_ntoa(a));
  free(host);
  free(ips);
  return a;
}

void dsm__pmix_meet(uint16_t port, struct sockaddr_in *master, uint8_t key[16])
{
  DSM__ASSERT(active);
  unsigned size = (unsigned)job_attr(PMIX_JOB_SIZE);
  if (me.rank == 0) {
    char s[1024];
    draw_key(key);
    hex(s, key);
    put(KEY_KEY, s);
    snprintf(s, sizeof s, "%u", ntohs(port));
    put(KEY_PORT, s);
    if (gethostname(s, sizeof s) < 0)
      snprintf(s, sizeof s, "localhost");
    s[sizeof s - 1] = 0;
    put(KEY_HOST, s);
    own_addresses(s, sizeof s);
    put(KEY_IPV4, s);
    check(P.commit(), "PMIx_Commit");
  }
  /* Everyone waits here until rank 0 has published; the fence brings its
   * values to every host, so the gets below are local. It waits no longer
   * than the liveness timeout: a rank that never comes is a dead job even
   * if the launcher does not end it (Open MPI 4.1.4's mpirun, told to
   * abort while a fence is open, sometimes crashes or hangs instead). */
  pmix_proc_t all = me;
  all.rank = PMIX_RANK_WILDCARD;
  pmix_info_t info[2];
  memset(info, 0, sizeof info);
  snprintf(info[0].key, sizeof info[0].key, "%s", PMIX_COLLECT_DATA);
  info[0].value.type = PMIX_BOOL;
  info[0].value.data.flag = true;
  int timeout = (int)dsm__env_long("DSM_TIMEOUT", 30, 1, 86400);
  snprintf(info[1].key, sizeof info[1].key, "%s", PMIX_TIMEOUT);
  info[1].value.type = PMIX_INT;
  info[1].value.data.integer = timeout;
  pmix_status_t rc = P.fence(&all, 1, info, 2);
  if (rc == PMIX_ERR_TIMEOUT)
    dsm__fatal(DSM__EXIT_PEER_LOST, "PMIx: not every rank reached the start-up fence in %d s "
               "(DSM_TIMEOUT)", timeout);
  check(rc, "PMIx_Fence");

  memset(master, 0, sizeof *master);
  master->sin_family = AF_INET;
  if (me.rank == 0) {
    master->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    master->sin_port = port;
    return;
  }
  char *k = get0(KEY_KEY), *p = get0(KEY_PORT);
  char *end;
  long pn = strtol(p, &end, 10);
  if (unhex(k, key) < 0 || *end || pn <= 0 || pn > 65535)
    dsm__fatal(DSM__EXIT_FATAL, "PMIx: rank 0 published a malformed key or port ('%s')", p);
  free(k);
  free(p);
  master->sin_port = htons((uint16_t)pn);
  master->sin_addr = master_ip(size);
}

/* ---- the end ------------------------------------------------------------------- */

void dsm__pmix_finish(void)
{
  if (!active)
    return;
  active = 0;
  check(P.finalize(NULL, 0), "PMIx_Finalize");
}

/* PMIx_Abort waits for the launcher, which normally kills this process; if
 * the launcher never answers, the process still ends, with its status. */
static volatile sig_atomic_t abort_status;

static void abort_timeout(int sig)
{
  (void)sig;
  _exit(abort_status);
}

void dsm__pmix_abort(int status, const char *msg)
{
  if (!active)
    return;
  active = 0;
  abort_status = status;
  signal(SIGALRM, abort_timeout);
  alarm(10);
  /* A rank that stops because another failed gives the failed one's own
   * abort a second to reach the launcher, which then ends this rank and
   * reports the failed one's status, as dsmrun would. It still aborts
   * afterwards: the other may be silent rather than dead (DSM_TIMEOUT). */
  if (status == DSM__EXIT_PEER_LOST) {
    struct timespec ts = { 1, 0 };
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {}
  }
  char line[600];
  snprintf(line, sizeof line, "dsm[%u]: %s", dsm__rank, msg);
  P.abort(status, line, NULL, 0);
}
