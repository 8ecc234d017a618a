/*
 * dsmrun_spawn.c — starting the ranks, in one of three ways:
 *
 *   local   a host that is this machine, without --launcher: fork and exec
 *           the program with the job's variables in its environment
 *   exec    a launcher that executes its arguments in place, keeping the
 *           file descriptors (ip netns exec {host}): launcher words, then
 *           env DSM_...=... prog args
 *   ssh     ssh or rsh, the default for other hosts: the remote shell gets
 *           one quoted command string (dsmrun_remote_command)
 *
 * The lifeline is a pipe whose write end only dsmrun holds and never writes.
 * When dsmrun dies, however it dies, the kernel closes that end and every
 * rank sees POLLHUP on its read end, so a job cannot outlive its launcher.
 * Local and exec ranks find the read end at LIFELINE_FD; ranks started
 * through ssh get it as their stdin instead (ssh forwards the EOF), except
 * rank 0, whose stdin is dsmrun's.
 *
 * Every rank runs in its own process group, so that killing a rank also
 * kills whatever it forked (a shell's children, for instance). Not done
 * here: relaying stdin through a pipe. Rank 0 inherits dsmrun's stdin
 * directly; when that is a terminal, rank 0 stays in dsmrun's process group
 * so that it may read from it (a background group would get SIGTTIN).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dsmrun.h"

/* The fd number at which local ranks find the lifeline (DSM_LIFELINE). A
 * fixed number keeps the environment the same shape on every rank. */
#define LIFELINE_FD 3
/* Where a rank 0 started here finds the master's socket (DSM_MASTER_FD). */
#define MASTER_SOCK_FD 4

typedef enum { SPAWN_LOCAL, SPAWN_EXEC, SPAWN_SSH } spawn_kind_t;

int dsmrun_find_program(const char *prog)
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

static int is_ssh_like(const char *argv0)
{
  const char *base = strrchr(argv0, '/');
  base = base ? base + 1 : argv0;
  return strcmp(base, "ssh") == 0 || strcmp(base, "rsh") == 0;
}

/* The words that start a rank on another host, {host} still in them: the
 * --launcher template, or DSMRUN_SSH (default ssh in batch mode) and the
 * host name. */
static dsmrun_strv_t launcher_words(const char *launcher)
{
  if (launcher)
    return dsmrun_split_words(launcher);
  const char *ssh = getenv("DSMRUN_SSH");
  dsmrun_strv_t w = dsmrun_split_words(ssh && *ssh ? ssh : "ssh -o BatchMode=yes");
  dsmrun_strv_push(&w, dsmrun_xstrdup("{host}"));
  return w;
}

/* What starting every rank of the job shares. */
typedef struct common {
  dsmrun_strv_t launcher;   /* words, {host} still in them: exec and ssh ranks */
  int launcher_ssh;         /* those ranks are ssh ranks */
  dsmrun_strv_t base_env;   /* dsmrun's environment without job variables */
  dsmrun_strv_t fwd;        /* the settings ssh must carry over */
  char cwd[PATH_MAX];       /* where ssh ranks start; "" when unknown */
  int devnull;              /* stdin of the ranks that get none */
  int stdin_tty;
} common_t;

/* Everything a child needs, prepared before fork so the child only calls
 * async-signal-safe functions. */
