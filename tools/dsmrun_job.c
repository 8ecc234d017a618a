/*
 * dsmrun_job.c — the running job: one thread, one poll() loop over a
 * signalfd and the ranks' output pipes, until every rank is gone.
 *
 * Deadlines (--max-time, the blame grace, the SIGTERM-to-SIGKILL
 * escalation) are poll timeouts. There is no sleeping and no polling on a
 * timer. SIGCHLD only wakes the loop: ranks are reaped with
 * waitpid(WNOHANG) on every wakeup.
 *
 * The first rank to fail (a non-zero status or a signal) stops the job:
 * the lifelines close (remote ranks stop by themselves), every rank's
 * process group gets SIGTERM, and SIGKILL KILL_GRACE_MS later. A rank that
 * exits with DSMRUN_EXIT_PEER_LOST (75) stopped because *another* rank
 * failed; the culprit is probably exiting right now, so the stop waits
 * BLAME_GRACE_MS for it, and dsmrun.c can name it rather than the first of
 * its victims. A signal to dsmrun is forwarded to the ranks (so their
 * handlers run); a second one kills them at once.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "dsmrun.h"

/* How long SIGTERM gets before SIGKILL, how long the culprit of a
 * failure gets to exit by itself after its victims exited with 75, and how
 * long a libdsm rank gets to stop by itself on its lifeline (saying why)
 * before it gets the SIGTERM. */
#define KILL_GRACE_MS 2000
#define BLAME_GRACE_MS 1000
#define LIFELINE_GRACE_MS 1000

/* The job's clock: monotonic milliseconds. */
static int64_t now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Signal r and, when it leads one, its process group, so that what it
 * forked goes too. The signal marks r as not failing by itself. */
static void kill_rank(dsmrun_rank_t *r, int sig)
{
  if (!r->alive)
    return;
  r->signalled = 1;
  if (r->own_pgrp && kill(-r->pid, sig) == 0)
    return;
  kill(r->pid, sig);
}

/* A rank that stops by itself when its lifeline closes, and says why. */
static int stops_by_itself(const dsmrun_rank_t *r)
{
  return r->joined && r->reports;
}

static void signal_rank(dsmrun_rank_t *r, int sig)
{
  kill_rank(r, sig);
  /* A stopped rank (SIGSTOP, ^Z in its own terminal) keeps the signal
   * pending and would go only at the SIGKILL, KILL_GRACE_MS later;
   * continued, it takes the signal now, as kill(1)'s users do with
   * SIGTERM and SIGCONT. */
  if (sig != SIGKILL)
    kill_rank(r, SIGCONT);
}

void dsmrun_job_stop(dsmrun_job_t *j, int sig, const char *why)
{
  int64_t now = now_ms();
  /* dsmrun's own SIGTERM goes at once only to ranks that do not stop on
   * the lifeline; the others get it if still running LIFELINE_GRACE_MS
   * later. A signal dsmrun was sent is forwarded at once, to run the
   * program's handler, and SIGKILL is never delayed. */
  int patient = sig == SIGTERM && !j->stopping && !j->stop_signal;
  for (unsigned i = 0; i < j->n; i++) {
    dsmrun_rank_t *r = &j->r[i];
    dsmrun_life_close(r, why);
    if (patient && r->alive && stops_by_itself(r))
      j->term_at = now + LIFELINE_GRACE_MS;
    else
      signal_rank(r, sig);
  }
  if (!j->stopping) {
    j->stopping = 1;
    j->kill_at = (j->term_at ? j->term_at : now) + KILL_GRACE_MS;
  }
  j->stop_at = 0;
}

int dsmrun_failed(int wstatus)
{
  return !(WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0);
}

/* What a rank's lifeline says of a job stopped because of r. */
static char *blame_line(const dsmrun_rank_t *r, int wstatus)
{
  if (WIFEXITED(wstatus))
    return dsmrun_xasprintf("rank %u exited with status %d; dsmrun stops the job", r->id,
                            WEXITSTATUS(wstatus));
  return dsmrun_xasprintf("rank %u was killed by signal %s; dsmrun stops the job", r->id,
                          dsmrun_signame(WTERMSIG(wstatus)));
}

