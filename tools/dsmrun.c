/*
 * dsmrun.c — the job launcher: `dsmrun -n N prog args` starts N processes of
 * prog, hands each its place in the job through the environment, forwards
 * their output, and makes sure the job lives and dies as one.
 *
 * main() below is the whole job in order: options, hosts and placement, the
 * master's address and the job's key, starting the ranks, running until
 * they are all gone, and the exit status. How each step is done lives in
 * the file named in dsmrun.h.
 *
 * The exit policy is here. dsmrun's status is the failing rank's (128 plus
 * the signal when it was killed), 124 when --max-time expired, 128 plus the
 * signal when dsmrun itself was stopped, 2 for bad usage (dsmrun_msg.c),
 * and 0 only when every rank exited 0. The rank named is the one that
 * failed by itself: a rank that exits with 75 stopped because *another*
 * rank failed, so it is blamed only when nobody else is to blame.
 *
 * The lifeline is a pipe whose write end only dsmrun holds and never writes.
 * When dsmrun dies, however it dies, the kernel closes that end and every rank
 * sees POLLHUP on its read end, so a job cannot outlive its launcher. Ranks
 * started through ssh get the pipe as their stdin (ssh forwards the EOF).
 *
 * Not done here: relaying stdin through a pipe. Rank 0 inherits dsmrun's
 * stdin directly; when that is a terminal, rank 0 stays in dsmrun's process
 * group so that it may read from it (a background group would get SIGTTIN).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dsmrun.h"

extern char **environ;

/* The fd number at which local ranks find the lifeline (DSM_LIFELINE). A
 * fixed number keeps the environment the same shape on every rank. */
#define LIFELINE_FD 3

/* Called after the helpers below are defined. */
static void check_launcher(const char *launcher);

/* ---- command lines --------------------------------------------------------- */

typedef struct strv {
  char **v;
  size_t n, cap;
} strv_t;

static void strv_push(strv_t *s, char *str)
{
  if (s->n + 2 > s->cap) {
    s->cap = s->cap ? s->cap * 2 : 16;
    char **nv = realloc(s->v, s->cap * sizeof *nv);
    if (!nv)
      dsmrun_die("out of memory");
    s->v = nv;
  }
  s->v[s->n++] = str;
  s->v[s->n] = NULL;
}

/* Split a --launcher template into words: blanks separate, '...' and "..."
 * group, backslash escapes outside single quotes. No expansion happens. */
static strv_t split_words(const char *s)
{
  strv_t out = { 0 };
  size_t len = strlen(s);
  char *word = dsmrun_xmalloc(len + 1);
  size_t wn = 0;
  int in_word = 0;
  char quote = 0;
  for (const char *p = s; *p; p++) {
    char ch = *p;
    if (quote) {
      if (ch == quote)
        quote = 0;
      else if (ch == '\\' && quote == '"' && p[1])
        word[wn++] = *++p;
      else
        word[wn++] = ch;
    } else if (ch == '\'' || ch == '"') {
      quote = ch;
      in_word = 1;
    } else if (ch == '\\' && p[1]) {
      word[wn++] = *++p;
      in_word = 1;
    } else if (ch == ' ' || ch == '\t' || ch == '\n') {
      if (in_word) {
        word[wn] = '\0';
        strv_push(&out, dsmrun_xstrdup(word));
        wn = 0;
        in_word = 0;
      }
    } else {
      word[wn++] = ch;
      in_word = 1;
    }
  }
  if (quote)
    dsmrun_usage_error("--launcher: unterminated %c quote in '%s'", quote, s);
  if (in_word) {
    word[wn] = '\0';
    strv_push(&out, dsmrun_xstrdup(word));
  }
  free(word);
  if (out.n == 0)
    dsmrun_usage_error("--launcher: empty command");
  return out;
}

static void check_launcher(const char *launcher)
{
  strv_t w = split_words(launcher);   /* exits on a quoting error */
  for (size_t i = 0; i < w.n; i++)
    free(w.v[i]);
  free(w.v);
}

