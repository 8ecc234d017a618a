/*
 * dsmrun_life.c — the lifeline between dsmrun and one rank.
 *
 * dsmrun holds one end and never closes it while the job runs; the rank
 * watches the other (DSM_LIFELINE). When dsmrun stops the job it writes one
 * line saying why ("rank 1 exited with status 3") and then closes its end,
 * so a rank of libdsm stops saying why, not just that the launcher went
 * away (issue 56). When dsmrun dies, however it dies, the kernel closes its
 * end, and every rank stops by itself.
 *
 * For ranks started on this host or through an exec launcher the lifeline
 * is a socket pair, and the rank writes records back on it
 * (DSM_REPORT_FD, dsm/base/util.c): one byte each,
 *
 *   S  it is a libdsm process and has joined the job
 *   E  it left in the job's collective shutdown
 *   X  it ends the job itself (exit inside a parallel region, a crash)
 *   P  it stops because another rank ended the job with status 0
 *
 * which is how dsmrun tells a rank that _exit(0)s in the middle of the
 * job (S, and no E) from one that simply finished. Ranks started through
 * ssh get the lifeline as their stdin, a pipe that carries only dsmrun's
 * line: dsmrun cannot tell those apart, and such an exit ends the job only
 * when the other ranks notice the silence (DSM_TIMEOUT).
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "dsmrun.h"

void dsmrun_life_open(dsmrun_rank_t *r, int two_way, int *rank_end)
{
  int fds[2];
  if (two_way) {
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
      dsmrun_die("socketpair: %s (too many processes for the open-file limit?)",
                 strerror(errno));
  } else {
    if (pipe2(fds, O_CLOEXEC) != 0)
      dsmrun_die("pipe: %s (too many processes for the open-file limit?)", strerror(errno));
  }
  /* fds[0] reads (the rank's end), fds[1] writes; a socket does both. */
  *rank_end = fds[0];
  r->life_w = fds[1];
  r->reports = two_way;
  /* dsmrun never waits on a rank: its line is short, and a rank that
   * reads nothing must not stop the launcher. */
  fcntl(r->life_w, F_SETFL, fcntl(r->life_w, F_GETFL) | O_NONBLOCK);
}

int dsmrun_life_read(dsmrun_rank_t *r)
{
  if (!r->reports || r->life_w < 0 || r->reports_done)
    return 0;
  char buf[64];
  for (;;) {
    ssize_t n = read(r->life_w, buf, sizeof buf);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
        r->reports_done = 1;
      return 0;
    }
    for (ssize_t i = 0; i < n; i++) {
      switch (buf[i]) {
      case 'S': r->joined = 1; break;
      case 'E': case 'X': case 'P': r->record = buf[i]; break;
      default: break;   /* not ours: ignored */
      }
    }
  }
}

void dsmrun_life_close(dsmrun_rank_t *r, const char *why)
{
  if (r->life_w < 0)
    return;
  if (why && r->alive) {
    char line[300];
    size_t n = strlen(why);
    if (n > sizeof line - 2)
      n = sizeof line - 2;
    memcpy(line, why, n);
    line[n++] = '\n';
    ssize_t w = write(r->life_w, line, n);
    (void)w;
  }
  close(r->life_w);
  r->life_w = -1;
}