/* r has exited: record how and in what order, and stop the job if r
 * failed by itself (or soon, if it is a victim). */
static void on_rank_exit(dsmrun_job_t *j, dsmrun_rank_t *r, int wstatus)
{
  r->alive = 0;
  r->wstatus = wstatus;
  r->exit_seq = ++j->exit_seq;
  j->nalive--;
  /* Everything it reported is in the socket by now. */
  dsmrun_life_read(r);
  dsmrun_life_close(r, NULL);
  if (j->o.verbose) {
    if (WIFEXITED(wstatus))
      dsmrun_note("rank %u (pid %d) exited with status %d", r->id, (int)r->pid,
                  WEXITSTATUS(wstatus));
    else
      dsmrun_note("rank %u (pid %d) killed by signal %s", r->id, (int)r->pid,
                  dsmrun_signame(WTERMSIG(wstatus)));
  }
  if (j->stopping)
    return;
  if (!dsmrun_failed(wstatus)) {
    /* A libdsm rank that exits 0 without leaving in the collective
     * shutdown ended the job (exit or _exit inside a parallel region), as
     * the same call ends an OpenMP program on one machine: with status 0.
     * One that said so ('X') told the others itself; give them a moment. */
    if (!r->joined || r->record == 'E' || r->record == 'P' || !j->nalive)
      return;
    if (!j->ended_by)
      j->ended_by = r;
    if (r->record == 'X') {
      if (!j->stop_at)
        j->stop_at = now_ms() + BLAME_GRACE_MS;
    } else {
      char *why = dsmrun_xasprintf("rank %u exited with status 0 before the job's end, "
                                   "which ends the job; dsmrun stops it", r->id);
      dsmrun_job_stop(j, SIGTERM, why);
      free(why);
    }
    return;
  }
  if ((WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == DSMRUN_EXIT_PEER_LOST) ||
      r->record == 'X') {
    /* A victim: the culprit is probably exiting right now. Or a rank that
     * told the others itself why the job ends: they are stopping. */
    if (!j->stop_at)
      j->stop_at = now_ms() + BLAME_GRACE_MS;
  } else {
    char *why = blame_line(r, wstatus);
    dsmrun_job_stop(j, SIGTERM, why);
    free(why);
  }
}

/* Collect every rank that has exited. */
static void reap(dsmrun_job_t *j)
{
  for (;;) {
    int st;
    pid_t pid = waitpid(-1, &st, WNOHANG);
    if (pid <= 0)
      return;
    for (unsigned i = 0; i < j->n; i++)
      if (j->r[i].pid == pid && j->r[i].alive) {
        on_rank_exit(j, &j->r[i], st);
        break;
      }
  }
}

void dsmrun_job_prepare(dsmrun_job_t *j, sigset_t *orig_mask)
{
  /* Signals arrive through the signalfd only. Children get the old mask and
   * the default SIGPIPE back before exec. */
  sigset_t mask;
  sigemptyset(&mask);
  sigaddset(&mask, SIGCHLD);
  sigaddset(&mask, SIGINT);
  sigaddset(&mask, SIGTERM);
  sigaddset(&mask, SIGHUP);
  sigaddset(&mask, SIGQUIT);
  sigprocmask(SIG_BLOCK, &mask, orig_mask);
  j->sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
  if (j->sigfd < 0)
    dsmrun_die("signalfd: %s", strerror(errno));
  signal(SIGPIPE, SIG_IGN);   /* a closed stdout must not kill the launcher */

  j->r = calloc(j->n, sizeof *j->r);
  if (!j->r)
    dsmrun_die("out of memory");
  if (j->o.max_time > 0)
    j->max_at = now_ms() + (int64_t)ceil(j->o.max_time * 1000.0);
}

/* The tag of r's output lines: its rank with --tag-output, else none. */
static int tag_of(const dsmrun_job_t *j, const dsmrun_rank_t *r)
{
  return j->o.tag_output ? (int)r->id : -1;
}

