/*
 * lifeline.c — a job process for the lifeline test. It does what libdsm's
 * bootstrap does with DSM_LIFELINE: it polls that fd and stops when dsmrun's
 * end closes (POLLHUP or EOF), after the line saying why, if dsmrun wrote
 * one. It knows nothing else about the job.
 *
 * usage: lifeline REPORT [SECONDS]
 *   appends "ready RANK" to REPORT (a FIFO the test reads, so that the test
 *   blocks instead of polling) once it is polling the lifeline, then
 *   "gone RANK" when the lifeline closes, and exits 0. If nothing happens
 *   within SECONDS (default 30) it exits 1 without reporting, so a broken
 *   lifeline fails the test instead of leaving a process behind forever.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* One write of less than PIPE_BUF bytes: lines of ranks never mix. */
static void report(const char *path, const char *what, const char *rank)
{
  char line[64];
  int n = snprintf(line, sizeof line, "%s %s\n", what, rank);
  int fd = open(path, O_WRONLY | O_APPEND);
  if (fd < 0 || write(fd, line, (size_t)n) != n) {
    fprintf(stderr, "lifeline: %s: %s\n", path, strerror(errno));
    exit(2);
  }
  close(fd);
}

int main(int argc, char **argv)
{
  if (argc < 2) {
    fprintf(stderr, "usage: lifeline REPORT [SECONDS]\n");
    return 2;
  }
  const char *rank = getenv("DSM_RANK");
  const char *life = getenv("DSM_LIFELINE");
  if (!rank || !life) {
    fprintf(stderr, "lifeline: DSM_RANK or DSM_LIFELINE not set\n");
    return 2;
  }
  int fd = atoi(life);
  int seconds = argc > 2 ? atoi(argv[2]) : 30;
  if (fcntl(fd, F_GETFD) < 0) {
    fprintf(stderr, "lifeline: DSM_LIFELINE=%s is not an open fd\n", life);
    return 2;
  }
  report(argv[1], "ready", rank);
  struct pollfd p = { .fd = fd, .events = POLLIN };
  int said_why = 0;
  for (;;) {
    int rc = poll(&p, 1, seconds * 1000);
    if (rc < 0 && errno == EINTR)
      continue;
    if (rc == 0) {
      fprintf(stderr, "lifeline: rank %s: no hangup within %d s\n", rank, seconds);
      return 1;
    }
    if (p.revents & (POLLHUP | POLLERR))
      break;
    /* POLLIN: EOF, or the one line dsmrun writes before it closes its end
     * when it stops the job (why), which must end with a newline. */
    char c;
    ssize_t got = read(fd, &c, 1);
    if (got == 0)
      break;
    if (got > 0 && c == '\n')
      said_why = 1;
  }
  if (said_why)
    fprintf(stderr, "lifeline: rank %s: dsmrun said why\n", rank);
  report(argv[1], "gone", rank);
  return 0;
}
