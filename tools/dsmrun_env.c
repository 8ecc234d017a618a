/*
 * dsmrun_env.c — what each rank is told about the job: the environment is
 * dsmrun's whole contract with libdsm's bootstrap (dsm/net/transport.h).
 *
 *   DSM_RANK, DSM_SIZE   its place in the job
 *   DSM_MASTER           ip:port of rank 0, where every rank checks in
 *   DSM_KEY              128 random bits; datagrams carry it (or a MAC
 *                        under it), so that two jobs never mix
 *   DSM_TIMEOUT, DSM_TRANSPORT, DSM_STATS   from the options
 *   DSM_THREADS          application threads per process (--threads)
 *   DSM_LIFELINE         the descriptor of the lifeline (dsmrun_spawn.c)
 *   DSM_REPORT_FD        the same descriptor, when the rank may write its
 *                        records to dsmrun on it (dsmrun_life.c)
 *   DSM_MASTER_FD        rank 0 started here: the descriptor of the UDP
 *                        socket dsmrun bound to the master's port
 *
 * Ranks started here inherit the rest of dsmrun's environment, with stale
 * values of these variables taken out. DSM_STATS and DSM_THREADS are
 * settings a user may export as well: an inherited one is stale only when
 * the option that sets it was given, and passes through otherwise. Ranks
 * started through ssh get a fresh environment from sshd, so the library's
 * and OpenMP's settings (DSM_DEBUG, DSM_STATS=json:..., DSM_THREADS, OMP_*)
 * are carried over explicitly, with what mpirun's -x names (-x VAR, -x
 * VAR=VALUE), which ranks started here get too.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dsmrun.h"

extern char **environ;

/* A variable that dsmrun sets for every rank, so an inherited value is stale.
 * It must be left out, not just outranked: a local rank's environment would
 * hold the name twice (glibc's getenv finds the inherited one, which comes
 * first), and the env(1) that starts an ssh rank applies the forwarded
 * settings after the job's variables. */
static int is_job_var(const char *e, const dsmrun_opts_t *o)
{
  static const char *const ours[] = {
    "DSM_RANK=", "DSM_SIZE=", "DSM_MASTER=", "DSM_KEY=", "DSM_TIMEOUT=",
    "DSM_TRANSPORT=", "DSM_LIFELINE=", "DSM_LOCAL_RANK=", "DSM_LOCAL_SIZE=",
    "DSM_HOST_INDEX=", "DSM_CPU_BIND=", "DSM_MASTER_FD=", "DSM_REPORT_FD=",
  };
  for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++)
    if (strncmp(e, ours[i], strlen(ours[i])) == 0)
      return 1;
  return (o->stats && strncmp(e, "DSM_STATS=", 10) == 0)
      || (o->threads && strncmp(e, "DSM_THREADS=", 12) == 0);
}

dsmrun_strv_t dsmrun_rank_vars(const dsmrun_job_t *j, unsigned rank, const dsmrun_place_t *pl,
                               const char *master, const char *key, int lifeline,
                               int master_fd)
{
  dsmrun_strv_t v = { 0 };
  dsmrun_strv_push(&v, dsmrun_xasprintf("DSM_RANK=%u", rank));
  dsmrun_strv_push(&v, dsmrun_xasprintf("DSM_SIZE=%u", j->n));
  dsmrun_strv_push(&v, dsmrun_xasprintf("DSM_MASTER=%s", master));
  dsmrun_strv_push(&v, dsmrun_xasprintf("DSM_KEY=%s", key));
  dsmrun_strv_push(&v, dsmrun_xasprintf("DSM_TIMEOUT=%ld", j->o.timeout));
  dsmrun_strv_push(&v, dsmrun_xasprintf("DSM_TRANSPORT=%s", j->o.transport));
  dsmrun_strv_push(&v, dsmrun_xasprintf("DSM_LOCAL_RANK=%u", pl->local_rank));
  dsmrun_strv_push(&v, dsmrun_xasprintf("DSM_LOCAL_SIZE=%u", pl->local_size));
  dsmrun_strv_push(&v, dsmrun_xasprintf("DSM_HOST_INDEX=%u", pl->host));
  if (j->o.bind_to)
    dsmrun_strv_push(&v, dsmrun_xasprintf("DSM_CPU_BIND=%s", j->o.bind_to));
  if (j->o.threads)
    dsmrun_strv_push(&v, dsmrun_xasprintf("DSM_THREADS=%u", j->o.threads));
  if (j->o.stats)
    dsmrun_strv_push(&v, dsmrun_xstrdup("DSM_STATS=1"));
  if (j->o.profile)
    dsmrun_strv_push(&v, dsmrun_xasprintf("DSM_PROFILE=%s", j->o.profile));
  if (lifeline >= 0)
    dsmrun_strv_push(&v, dsmrun_xasprintf("DSM_LIFELINE=%d", lifeline));
  if (lifeline >= 0 && j->r[rank].reports)
    dsmrun_strv_push(&v, dsmrun_xasprintf("DSM_REPORT_FD=%d", lifeline));
  if (master_fd >= 0)
    dsmrun_strv_push(&v, dsmrun_xasprintf("DSM_MASTER_FD=%d", master_fd));
  return v;
}

