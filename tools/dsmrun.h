/*
 * dsmrun.h — names shared between dsmrun's files (the launcher is not part of
 * libdsm, so these are plain static-free helpers with a dsmrun_ prefix).
 */
#ifndef DSMRUN_H
#define DSMRUN_H

#include <stdarg.h>
#include <stddef.h>

/* A job may not have more ranks than this: each rank costs dsmrun three
 * file descriptors and the library's vector timestamps grow with N. */
#define DSMRUN_MAX_PROCS 1024

/* Exit status for bad usage (options, hostfile, missing program). */
#define DSMRUN_EXIT_USAGE 2

/* One entry of --host or of a hostfile. */
typedef struct dsmrun_host {
  char *name;        /* as the user wrote it; {host} in --launcher */
  char *addr;        /* addr= from the hostfile, or NULL: resolve name */
  unsigned slots;    /* ranks per fill pass; default 1 */
  int local;         /* fork/exec here instead of going through ssh */
} dsmrun_host_t;

typedef struct dsmrun_hostlist {
  dsmrun_host_t *v;
  unsigned n;
} dsmrun_hostlist_t;

/* Print "dsmrun: error: ..." and exit with DSMRUN_EXIT_USAGE. */
void dsmrun_usage_error(const char *fmt, ...)
  __attribute__((noreturn, format(printf, 1, 2)));
/* Print "dsmrun: error: ..." and exit 1 (a failure that is not the user's). */
void dsmrun_die(const char *fmt, ...)
  __attribute__((noreturn, format(printf, 1, 2)));
void *dsmrun_xmalloc(size_t n);
char *dsmrun_xstrdup(const char *s);
char *dsmrun_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* dsmrun_hosts.c */
/* "a,b:2,c" (--host). Duplicate names add up their slots. */
void dsmrun_hosts_parse_list(dsmrun_hostlist_t *hl, const char *list);
/* Lines "host [slots=K] [max_slots=M] [addr=IP]", '#' comments. */
void dsmrun_hosts_parse_file(dsmrun_hostlist_t *hl, const char *path);
/* Does this name denote the machine dsmrun runs on? */
int  dsmrun_host_is_local(const char *name);
/* placement[r] = index of the host of rank r, for r < n. */
void dsmrun_hosts_place(const dsmrun_hostlist_t *hl, unsigned n, unsigned *placement);
/* The IPv4 address (dotted) other hosts use to reach h; exits with a usage
 * error if the name does not resolve. Sets *loopback when it is 127/8. */
char *dsmrun_host_ipv4(const dsmrun_host_t *h, int *loopback);

#endif
