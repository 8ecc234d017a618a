/*
 * dsmrun_msg.c — how dsmrun speaks and how it gives up.
 *
 * Everything dsmrun says goes to stderr in one write(2), because the ranks'
 * output is being forwarded to the same stream at the same time and a line
 * must not be cut by one of theirs. Errors start with "dsmrun: error:" and
 * end the launcher: with DSMRUN_EXIT_USAGE (2) when the user can fix the
 * command line, else with 1. Running out of memory is such an end, which is
 * why the allocators that never return NULL live here too.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dsmrun.h"

/* "dsmrun: " prefix, the formatted message, a newline: one write. */
static void say(const char *prefix, const char *fmt, va_list ap)
{
  char msg[1024];
  vsnprintf(msg, sizeof msg, fmt, ap);
  char line[1100];
  int n = snprintf(line, sizeof line, "dsmrun: %s%s\n", prefix, msg);
  if (n > 0) {
    ssize_t w = write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    (void)w;
  }
}

void dsmrun_usage_error(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  say("error: ", fmt, ap);
  va_end(ap);
  exit(DSMRUN_EXIT_USAGE);
}

void dsmrun_die(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  say("error: ", fmt, ap);
  va_end(ap);
  exit(1);
}

void dsmrun_note(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  say("", fmt, ap);
  va_end(ap);
}

const char *dsmrun_signame(int sig)
{
  static char buf[32];
  const char *abbrev = sigabbrev_np(sig);
  if (abbrev)
    snprintf(buf, sizeof buf, "SIG%s", abbrev);
  else
    snprintf(buf, sizeof buf, "signal %d", sig);
  return buf;
}

void *dsmrun_xmalloc(size_t n)
{
  void *p = malloc(n ? n : 1);
  if (!p)
    dsmrun_die("out of memory");
  return p;
}

void *dsmrun_xrealloc(void *p, size_t n)
{
  void *q = realloc(p, n ? n : 1);
  if (!q)
    dsmrun_die("out of memory");
  return q;
}

char *dsmrun_xstrdup(const char *s)
{
  char *p = strdup(s);
  if (!p)
    dsmrun_die("out of memory");
  return p;
}

char *dsmrun_xasprintf(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  char *p = NULL;
  int n = vasprintf(&p, fmt, ap);
  va_end(ap);
  if (n < 0)
    dsmrun_die("out of memory");
  return p;
}