/* Is e ("NAME=...") a variable that -x sets? */
static int is_exported(const char *e, const dsmrun_opts_t *o)
{
  size_t n = strcspn(e, "=");
  for (unsigned i = 0; i < o->nexports; i++)
    if (strncmp(o->exports[i], e, n) == 0 && o->exports[i][n] == '=')
      return 1;
  return 0;
}

/* dsmrun's environment minus stale job variables, then what -x says;
 * with settings_only, just the DSM_* and OMP_* among them and the -x ones. */
static dsmrun_strv_t inherited(const dsmrun_opts_t *o, int settings_only)
{
  dsmrun_strv_t env = { 0 };
  for (char **e = environ; *e; e++) {
    if (is_job_var(*e, o) || is_exported(*e, o))
      continue;
    if (!settings_only || strncmp(*e, "DSM_", 4) == 0 || strncmp(*e, "OMP_", 4) == 0)
      dsmrun_strv_push(&env, *e);
  }
  dsmrun_strv_extend(&env, o->exports);
  return env;
}

dsmrun_strv_t dsmrun_env_local(const dsmrun_opts_t *o) { return inherited(o, 0); }
dsmrun_strv_t dsmrun_env_forwarded(const dsmrun_opts_t *o) { return inherited(o, 1); }

/* A random port for the master in 20000..60999. When rank 0 runs here, the
 * port is bound here and stays bound: *sock gets the UDP socket, which rank
 * 0 inherits (DSM_MASTER_FD), so no other process can take the port between
 * this choice and rank 0's start (a CI run once lost it so). The TCP port of
 * the same number is checked free too, for whatever bootstraps over it. */
unsigned dsmrun_pick_port(int check_local, int *sock)
{
  *sock = -1;
  for (int attempt = 0; attempt < 100; attempt++) {
    uint32_t rnd;
    if (getrandom(&rnd, sizeof rnd, 0) != sizeof rnd)
      dsmrun_die("getrandom: %s", strerror(errno));
    unsigned port = 20000 + rnd % 41000;
    if (!check_local)
      return port;
    struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
    sa.sin_addr.s_addr = htonl(INADDR_ANY);
    int u = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    int t = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (u < 0 || t < 0)
      dsmrun_die("socket: %s", strerror(errno));
    int ok = bind(u, (struct sockaddr *)&sa, sizeof sa) == 0 &&
             bind(t, (struct sockaddr *)&sa, sizeof sa) == 0;
    close(t);
    if (!ok) {
      close(u);
      continue;
    }
    /* Above the descriptors a child sets up (0-2, the lifeline, the
     * socket's own place in rank 0), so those dup2s cannot clobber it. */
    *sock = fcntl(u, F_DUPFD_CLOEXEC, 10);
    if (*sock < 0)
      dsmrun_die("fcntl: %s", strerror(errno));
    close(u);
    return port;
  }
  dsmrun_die("found no free port in 20000..60999 for the master");
}

char *dsmrun_make_key(void)
{
  unsigned char raw[16];
  if (getrandom(raw, sizeof raw, 0) != sizeof raw)
    dsmrun_die("getrandom: %s", strerror(errno));
  char *key = dsmrun_xmalloc(33);
  for (int i = 0; i < 16; i++)
    snprintf(key + 2 * i, 3, "%02x", raw[i]);
  return key;
}