/* Replace every {host} in w by host. */
static char *subst_host(const char *w, const char *host)
{
  size_t hl = strlen(host), n = 0;
  for (const char *p = w; (p = strstr(p, "{host}")); p += 6)
    n++;
  char *out = dsmrun_xmalloc(strlen(w) + n * hl + 1), *o = out;
  for (const char *p = w; *p;) {
    if (strncmp(p, "{host}", 6) == 0) {
      memcpy(o, host, hl);
      o += hl;
      p += 6;
    } else {
      *o++ = *p++;
    }
  }
  *o = '\0';
  return out;
}

/* Quote s for a POSIX shell: 'it'\''s'. */
static void shell_quote(char **buf, size_t *len, size_t *cap, const char *s)
{
  size_t need = *len + 4 * strlen(s) + 4;
  if (need > *cap) {
    *cap = need * 2;
    char *nb = realloc(*buf, *cap);
    if (!nb)
      dsmrun_die("out of memory");
    *buf = nb;
  }
  char *o = *buf + *len;
  *o++ = '\'';
  for (; *s; s++) {
    if (*s == '\'') {
      memcpy(o, "'\\''", 4);
      o += 4;
    } else {
      *o++ = *s;
    }
  }
  *o++ = '\'';
  *o = '\0';
  *len = (size_t)(o - *buf);
}

static void append(char **buf, size_t *len, size_t *cap, const char *s)
{
  size_t sl = strlen(s);
  if (*len + sl + 1 > *cap) {
    *cap = (*len + sl + 1) * 2;
    char *nb = realloc(*buf, *cap);
    if (!nb)
      dsmrun_die("out of memory");
    *buf = nb;
  }
  memcpy(*buf + *len, s, sl + 1);
  *len += sl;
}

static int is_ssh_like(const char *argv0)
{
  const char *base = strrchr(argv0, '/');
  base = base ? base + 1 : argv0;
  return strcmp(base, "ssh") == 0 || strcmp(base, "rsh") == 0;
}

typedef enum { SPAWN_LOCAL, SPAWN_EXEC, SPAWN_SSH } spawn_kind_t;

/* ---- spawning ------------------------------------------------------------------ */

/* Is prog runnable here, the way execvp would find it? */
static int find_program(const char *prog)
{
  if (strchr(prog, '/'))
    return access(prog, X_OK) == 0;
  const char *path = getenv("PATH");
  if (!path)
    path = "/usr/local/bin:/usr/bin:/bin";
  size_t pl = strlen(prog);
  while (*path) {
    size_t dl = strcspn(path, ":");
    char *cand = dsmrun_xmalloc(dl + pl + 2);
    if (dl == 0)
      memcpy(cand, ".", (dl = 1));
    else
      memcpy(cand, path, dl);
    cand[dl] = '/';
    memcpy(cand + dl + 1, prog, pl + 1);
    struct stat st;
    int ok = stat(cand, &st) == 0 && S_ISREG(st.st_mode) && access(cand, X_OK) == 0;
    free(cand);
    if (ok)
      return 1;
    path += strcspn(path, ":");
    if (*path == ':')
      path++;
  }
  return 0;
}

/* A random port for the master in 20000..60999. When rank 0 runs here, make
 * sure nothing holds it (UDP for the transport, TCP for whatever bootstraps
 * over it); a race with another process remains possible but rare. */
static unsigned pick_port(int check_local)
{
  for (int attempt = 0; attempt < 100; attempt++) {
    uint32_t rnd;
    if (getrandom(&rnd, sizeof rnd, 0) != sizeof rnd)
      dsmrun_die("getrandom: %s", strerror(errno));
    unsigned port = 20000 + rnd % 41000;
    if (!check_local)
      return port;
    int ok = 1;
    int types[2] = { SOCK_DGRAM, SOCK_STREAM };
    for (int t = 0; t < 2 && ok; t++) {
      int s = socket(AF_INET, types[t] | SOCK_CLOEXEC, 0);
      if (s < 0)
        dsmrun_die("socket: %s", strerror(errno));
      struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
      sa.sin_addr.s_addr = htonl(INADDR_ANY);
      if (bind(s, (struct sockaddr *)&sa, sizeof sa) != 0)
        ok = 0;
      close(s);
    }
    if (ok)
      return port;
  }
  dsmrun_die("found no free port in 20000..60999 for the master");
}