typedef struct spawn {
  char **argv;
  char **envp;
  int stdin_fd, out_w, err_w, life_r;
  int master_sock;          /* >= 10 (dsmrun_pick_port), or -1 */
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
  if (s->master_sock >= 0 && dup2(s->master_sock, MASTER_SOCK_FD) < 0)
    _exit(127);
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

/* The command line of one rank, by kind; its environment goes to *envp.
 * vars are the rank's DSM_* assignments. */
static dsmrun_strv_t rank_argv(const common_t *c, const dsmrun_job_t *j, spawn_kind_t kind,
                               const char *host, const dsmrun_strv_t *vars, dsmrun_strv_t *envp)
{
  dsmrun_strv_t argv = { 0 };
  dsmrun_strv_extend(envp, c->base_env.v);
  if (kind == SPAWN_LOCAL) {
    dsmrun_strv_extend(envp, vars->v);
    dsmrun_strv_extend(&argv, j->o.prog);
    return argv;
  }
  for (size_t k = 0; k < c->launcher.n; k++)
    dsmrun_strv_push(&argv, dsmrun_subst_host(c->launcher.v[k], host));
  if (kind == SPAWN_EXEC) {
    /* The launcher execs its arguments: no shell, no quoting. */
    dsmrun_strv_push(&argv, "env");
    dsmrun_strv_extend(&argv, vars->v);
    dsmrun_strv_extend(&argv, j->o.prog);
  } else {
    dsmrun_strv_t words = { 0 };
    dsmrun_strv_extend(&words, vars->v);
    dsmrun_strv_extend(&words, c->fwd.v);
    dsmrun_strv_extend(&words, j->o.prog);
    dsmrun_strv_push(&argv, dsmrun_remote_command(c->cwd, words.v));
    free(words.v);
  }
  return argv;
}

void dsmrun_start_ranks(dsmrun_job_t *j, dsmrun_hostlist_t *hl, unsigned *placement,
                        const char *master, const char *key, const sigset_t *orig_mask)
{
  common_t c;
  c.devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (c.devnull < 0)
    dsmrun_die("/dev/null: %s", strerror(errno));
  c.stdin_tty = isatty(0);
  c.launcher = launcher_words(j->o.launcher);
  c.launcher_ssh = is_ssh_like(c.launcher.v[0]);
  if (!getcwd(c.cwd, sizeof c.cwd))
    c.cwd[0] = '\0';
  c.base_env = dsmrun_env_local(&j->o);
  c.fwd = dsmrun_env_forwarded(&j->o);

  for (unsigned i = 0; i < j->n; i++) {
    dsmrun_rank_t *r = &j->r[i];
    dsmrun_host_t *h = hl ? &hl->v[placement[i]] : NULL;
    r->id = i;
    r->host = h ? h->name : "localhost";
    spawn_kind_t kind = !h || (h->local && !j->o.launcher) ? SPAWN_LOCAL
                      : c.launcher_ssh ? SPAWN_SSH : SPAWN_EXEC;
    int outp[2], errp[2], life_r;
    open_pipe(outp);
    open_pipe(errp);
    /* A rank that keeps dsmrun's descriptors can report back on its
     * lifeline (dsmrun_life.c); through ssh, it is a pipe on stdin. */
    dsmrun_life_open(r, kind != SPAWN_SSH, &life_r);
    dsmrun_linebuf_init(&r->out, outp[0], 1);
    dsmrun_linebuf_init(&r->err, errp[0], 2);

    spawn_t s = { .out_w = outp[1], .err_w = errp[1], .master_sock = -1, .mask = *orig_mask };
    /* The master's port, bound by dsmrun, goes to a rank 0 started here. */
    if (i == 0 && kind == SPAWN_LOCAL)
      s.master_sock = j->master_sock;
    /* stdin: dsmrun's for rank 0; the lifeline for ssh ranks; else nothing. */
    if (i == 0)
      s.stdin_fd = 0;
    else if (kind == SPAWN_SSH)
      s.stdin_fd = life_r;
    else
      s.stdin_fd = c.devnull;
    /* A rank 0 that reads a terminal must be in the foreground group. */
    s.own_pgrp = !(i == 0 && c.stdin_tty);
    int lifeline_var;
    if (kind == SPAWN_SSH) {
      s.life_r = -1;
      lifeline_var = i == 0 ? -1 : 0;
    } else {
      s.life_r = life_r;
      lifeline_var = LIFELINE_FD;
    }
    dsmrun_place_t pl = { hl ? placement[i] : 0, 0, 0 };
    for (unsigned k = 0; k < j->n; k++)
      if (!hl || placement[k] == placement[i]) {
        pl.local_rank += k < i;
        pl.local_size++;
      }
    dsmrun_strv_t vars = dsmrun_rank_vars(j, i, &pl, master, key, lifeline_var,
                                          s.master_sock >= 0 ? MASTER_SOCK_FD : -1);
    dsmrun_strv_t envp = { 0 };
    dsmrun_strv_t argv = rank_argv(&c, j, kind, h ? h->name : NULL, &vars, &envp);

    s.argv = argv.v;
    s.envp = envp.v;
    pid_t pid = fork();
    if (pid < 0) {
      dsmrun_note("error: fork for rank %u failed: %s; stopping the job", i, strerror(errno));
      close(outp[1]);
      close(errp[1]);
      close(life_r);
      dsmrun_life_close(r, NULL);
      j->n = i;   /* ranks i.. were never started */
      dsmrun_job_stop(j, SIGTERM, "dsmrun could not start every rank");
      return;
    }
    if (pid == 0)
      child(&s);
    if (s.master_sock >= 0) {   /* rank 0 has it now */
      close(j->master_sock);
      j->master_sock = -1;
    }
    r->pid = pid;
    r->alive = 1;
    r->own_pgrp = s.own_pgrp;
    j->nalive++;
    /* Both sides set the group, so kill(-pid) works whichever runs first. */
    if (s.own_pgrp)
      setpgid(pid, pid);
    close(outp[1]);
    close(errp[1]);
    close(life_r);
    if (j->o.verbose) {
      char *line = dsmrun_shell_line(argv.v);
      dsmrun_note("rank %u on %s (pid %d): %s", r->id, r->host, (int)r->pid, line);
      free(line);
    }
    free(argv.v);
    free(envp.v);
    free(vars.v);
  }
  close(c.devnull);
}