/* Milliseconds until the nearest deadline, for poll; -1 when none. */
static int poll_timeout(const dsmrun_job_t *j)
{
  int64_t now = now_ms(), next = INT64_MAX;
  if (j->max_at && !j->stopping)
    next = j->max_at;
  if (j->stop_at && j->stop_at < next)
    next = j->stop_at;
  if (j->term_at && j->term_at < next)
    next = j->term_at;
  if (j->kill_at && j->kill_at < next)
    next = j->kill_at;
  return next == INT64_MAX ? -1 : next <= now ? 0
       : (int)(next - now > INT_MAX ? INT_MAX : next - now);
}

/* Signals dsmrun got: forwarded the first time, SIGKILL the second. */
static void take_signals(dsmrun_job_t *j)
{
  struct signalfd_siginfo si[16];
  ssize_t got = read(j->sigfd, si, sizeof si);
  for (ssize_t k = 0; k < got / (ssize_t)sizeof si[0]; k++) {
    int sig = (int)si[k].ssi_signo;
    if (sig == SIGCHLD)
      continue;                       /* reaped by the loop */
    if (j->stop_signal) {
      /* Asked twice: no more patience. */
      dsmrun_job_stop(j, SIGKILL, NULL);
      continue;
    }
    j->stop_signal = sig;
    dsmrun_note("got %s; stopping the job", dsmrun_signame(sig));
    /* Forward the same signal, so that a program's handler runs. */
    char *why = dsmrun_xasprintf("dsmrun got %s and stops the job", dsmrun_signame(sig));
    dsmrun_job_stop(j, sig, why);
    free(why);
  }
}

/* DSMRUN_STACKS=1: before a job that hangs is stopped (--max-time ran
 * out, or a rank is still running a second after another gave up on it as
 * silent), print the stack of every thread of each rank still running on
 * this host, with gdb (bounded to 30 s a rank). A hang that a test run hits
 * once in hundreds of runs then says where it was. The tests of the suites
 * where such hangs were seen set it. */
static void dump_stacks(dsmrun_job_t *j)
{
  const char *on = getenv("DSMRUN_STACKS");
  if (!on || strcmp(on, "1") != 0)
    return;
  for (unsigned i = 0; i < j->n; i++) {
    dsmrun_rank_t *r = &j->r[i];
    if (!r->alive || r->pid <= 0 || !dsmrun_host_is_local(r->host))
      continue;
    dsmrun_note("rank %u (pid %d) is still running; the stacks of its threads follow", r->id,
                (int)r->pid);
    char pid[32];
    snprintf(pid, sizeof pid, "%d", (int)r->pid);
    pid_t g = fork();
    if (g == 0) {
      sigset_t none;      /* gdb waits for its inferior with SIGCHLD */
      sigemptyset(&none);
      sigprocmask(SIG_SETMASK, &none, NULL);
      dup2(2, 1);
      execlp("timeout", "timeout", "30", "gdb", "-q", "-batch", "-nx", "-p", pid, "-ex",
             "thread apply all bt 40", (char *)NULL);
      _exit(127);
    }
    if (g > 0)
      while (waitpid(g, NULL, 0) < 0 && errno == EINTR) {}
  }
}

/* Why a delayed stop stops the job: the first rank that failed by itself,
 * or ended the job, else the first that gave up on another. The buffer is
 * static. */
static const char *stop_reason(const dsmrun_job_t *j)
{
  static char buf[200];
  const dsmrun_rank_t *best = NULL;
  for (unsigned i = 0; i < j->n; i++) {
    const dsmrun_rank_t *r = &j->r[i];
    if (!r->exit_seq || (!dsmrun_failed(r->wstatus) && r != j->ended_by))
      continue;
    int victim = WIFEXITED(r->wstatus) && WEXITSTATUS(r->wstatus) == DSMRUN_EXIT_PEER_LOST;
    int best_victim = best && WIFEXITED(best->wstatus) &&
                      WEXITSTATUS(best->wstatus) == DSMRUN_EXIT_PEER_LOST;
    if (!best || (best_victim && !victim) ||
        (best_victim == victim && r->exit_seq < best->exit_seq))
      best = r;
  }
  if (!best)
    return "dsmrun stops the job";
  char *line = blame_line(best, best->wstatus);
  snprintf(buf, sizeof buf, "%s", line);
  free(line);
  return buf;
}

