/*
 * dsmrun_hosts.c — where the ranks of a job run: the --host list, the
 * hostfile, the rank-to-host placement, and the address rank 0 is reached at.
 *
 * The hostfile syntax is Open MPI's ("host slots=K", '#' comments) plus
 * addr=IP, because a test host inside a network namespace has a name that no
 * resolver knows. Duplicate host names merge (their slots add up), as in
 * mpirun, so that "a,a" means two slots on a.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dsmrun.h"

static dsmrun_host_t *find_or_add(dsmrun_hostlist_t *hl, const char *name)
{
  for (unsigned i = 0; i < hl->n; i++)
    if (strcmp(hl->v[i].name, name) == 0)
      return &hl->v[i];
  /* O(n^2) over hosts: host lists are short, and this keeps the order. */
  dsmrun_host_t *nv = realloc(hl->v, (hl->n + 1) * sizeof *nv);
  if (!nv)
    dsmrun_die("out of memory");
  hl->v = nv;
  dsmrun_host_t *h = &hl->v[hl->n++];
  h->name = dsmrun_xstrdup(name);
  h->addr = NULL;
  h->slots = 0;
  h->local = 0;
  return h;
}

/* A slot count: 1..DSMRUN_MAX_PROCS. Returns 0 when malformed. */
static unsigned parse_slots(const char *s)
{
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < 1 || v > DSMRUN_MAX_PROCS)
    return 0;
  return (unsigned)v;
}

static int valid_host_name(const char *s)
{
  if (!*s)
    return 0;
  for (; *s; s++)
    if (*s <= ' ' || *s == '\'' || *s == '"' || *s == '\\' || *s == ',')
      return 0;
  return 1;
}

void dsmrun_hosts_parse_list(dsmrun_hostlist_t *hl, const char *list)
{
  char *copy = dsmrun_xstrdup(list);
  char *save = NULL;
  int any = 0;
  for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    unsigned slots = 1;
    /* host:slots. An IPv6 literal would have several colons; we take the
     * last one only when what follows is all digits. */
    char *colon = strrchr(tok, ':');
    if (colon && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
      *colon = '\0';
      slots = parse_slots(colon + 1);
      if (!slots)
        dsmrun_usage_error("--host: bad slot count '%s' for host '%s' (expected 1..%d)",
                           colon + 1, tok, DSMRUN_MAX_PROCS);
    } else if (colon && colon[1] == '\0') {
      dsmrun_usage_error("--host: missing slot count after '%s:'", tok);
    }
    if (!valid_host_name(tok))
      dsmrun_usage_error("--host: bad host name '%s'", tok);
    find_or_add(hl, tok)->slots += slots;
    any = 1;
  }
  free(copy);
  if (!any)
    dsmrun_usage_error("--host: empty host list");
}