static char *make_key(void)
{
  unsigned char raw[16];
  if (getrandom(raw, sizeof raw, 0) != sizeof raw)
    dsmrun_die("getrandom: %s", strerror(errno));
  char *key = dsmrun_xmalloc(33);
  for (int i = 0; i < 16; i++)
    snprintf(key + 2 * i, 3, "%02x", raw[i]);
  return key;
}

static int is_job_var(const char *e, int stats_set)
{
  static const char *const ours[] = {
    "DSM_RANK=", "DSM_SIZE=", "DSM_MASTER=", "DSM_KEY=", "DSM_TIMEOUT=",
    "DSM_TRANSPORT=", "DSM_LIFELINE=",
  };
  for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++)
    if (strncmp(e, ours[i], strlen(ours[i])) == 0)
      return 1;
  return stats_set && strncmp(e, "DSM_STATS=", 10) == 0;
}

/* The DSM_* assignments of one rank. */
static strv_t rank_vars(dsmrun_job_t *j, unsigned rank, const char *master, const char *key,
                        int lifeline)
{
  strv_t v = { 0 };
  strv_push(&v, dsmrun_xasprintf("DSM_RANK=%u", rank));
  strv_push(&v, dsmrun_xasprintf("DSM_SIZE=%u", j->n));
  strv_push(&v, dsmrun_xasprintf("DSM_MASTER=%s", master));
  strv_push(&v, dsmrun_xasprintf("DSM_KEY=%s", key));
  strv_push(&v, dsmrun_xasprintf("DSM_TIMEOUT=%ld", j->o.timeout));
  strv_push(&v, dsmrun_xasprintf("DSM_TRANSPORT=%s", j->o.transport));
  if (j->o.stats)
    strv_push(&v, dsmrun_xstrdup("DSM_STATS=1"));
  if (lifeline >= 0)
    strv_push(&v, dsmrun_xasprintf("DSM_LIFELINE=%d", lifeline));
  return v;
}

/* Everything a child needs, prepared before fork so the child only calls
 * async-signal-safe functions. */
typedef struct spawn {
  char **argv;
  char **envp;
  int stdin_fd, out_w, err_w, life_r;
  int own_pgrp;
  sigset_t mask;
} spawn_t;

static void child(const spawn_t *s)
{
  if (s->own_pgrp)
    setpgid(0, 0);
  signal(SIGPIPE, SIG_DFL);
  sigprocmask(SIG_SETMASK, &s->mask, NULL);
  /* All sources are >= 3 (fds 0-2 are open in dsmrun), so these dup2s
   * cannot clobber one another; dup2 clears FD_CLOEXEC on the copy. */
  if (dup2(s->stdin_fd, 0) < 0 || dup2(s->out_w, 1) < 0 || dup2(s->err_w, 2) < 0)
    _exit(127);
  if (s->life_r >= 0) {
    if (s->life_r == LIFELINE_FD)
      fcntl(LIFELINE_FD, F_SETFD, 0);
    else if (dup2(s->life_r, LIFELINE_FD) < 0)
      _exit(127);
  }
  execvpe(s->argv[0], s->argv, s->envp);
  int e = errno;
  const char *m1 = "dsmrun: error: cannot execute '";
  dsmrun_write_all(2, m1, strlen(m1));
  dsmrun_write_all(2, s->argv[0], strlen(s->argv[0]));
  dsmrun_write_all(2, "': ", 3);
  const char *es = strerror(e);
  dsmrun_write_all(2, es, strlen(es));
  dsmrun_write_all(2, "\n", 1);
  _exit(127);
}

static void open_pipe(int fds[2])
{
  if (pipe2(fds, O_CLOEXEC) != 0)
    dsmrun_die("pipe: %s (too many processes for the open-file limit?)", strerror(errno));
}

static void describe(dsmrun_job_t *j, dsmrun_rank_t *r, char **argv)
{
  size_t len = 0, cap = 256;
  char *line = dsmrun_xmalloc(cap);
  line[0] = '\0';
  for (char **a = argv; *a; a++) {
    shell_quote(&line, &len, &cap, *a);
    append(&line, &len, &cap, " ");
  }
  dsmrun_note("rank %u on %s (pid %d): %s", r->id, r->host, (int)r->pid, line);
  free(line);
  (void)j;
}

