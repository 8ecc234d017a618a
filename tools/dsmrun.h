/*
 * dsmrun.h — what dsmrun's files share. The launcher is not part of libdsm:
 * cross-file names carry a dsmrun_ prefix, and everything else is static in
 * its file. One banner per file, in the order a job goes through them:
 *
 *   dsmrun.c          main: the steps of a job, and its exit status
 *   dsmrun_msg.c      messages, giving up, allocation that cannot fail
 *   dsmrun_opts.c     the command line: options and usage
 *   dsmrun_hosts.c    where ranks run: --host, hostfiles, placement, addresses
 *   dsmrun_env.c      what each rank is told: DSM_* variables, port, key
 *   dsmrun_cmdline.c  word vectors, launcher templates, shell quoting
 *   dsmrun_spawn.c    starting the ranks: here, through a launcher, over ssh
 *   dsmrun_io.c       forwarding the ranks' output, whole lines at a time
 *   dsmrun_life.c     the lifeline: why dsmrun stops a job, what a rank reports
 *   dsmrun_job.c      the running job: signals, reaping, stopping, deadlines
 *   dsmrun_sanitizer.c  ASan defaults (no leak check for a short-lived tool)
 */
#ifndef DSMRUN_H
#define DSMRUN_H

#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A job may not have more ranks than this: each rank costs dsmrun three
 * file descriptors and the library's vector timestamps grow with N. */
#define DSMRUN_MAX_PROCS 1024

/* Most application threads per process (--threads); libdsm's limit on
 * DSM_THREADS (DSM__MAX_THREADS in dsm/base/dsm_internal.h). */
#define DSMRUN_MAX_THREADS 256

/* Exit status for bad usage (options, hostfile, missing program). */
#define DSMRUN_EXIT_USAGE 2

/* Status of a rank that stopped because another rank failed
 * (DSM__EXIT_PEER_LOST in dsm/base/dsm_internal.h). */
#define DSMRUN_EXIT_PEER_LOST 75

/* ---- dsmrun_msg.c ---------------------------------------------------------- */

/* Print "dsmrun: error: ..." and exit with DSMRUN_EXIT_USAGE. */
void dsmrun_usage_error(const char *fmt, ...)
  __attribute__((noreturn, format(printf, 1, 2)));
/* Print "dsmrun: error: ..." and exit 1 (a failure that is not the user's). */
void dsmrun_die(const char *fmt, ...)
  __attribute__((noreturn, format(printf, 1, 2)));
/* Print "dsmrun: ..." (reports, warnings; the job goes on). */
void dsmrun_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "SIGTERM"; the buffer is static. */
const char *dsmrun_signame(int sig);
void *dsmrun_xmalloc(size_t n);
void *dsmrun_xrealloc(void *p, size_t n);
char *dsmrun_xstrdup(const char *s);
char *dsmrun_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- dsmrun_opts.c --------------------------------------------------------- */

typedef struct dsmrun_opts {
  unsigned np;
  const char *host_list;
  const char *hostfile;
  const char *launcher;
  const char *transport;
  int stats;
  long timeout;       /* DSM_TIMEOUT, seconds */
  double max_time;    /* wall-clock limit, seconds; 0 = none */
  int tag_output;
  int verbose;
  const char *bind_to; /* --bind-to: "core" or "none"; NULL = libdsm's default (core) */
  unsigned threads;   /* --threads: DSM_THREADS for every rank; 0 = not given */
  char *profile;      /* --profile FILE, made absolute: DSM_PROFILE for every rank */
  char **exports;     /* -x: "VAR=VALUE" for every rank, NULL-terminated (or NULL) */
  unsigned nexports;
  char **prog;        /* prog and its arguments, NULL-terminated */
} dsmrun_opts_t;

/* Fills o from argv; exits 0 after --help or --version, and with a usage
 * error on anything it cannot accept. */
void dsmrun_parse_options(int argc, char **argv, dsmrun_opts_t *o);

/* ---- dsmrun_hosts.c -------------------------------------------------------- */

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

/* ---- dsmrun_cmdline.c ------------------------------------------------------ */

/* A NULL-terminated vector of strings that grows: an argv or an envp. */
typedef struct dsmrun_strv {
  char **v;          /* NULL until the first push */
  size_t n, cap;
} dsmrun_strv_t;

void dsmrun_strv_push(dsmrun_strv_t *s, char *str);
/* Push every string of the NULL-terminated src (which may itself be NULL). */
void dsmrun_strv_extend(dsmrun_strv_t *s, char *const *src);
/* Split a --launcher template into words: blanks separate, '...' and "..."
 * group, backslash escapes outside single quotes. No expansion happens.
 * Exits with a usage error on an unterminated quote or an empty command. */
dsmrun_strv_t dsmrun_split_words(const char *s);
/* Check a --launcher template's quoting now, before anything is started. */
void dsmrun_launcher_check(const char *launcher);
/* w with every {host} replaced by host; newly allocated. */
char *dsmrun_subst_host(const char *w, const char *host);
/* Every word quoted for a POSIX shell and followed by a blank (for -v). */
char *dsmrun_shell_line(char *const *words);
/* The one string ssh hands to the remote shell: start in cwd when it exists
 * there (cwd may be ""), then exec env with the words, each quoted. */
char *dsmrun_remote_command(const char *cwd, char *const *words);

/* ---- dsmrun_io.c ----------------------------------------------------------- */

/* One output pipe of a rank and the part of a line read from it so far. */
typedef struct dsmrun_linebuf {
  int fd;               /* read end of the rank's stdout or stderr; -1 at EOF */
  int dest;             /* 1 or 2 */
  char *buf;
  size_t len;
} dsmrun_linebuf_t;