/* Act on the deadlines that have passed. */
static void check_deadlines(dsmrun_job_t *j)
{
  int64_t now = now_ms();
  if (j->max_at && !j->stopping && now >= j->max_at && j->nalive) {
    j->max_time_hit = 1;
    dsmrun_note("error: the job exceeded --max-time %g s; stopping it", j->o.max_time);
    dump_stacks(j);
    char *why = dsmrun_xasprintf("the job exceeded dsmrun's --max-time of %g s", j->o.max_time);
    dsmrun_job_stop(j, SIGTERM, why);
    free(why);
  }
  if (j->stop_at && now >= j->stop_at && !j->stopping) {
    dump_stacks(j);
    dsmrun_job_stop(j, SIGTERM, stop_reason(j));
  }
  if (j->term_at && now >= j->term_at) {
    for (unsigned i = 0; i < j->n; i++)
      signal_rank(&j->r[i], SIGTERM);
    j->term_at = 0;
  }
  if (j->kill_at && now >= j->kill_at) {
    for (unsigned i = 0; i < j->n; i++)
      kill_rank(&j->r[i], SIGKILL);
    j->kill_at = 0;
  }
}

void dsmrun_job_run(dsmrun_job_t *j)
{
  size_t cap = 1 + 3 * (size_t)j->n;
  struct pollfd *pfd = dsmrun_xmalloc(cap * sizeof *pfd);
  dsmrun_linebuf_t **who = dsmrun_xmalloc(cap * sizeof *who);
  dsmrun_rank_t **whor = dsmrun_xmalloc(cap * sizeof *whor);
  while (j->nalive > 0) {
    size_t np = 0;
    pfd[np++] = (struct pollfd){ .fd = j->sigfd, .events = POLLIN };
    for (unsigned i = 0; i < j->n; i++) {
      dsmrun_linebuf_t *lbs[2] = { &j->r[i].out, &j->r[i].err };
      for (int k = 0; k < 2; k++)
        if (lbs[k]->fd >= 0) {
          who[np] = lbs[k];
          whor[np] = &j->r[i];
          pfd[np++] = (struct pollfd){ .fd = lbs[k]->fd, .events = POLLIN };
        }
      /* The records a rank writes on its lifeline (dsmrun_life.c). */
      dsmrun_rank_t *r = &j->r[i];
      if (r->reports && !r->reports_done && r->life_w >= 0 && r->alive) {
        who[np] = NULL;
        whor[np] = r;
        pfd[np++] = (struct pollfd){ .fd = r->life_w, .events = POLLIN };
      }
    }
    int rc = poll(pfd, np, poll_timeout(j));
    if (rc < 0 && errno != EINTR)
      dsmrun_die("poll: %s", strerror(errno));
    if (rc > 0) {
      for (size_t k = 1; k < np; k++)
        if (pfd[k].revents) {
          if (who[k])
            dsmrun_pump(who[k], tag_of(j, whor[k]), 0);
          else
            dsmrun_life_read(whor[k]);
        }
      if (pfd[0].revents & POLLIN)
        take_signals(j);
    }
    /* SIGCHLD may have been merged or be pending behind other signals;
     * waitpid(WNOHANG) is cheap, so reap on every wakeup. */
    reap(j);
    check_deadlines(j);
  }
  /* Every rank is gone: what is left in the pipes is all they wrote. */
  for (unsigned i = 0; i < j->n; i++) {
    dsmrun_rank_t *r = &j->r[i];
    if (r->out.fd >= 0)
      dsmrun_pump(&r->out, tag_of(j, r), 1);
    if (r->err.fd >= 0)
      dsmrun_pump(&r->err, tag_of(j, r), 1);
  }
  free(pfd);
  free(who);
  free(whor);
}