static void start_ranks(dsmrun_job_t *j, dsmrun_hostlist_t *hl, unsigned *placement,
                        const char *master, const char *key, const sigset_t *orig_mask)
{
  int devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (devnull < 0)
    dsmrun_die("/dev/null: %s", strerror(errno));
  int stdin_tty = isatty(0);
  strv_t launcher = { 0 };
  int launcher_ssh;
  if (j->o.launcher) {
    launcher = split_words(j->o.launcher);
  } else {
    const char *ssh = getenv("DSMRUN_SSH");
    launcher = split_words(ssh && *ssh ? ssh : "ssh -o BatchMode=yes");
    strv_push(&launcher, dsmrun_xstrdup("{host}"));
  }
  launcher_ssh = is_ssh_like(launcher.v[0]);
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof cwd))
    cwd[0] = '\0';

  /* Local environment: ours minus stale job variables. */
  strv_t base_env = { 0 };
  for (char **e = environ; *e; e++)
    if (!is_job_var(*e, j->o.stats))
      strv_push(&base_env, *e);
  /* Remote ranks get a fresh environment from sshd; carry over the
   * library's and OpenMP's settings (DSM_DEBUG, DSM_STATS=json:..., ...). */
  strv_t fwd = { 0 };
  for (char **e = environ; *e; e++)
    if ((strncmp(*e, "DSM_", 4) == 0 || strncmp(*e, "OMP_", 4) == 0) &&
        !is_job_var(*e, j->o.stats))
      strv_push(&fwd, *e);

  for (unsigned i = 0; i < j->n; i++) {
    dsmrun_rank_t *r = &j->r[i];
    dsmrun_host_t *h = hl ? &hl->v[placement[i]] : NULL;
    r->id = i;
    r->host = h ? h->name : "localhost";
    spawn_kind_t kind = !h || (h->local && !j->o.launcher) ? SPAWN_LOCAL
                      : launcher_ssh ? SPAWN_SSH : SPAWN_EXEC;
    int outp[2], errp[2], lifep[2];
    open_pipe(outp);
    open_pipe(errp);
    open_pipe(lifep);
    r->life_w = lifep[1];
    dsmrun_linebuf_init(&r->out, outp[0], 1);
    dsmrun_linebuf_init(&r->err, errp[0], 2);

    spawn_t s = { .out_w = outp[1], .err_w = errp[1], .mask = *orig_mask };
    /* stdin: dsmrun's for rank 0; the lifeline for ssh ranks; else nothing. */
    if (i == 0)
      s.stdin_fd = 0;
    else if (kind == SPAWN_SSH)
      s.stdin_fd = lifep[0];
    else
      s.stdin_fd = devnull;
    /* A rank 0 that reads a terminal must be in the foreground group. */
    s.own_pgrp = !(i == 0 && stdin_tty);
    int lifeline_var;
    if (kind == SPAWN_SSH) {
      s.life_r = -1;
      lifeline_var = i == 0 ? -1 : 0;
    } else {
      s.life_r = lifep[0];
      lifeline_var = LIFELINE_FD;
    }
    strv_t vars = rank_vars(j, i, master, key, lifeline_var);
    strv_t argv = { 0 }, envp = { 0 };
    if (kind == SPAWN_LOCAL) {
      for (size_t k = 0; k < base_env.n; k++)
        strv_push(&envp, base_env.v[k]);
      for (size_t k = 0; k < vars.n; k++)
        strv_push(&envp, vars.v[k]);
      for (char **a = j->o.prog; *a; a++)
        strv_push(&argv, *a);
    } else {
      for (size_t k = 0; k < base_env.n; k++)
        strv_push(&envp, base_env.v[k]);
      for (size_t k = 0; k < launcher.n; k++)
        strv_push(&argv, subst_host(launcher.v[k], h->name));
      if (kind == SPAWN_EXEC) {
        /* The launcher execs its arguments: no shell, no quoting. */
        strv_push(&argv, "env");
        for (size_t k = 0; k < vars.n; k++)
          strv_push(&argv, vars.v[k]);
        for (char **a = j->o.prog; *a; a++)
          strv_push(&argv, *a);
      } else {
        /* ssh hands one string to the remote shell. Start in the same
         * directory when it exists there (shared file systems). */
        size_t len = 0, cap = 256;
        char *cmd = dsmrun_xmalloc(cap);
        cmd[0] = '\0';
        if (cwd[0]) {
          append(&cmd, &len, &cap, "cd ");
          shell_quote(&cmd, &len, &cap, cwd);
          append(&cmd, &len, &cap, " 2>/dev/null; ");
        }
        append(&cmd, &len, &cap, "exec env");
        strv_t all = { 0 };
        for (size_t k = 0; k < vars.n; k++)
          strv_push(&all, vars.v[k]);
        for (size_t k = 0; k < fwd.n; k++)
          strv_push(&all, fwd.v[k]);
        for (char **a = j->o.prog; *a; a++)
          strv_push(&all, *a);
        for (size_t k = 0; k < all.n; k++) {
          append(&cmd, &len, &cap, " ");
          shell_quote(&cmd, &len, &cap, all.v[k]);
        }
        free(all.v);
        strv_push(&argv, cmd);
      }
    }

    s.argv = argv.v;
    s.envp = envp.v;
    pid_t pid = fork();
    if (pid < 0) {
      dsmrun_note("error: fork for rank %u failed: %s; stopping the job", i, strerror(errno));
      close(outp[1]);
      close(errp[1]);
      close(lifep[0]);
      j->n = i;   /* ranks i.. were never started */
      dsmrun_job_stop(j, SIGTERM);
      return;
    }
    if (pid == 0)
      child(&s);
    r->pid = pid;
    r->alive = 1;
    r->own_pgrp = s.own_pgrp;
    j->nalive++;
    /* Both sides set the group, so kill(-pid) works whichever runs first. */
    if (s.own_pgrp)
      setpgid(pid, pid);
    close(outp[1]);
    close(errp[1]);
    close(lifep[0]);
    if (j->o.verbose)
      describe(j, r, argv.v);
    free(argv.v);
    free(envp.v);
    free(vars.v);
  }
  close(devnull);
}