/* Take over the read end fd (made non-blocking) for forwarding to dest. */
void dsmrun_linebuf_init(dsmrun_linebuf_t *lb, int fd, int dest);
/* Read what is there and forward the complete lines, each prefixed with
 * "[tag] " when tag >= 0. Returns 0 at EOF (the fd is closed then). With
 * drain, keep reading until the pipe is empty. */
int  dsmrun_pump(dsmrun_linebuf_t *lb, int tag, int drain);
/* Write all of buf, waiting (not spinning) if fd is non-blocking; errors
 * drop the output. Async-signal-safe. */
void dsmrun_write_all(int fd, const char *buf, size_t len);

/* ---- dsmrun_life.c --------------------------------------------------------- */

struct dsmrun_rank;   /* dsmrun_job.c's table */

/* Make r's lifeline: a socket pair when two_way (the rank reports on it),
 * else a pipe. Sets r->life_w; *rank_end is the end for the rank. */
void dsmrun_life_open(struct dsmrun_rank *r, int two_way, int *rank_end);
/* Take in the records the rank wrote (never blocks). */
int  dsmrun_life_read(struct dsmrun_rank *r);
/* Write why (one line; NULL: nothing) to a rank still running, and close. */
void dsmrun_life_close(struct dsmrun_rank *r, const char *why);

/* ---- dsmrun_job.c ---------------------------------------------------------- */

typedef struct dsmrun_rank {
  unsigned id;
  const char *host;     /* for messages */
  pid_t pid;
  int own_pgrp;         /* pid is also a process group we may kill */
  int alive;
  int wstatus;
  int signalled;        /* dsmrun sent it a signal before it exited */
  unsigned exit_seq;    /* order of exits, 1-based */
  int life_w;           /* dsmrun's end of its lifeline; -1 once closed */
  int reports;          /* life_w is a socket the rank writes records to */
  int reports_done;     /* its end is closed: no more records */
  int joined;           /* it reported 'S': a libdsm process */
  char record;          /* its last record of how it leaves: 'E', 'X', 'P' or 0 */
  dsmrun_linebuf_t out, err;
} dsmrun_rank_t;

typedef struct dsmrun_job {
  dsmrun_opts_t o;
  dsmrun_rank_t *r;
  unsigned n;
  unsigned nalive;
  unsigned exit_seq;
  int sigfd;
  /* teardown */
  int stopping;         /* SIGTERM (or a forwarded signal) has gone out */
  int64_t term_at;      /* when ranks told through their lifeline get SIGTERM; 0 = not */
  int64_t kill_at;      /* when to escalate to SIGKILL; 0 = not scheduled */
  int64_t stop_at;      /* delayed stop (blame grace); 0 = not scheduled */
  int64_t max_at;       /* --max-time deadline; 0 = none */
  int stop_signal;      /* a signal dsmrun got and forwarded; 0 = none */
  int max_time_hit;
  dsmrun_rank_t *ended_by; /* a rank that ended the job early with status 0 */
  int master_sock;      /* the master's UDP socket, for a rank 0 started here; -1 */
} dsmrun_job_t;

/* Route the signals dsmrun handles to j->sigfd (the old mask goes to
 * *orig_mask, for the children), make the table of j->n ranks, and start
 * the --max-time clock. */
void dsmrun_job_prepare(dsmrun_job_t *j, sigset_t *orig_mask);
/* Forward output, reap and stop until every rank is gone. */
void dsmrun_job_run(dsmrun_job_t *j);
/* Stop every rank still running: tell each why (its lifeline, then closed),
 * send sig, and schedule SIGKILL. Ranks that can stop by themselves on the
 * lifeline (libdsm's, which reported 'S') get a SIGTERM only if they have
 * not a moment later. */
void dsmrun_job_stop(dsmrun_job_t *j, int sig, const char *why);
/* Is this wait status anything but exit 0? */
int  dsmrun_failed(int wstatus);

/* ---- dsmrun_env.c ---------------------------------------------------------- */

/* The DSM_* assignments of one rank; DSM_LIFELINE only when lifeline >= 0,
 * DSM_MASTER_FD only when master_fd >= 0. */
/* Where a rank runs: which host, and its place among that host's ranks
 * (libdsm binds it to a CPU from these, dsm/bind.c). */
typedef struct dsmrun_place {
  unsigned host, local_rank, local_size;
} dsmrun_place_t;
dsmrun_strv_t dsmrun_rank_vars(const dsmrun_job_t *j, unsigned rank, const dsmrun_place_t *pl,
                               const char *master, const char *key, int lifeline,
                               int master_fd);
/* dsmrun's environment without stale job variables (and without the
 * settings that options given in o replace): for ranks started here and for
 * launchers that exec their arguments. */
dsmrun_strv_t dsmrun_env_local(const dsmrun_opts_t *o);
/* Its DSM_* and OMP_* settings, for ranks that sshd gives a fresh one. */
dsmrun_strv_t dsmrun_env_forwarded(const dsmrun_opts_t *o);
/* A random port for the master in 20000..60999. With check_local, it is
 * bound here and *sock is the UDP socket for rank 0 (else -1). */
unsigned dsmrun_pick_port(int check_local, int *sock);
/* The job's DSM_KEY: 128 random bits as 32 lowercase hex digits. */
char *dsmrun_make_key(void);

/* ---- dsmrun_spawn.c -------------------------------------------------------- */

/* Is prog runnable here, the way execvp would find it? */
int  dsmrun_find_program(const char *prog);
/* Start the j->n ranks: rank i on host hl->v[placement[i]], or here when
 * hl is NULL. On a failed fork, stops the ranks already started. */
void dsmrun_start_ranks(dsmrun_job_t *j, dsmrun_hostlist_t *hl, unsigned *placement,
                        const char *master, const char *key, const sigset_t *orig_mask);

#endif
