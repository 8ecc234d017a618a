/*
 * dsmrun_io.c — forwarding the ranks' output to dsmrun's stdout and stderr,
 * one whole line at a time.
 *
 * Every rank writes into pipes of its own, and dsmrun copies complete lines
 * only, so that lines of different ranks never mix, even when a line is
 * longer than PIPE_BUF and the kernel would cut it. A line longer than
 * LINE_MAX_BYTES is forwarded in pieces; with --tag-output each piece ends
 * with a newline, so that the next tag starts a line of its own.
 *
 * The read ends are non-blocking and the job's poll loop calls dsmrun_pump
 * once per readable pipe: one read per wakeup keeps a chatty rank from
 * starving the others.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dsmrun.h"

/* Longest line kept together; a longer line is forwarded in pieces. */
#define LINE_MAX_BYTES 65536

static char *scratch;   /* tagged output is assembled here */
static size_t scratch_cap;

void dsmrun_write_all(int fd, const char *buf, size_t len)
{
  while (len > 0) {
    ssize_t w = write(fd, buf, len);
    if (w > 0) {
      buf += w;
      len -= (size_t)w;
    } else if (w < 0 && errno == EINTR) {
      continue;
    } else if (w < 0 && errno == EAGAIN) {
      struct pollfd p = { .fd = fd, .events = POLLOUT };
      poll(&p, 1, -1);
    } else {
      /* EPIPE and the like: the job must still be run and reaped. */
      return;
    }
  }
}

void dsmrun_linebuf_init(dsmrun_linebuf_t *lb, int fd, int dest)
{
  *lb = (dsmrun_linebuf_t){ .fd = fd, .dest = dest, .buf = dsmrun_xmalloc(LINE_MAX_BYTES) };
  fcntl(fd, F_SETFL, O_NONBLOCK);
}

/* Forward the first upto bytes of lb and keep the rest. */
static void emit(dsmrun_linebuf_t *lb, int tag, size_t upto)
{
  if (upto == 0)
    return;
  if (tag < 0) {
    dsmrun_write_all(lb->dest, lb->buf, upto);
  } else {
    char tagstr[24];
    int tl = snprintf(tagstr, sizeof tagstr, "[%d] ", tag);
    /* Worst case: every byte is a newline and gets a tag. */
    size_t need = upto * (size_t)(tl + 2) + 2;
    if (need > scratch_cap) {
      free(scratch);
      scratch_cap = need;
      scratch = dsmrun_xmalloc(scratch_cap);
    }
    size_t o = 0;
    int at_bol = 1;
    for (size_t i = 0; i < upto; i++) {
      if (at_bol) {
        memcpy(scratch + o, tagstr, (size_t)tl);
        o += (size_t)tl;
      }
      scratch[o++] = lb->buf[i];
      at_bol = lb->buf[i] == '\n';
    }
    /* A piece of an over-long line, or a last line without newline:
     * end it, or the next rank's tag would land mid-line. */
    if (!at_bol)
      scratch[o++] = '\n';
    dsmrun_write_all(lb->dest, scratch, o);
  }
  memmove(lb->buf, lb->buf + upto, lb->len - upto);
  lb->len -= upto;
}

int dsmrun_pump(dsmrun_linebuf_t *lb, int tag, int drain)
{
  /* Draining is bounded: something the rank left behind may still be
   * writing into the pipe. */
  for (int reads = 0; reads < 1024; reads++) {
    if (lb->len == LINE_MAX_BYTES)
      emit(lb, tag, lb->len);
    ssize_t got = read(lb->fd, lb->buf + lb->len, LINE_MAX_BYTES - lb->len);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0) {
      if (got < 0 && errno == EAGAIN)
        return 1;
      emit(lb, tag, lb->len);        /* the last line, newline or not */
      close(lb->fd);
      lb->fd = -1;
      return 0;
    }
    size_t old = lb->len;
    lb->len += (size_t)got;
    /* Forward up to the last newline of this chunk. */
    size_t cut = 0;
    for (size_t i = lb->len; i > old; i--)
      if (lb->buf[i - 1] == '\n') {
        cut = i;
        break;
      }
    if (cut)
      emit(lb, tag, cut);
    if (!drain)
      return 1;   /* one read per wakeup keeps the ranks fair */
  }
  return 1;
}
