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
 * and 0 only when every rank exited 0 or a rank ended the job with status
 * 0 (exit(0) inside a parallel region ends an OpenMP program successfully;
 * the ranks stopped because of it are not failures). The rank named is the
 * one that failed by itself: a rank that exits with 75 stopped because
 * *another* rank failed, so it is blamed only when nobody else is to blame.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dsmrun.h"

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
  /* Ranks that stopped (75) because another ended the job with status 0
   * are not failures. */
  if (c && j->ended_by && WIFEXITED(c->wstatus) &&
      WEXITSTATUS(c->wstatus) == DSMRUN_EXIT_PEER_LOST)
    c = NULL;
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
  } else if (j->ended_by) {
    status = 0;   /* a rank ended the job with exit(0): a success, as on one machine */
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
    dsmrun_launcher_check(j.o.launcher);
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
  if (any_local && !dsmrun_find_program(j.o.prog[0]))
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
  char *master = dsmrun_xasprintf("%s:%u", ip, dsmrun_pick_port(rank0_here, &j.master_sock));
  char *key = dsmrun_make_key();

  raise_fd_limit(j.n);
  sigset_t orig;
  dsmrun_job_prepare(&j, &orig);
  dsmrun_start_ranks(&j, have_hosts ? &hl : NULL, placement, master, key, &orig);
  dsmrun_job_run(&j);

  int status = exit_status(&j);
  if (j.o.profile && status == 0)
    dsmrun_note("sharing profile in %s.0 .. %s.%u; report: dsmprof %s", j.o.profile,
                j.o.profile, j.n - 1, j.o.profile);
  /* A failed job leaves nothing behind: whatever the ranks forked and left
   * in their process groups goes too. A successful one is left alone. */
  if (status != 0)
    for (unsigned i = 0; i < j.n; i++)
      if (j.r[i].own_pgrp && j.r[i].pid > 0)
        kill(-j.r[i].pid, SIGKILL);
  return status;
}