/* ---- the job and its exit status ------------------------------------------ */

/* fds 0-2 must be open, or a pipe could land on them and confuse the
 * child's dup2s (CI may start us with stdin closed). */
static void open_std_fds(void)
{
  for (int fd = 0; fd < 3; fd++)
    if (fcntl(fd, F_GETFD) < 0) {
      int nfd = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
      if (nfd >= 0 && nfd != fd) {
        dup2(nfd, fd);
        close(nfd);
      }
    }
}

/* 3 fds per rank stay open in dsmrun; raise the soft limit if it helps. */
static void raise_fd_limit(unsigned nranks)
{
  struct rlimit rl;
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max &&
      rl.rlim_cur < 3 * (rlim_t)nranks + 64) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
}

/* The rank to blame: the first (in exit order) that failed by itself — not
 * with 75, not by a signal dsmrun sent. Failing that, the first victim. */
static dsmrun_rank_t *culprit(dsmrun_job_t *j)
{
  dsmrun_rank_t *best = NULL, *victim = NULL;
  for (unsigned i = 0; i < j->n; i++) {
    dsmrun_rank_t *r = &j->r[i];
    if (!r->exit_seq || !dsmrun_failed(r->wstatus) || r->signalled)
      continue;
    if (WIFEXITED(r->wstatus) && WEXITSTATUS(r->wstatus) == DSMRUN_EXIT_PEER_LOST) {
      if (!victim || r->exit_seq < victim->exit_seq)
        victim = r;
    } else if (!best || r->exit_seq < best->exit_seq) {
      best = r;
    }
  }
  return best ? best : victim;
}

/* dsmrun's exit status for a job that is over; names the culprit, if any,
 * in exactly one line. */