void dsmrun_hosts_parse_file(dsmrun_hostlist_t *hl, const char *path)
{
  FILE *f = fopen(path, "r");
  if (!f)
    dsmrun_usage_error("cannot read hostfile '%s': %s", path, strerror(errno));
  char *line = NULL;
  size_t cap = 0;
  unsigned lineno = 0;
  while (getline(&line, &cap, f) >= 0) {
    lineno++;
    char *hash = strchr(line, '#');
    if (hash)
      *hash = '\0';
    char *save = NULL;
    char *name = strtok_r(line, " \t\r\n", &save);
    if (!name)
      continue;
    if (strchr(name, '='))
      dsmrun_usage_error("%s:%u: expected a host name first, found '%s'", path, lineno, name);
    if (!valid_host_name(name))
      dsmrun_usage_error("%s:%u: bad host name '%s'", path, lineno, name);
    unsigned slots = 1;
    const char *addr = NULL;
    for (char *kv = strtok_r(NULL, " \t\r\n", &save); kv; kv = strtok_r(NULL, " \t\r\n", &save)) {
      if (strncmp(kv, "slots=", 6) == 0) {
        slots = parse_slots(kv + 6);
        if (!slots)
          dsmrun_usage_error("%s:%u: bad slot count '%s' (expected 1..%d)", path, lineno,
                             kv + 6, DSMRUN_MAX_PROCS);
      } else if (strncmp(kv, "max_slots=", 10) == 0) {
        /* Open MPI's cap on oversubscription; accepted so that existing
         * hostfiles work, but dsmrun always allows oversubscription. */
        if (!parse_slots(kv + 10))
          dsmrun_usage_error("%s:%u: bad max_slots '%s'", path, lineno, kv + 10);
      } else if (strncmp(kv, "addr=", 5) == 0) {
        struct in_addr ia;
        if (inet_pton(AF_INET, kv + 5, &ia) != 1)
          dsmrun_usage_error("%s:%u: addr= needs an IPv4 address, found '%s'", path, lineno,
                             kv + 5);
        addr = kv + 5;
      } else {
        dsmrun_usage_error("%s:%u: unknown field '%s' (expected slots=K, addr=IP)", path,
                           lineno, kv);
      }
    }
    dsmrun_host_t *h = find_or_add(hl, name);
    h->slots += slots;
    if (addr) {
      if (h->addr && strcmp(h->addr, addr) != 0)
        dsmrun_usage_error("%s:%u: host '%s' given two addresses (%s and %s)", path, lineno,
                           name, h->addr, addr);
      free(h->addr);
      h->addr = dsmrun_xstrdup(addr);
    }
  }
  if (ferror(f))
    dsmrun_usage_error("cannot read hostfile '%s': %s", path, strerror(errno));
  free(line);
  fclose(f);
  if (hl->n == 0)
    dsmrun_usage_error("hostfile '%s' names no host", path);
}

int dsmrun_host_is_local(const char *name)
{
  if (strcmp(name, "localhost") == 0 || strncmp(name, "127.", 4) == 0 ||
      strcmp(name, "::1") == 0)
    return 1;
  char me[HOST_NAME_MAX + 1];
  if (gethostname(me, sizeof me) != 0)
    return 0;
  me[HOST_NAME_MAX] = '\0';
  if (strcmp(name, me) == 0)
    return 1;
  /* "node1" against "node1.example.org", in either direction. */
  size_t a = strcspn(name, "."), b = strcspn(me, ".");
  return a == b && strncmp(name, me, a) == 0 && (name[a] == '\0' || me[b] == '\0');
}

void dsmrun_hosts_place(const dsmrun_hostlist_t *hl, unsigned n, unsigned *placement)
{
  unsigned r = 0;
  /* First pass: fill each host's slots in order (ranks on one host are
   * contiguous, which keeps rank 0's neighbours on rank 0's host). */
  for (unsigned h = 0; h < hl->n && r < n; h++)
    for (unsigned s = 0; s < hl->v[h].slots && r < n; s++)
      placement[r++] = h;
  /* Oversubscribed: one more rank per host, round-robin, so the surplus
   * spreads evenly instead of piling onto the first host. */
  for (unsigned h = 0; r < n; h = (h + 1) % hl->n)
    placement[r++] = h;
}

char *dsmrun_host_ipv4(const dsmrun_host_t *h, int *loopback)
{
  const char *name = h->addr ? h->addr : h->name;
  struct addrinfo hints, *res = NULL;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_DGRAM;
  int rc = getaddrinfo(name, NULL, &hints, &res);
  if (rc != 0 || !res)
    dsmrun_usage_error("cannot resolve host '%s' to an IPv4 address: %s "
                       "(give addr=IP in a hostfile)", name, gai_strerror(rc));
  struct sockaddr_in *sin = (struct sockaddr_in *)res->ai_addr;
  char buf[INET_ADDRSTRLEN];
  inet_ntop(AF_INET, &sin->sin_addr, buf, sizeof buf);
  *loopback = (ntohl(sin->sin_addr.s_addr) >> 24) == 127;
  freeaddrinfo(res);
  return dsmrun_xstrdup(buf);
}