static int exit_status(dsmrun_job_t *j)
{
  int status = 0;
  dsmrun_rank_t *c = culprit(j);
  if (c) {
    if (WIFEXITED(c->wstatus)) {
      dsmrun_note("rank %u (host %s, pid %d) exited with status %d", c->id, c->host,
                  (int)c->pid, WEXITSTATUS(c->wstatus));
      status = WEXITSTATUS(c->wstatus);
    } else {
      dsmrun_note("rank %u (host %s, pid %d) killed by signal %s", c->id, c->host,
                  (int)c->pid, dsmrun_signame(WTERMSIG(c->wstatus)));
      status = 128 + WTERMSIG(c->wstatus);
    }
  } else if (j->max_time_hit) {
    status = 124;
  } else if (j->stop_signal) {
    status = 128 + j->stop_signal;
  } else {
    for (unsigned i = 0; i < j->n; i++)
      if (dsmrun_failed(j->r[i].wstatus))
        status = 1;   /* killed by us without a recorded reason: never 0 */
  }
  return status;
}

int main(int argc, char **argv)
{
  open_std_fds();

  dsmrun_job_t j;
  memset(&j, 0, sizeof j);
  dsmrun_parse_options(argc, argv, &j.o);
  if (j.o.launcher)
    check_launcher(j.o.launcher);
  j.n = j.o.np;

  /* Where the ranks go. Without hosts, all run here directly. */
  dsmrun_hostlist_t hl = { 0 };
  int have_hosts = 0;
  if (j.o.hostfile) {
    dsmrun_hosts_parse_file(&hl, j.o.hostfile);
    have_hosts = 1;
  } else if (j.o.host_list) {
    dsmrun_hosts_parse_list(&hl, j.o.host_list);
    have_hosts = 1;
  } else if (j.o.launcher) {
    /* --launcher alone: every rank goes through it to this machine. */
    dsmrun_hosts_parse_list(&hl, "localhost");
    have_hosts = 1;
  }
  unsigned *placement = dsmrun_xmalloc(j.n * sizeof *placement);
  int any_local = !have_hosts, any_remote = 0;
  if (have_hosts) {
    dsmrun_hosts_place(&hl, j.n, placement);
    for (unsigned h = 0; h < hl.n; h++)
      hl.v[h].local = dsmrun_host_is_local(hl.v[h].name);
    for (unsigned i = 0; i < j.n; i++) {
      int loc = hl.v[placement[i]].local && !j.o.launcher;
      any_local |= loc;
      any_remote |= !loc && !hl.v[placement[i]].local;
    }
  }
  /* Only a program started here can be checked before the job starts. */
  if (any_local && !find_program(j.o.prog[0]))
    dsmrun_usage_error("cannot find program '%s'%s", j.o.prog[0],
                       strchr(j.o.prog[0], '/') ? " (or it is not executable)" : " in PATH");

  /* The master's address, and the key that makes this job's datagrams its own. */
  char *ip;
  int rank0_here = !have_hosts || (hl.v[placement[0]].local && !j.o.launcher);
  if (!have_hosts) {
    ip = dsmrun_xstrdup("127.0.0.1");
  } else {
    int loopback = 0;
    ip = dsmrun_host_ipv4(&hl.v[placement[0]], &loopback);
    if (loopback && any_remote && !hl.v[placement[0]].addr)
      dsmrun_note("warning: rank 0's host '%s' resolves to %s, which other hosts cannot reach; "
                  "give addr=IP in a hostfile", hl.v[placement[0]].name, ip);
  }
  char *master = dsmrun_xasprintf("%s:%u", ip, pick_port(rank0_here));
  char *key = make_key();

  raise_fd_limit(j.n);
  sigset_t orig;
  dsmrun_job_prepare(&j, &orig);
  start_ranks(&j, have_hosts ? &hl : NULL, placement, master, key, &orig);
  dsmrun_job_run(&j);

  int status = exit_status(&j);
  /* A failed job leaves nothing behind: whatever the ranks forked and left
   * in their process groups goes too. A successful one is left alone. */
  if (status != 0)
    for (unsigned i = 0; i < j.n; i++)
      if (j.r[i].own_pgrp && j.r[i].pid > 0)
        kill(-j.r[i].pid, SIGKILL);
  return status;
}
