/*
 * omp_syscall.c — calls that write into memory from the kernel (read,
 * recv, and the stdio readers built on them), for programs built by
 * ompdsmcc, which renames the calls to these wrappers. The stdio calls
 * given a FILE * enter through omp_stdio.c, which decides which process
 * makes the call; when it is this one, they come here (dsm__sys_*).
 *
 * The DSM notices accesses through page protection: a shared page that is
 * invalid or write-protected faults on the first store, and the fault
 * handler makes it valid and writable. A store by the kernel (the copy to
 * user memory in read(2)) does not fault into our handler: it fails with
 * EFAULT, or stops short. Opening the pages first (touching each one) is
 * not enough on its own: a peer asking for a diff may write-protect a page
 * again before the kernel gets to it. So a destination in shared memory
 * is filled through a private bounce buffer and copied in from user level,
 * where every fault takes the normal path. Private destinations go
 * straight to the kernel.
 *
 * A regular file is read until the request is met or the file ends, as
 * read(2) itself does; a pipe or socket returns what one call gives.
 * scanf-family conversions store from user space and need nothing, but
 * their destinations are opened first so a conversion is not split by a
 * fault in the middle of libc.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dsm_internal.h"
#include "region.h"


/* The entry points generated code calls (ompdsmcc declares them in its
 * prelude with builtin types; ompdsm_rt.h stays free of system headers). */
ssize_t __ompdsm_read(int fd, void *buf, size_t n);
ssize_t __ompdsm_pread(int fd, void *buf, size_t n, off_t off);
ssize_t __ompdsm_recv(int fd, void *buf, size_t n, int flags);
ssize_t __ompdsm_recvfrom(int fd, void *buf, size_t n, int flags, struct sockaddr *from, socklen_t *len);
int     __ompdsm_scanf(const char *fmt, ...);
int     __ompdsm_open(const char *path, int flags, ...);
ssize_t __ompdsm_write(int fd, const void *buf, size_t n);
ssize_t __ompdsm_send(int fd, const void *buf, size_t n, int flags);

/* For omp_stdio.c: the same calls on a stream of this process. */
size_t  dsm__sys_fread(void *buf, size_t size, size_t n, FILE *f);
char   *dsm__sys_fgets(char *s, int n, FILE *f);
int     dsm__sys_vfscanf(FILE *f, const char *fmt, va_list ap);
size_t  dsm__sys_fwrite(const void *buf, size_t size, size_t n, FILE *f);
void    dsm__sys_validate(const void *p, size_t n);
void    dsm__sys_validate_str(const char *s);
size_t  dsm__sys_conv_size(const char *len, char conv, long width);

/* Make [p, p+n) valid and writable in this process, page by page. */
static void open_range(void *p, size_t n)
{
  if (!dsm__started || !p || !n)
    return;
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t a = (uintptr_t)p, e = a + n;
  for (uintptr_t q = a; q < e; q = (q & ~(page - 1)) + page) {
    if (!dsm__is_shared((void *)q))
      continue;
    volatile char *b = (volatile char *)q;
    char v = *b;
    *b = v;
  }
}

#define BOUNCE (1u << 20)

static int is_shared(const void *p, size_t n)
{
  return dsm__started && p && n && (dsm__is_shared(p) || dsm__is_shared((const char *)p + n - 1));
}

/* The kernel call, given a private buffer and the offset into the request. */
typedef ssize_t (*kread_fn)(void *ctx, void *buf, size_t n, size_t done);

static ssize_t bounce(void *dst, size_t n, int regular, kread_fn fn, void *ctx)
{
  size_t chunk = n < BOUNCE ? n : BOUNCE, done = 0;
  char *tmp = malloc(chunk);
  if (!tmp) { errno = ENOMEM; return -1; }
  while (done < n) {
    size_t want = n - done < chunk ? n - done : chunk;
    ssize_t r = fn(ctx, tmp, want, done);
    if (r < 0) { free(tmp); return done ? (ssize_t)done : -1; }
    memcpy((char *)dst + done, tmp, (size_t)r);
    done += (size_t)r;
    if ((size_t)r < want || !regular) break;
  }
  free(tmp);
  return (ssize_t)done;
}

static int is_regular(int fd)
{
  struct stat st;
  return fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
}

struct fdreq { int fd, flags; off_t off; struct sockaddr *from; socklen_t *len; };

static ssize_t k_read(void *c, void *b, size_t n, size_t done) { (void)done; return read(((struct fdreq *)c)->fd, b, n); }
static ssize_t k_pread(void *c, void *b, size_t n, size_t done)
{
  struct fdreq *q = c;
  return pread(q->fd, b, n, q->off + (off_t)done);
}
static ssize_t k_recv(void *c, void *b, size_t n, size_t done)
{
  struct fdreq *q = c;
  (void)done;
  return q->from ? recvfrom(q->fd, b, n, q->flags, q->from, q->len) : recv(q->fd, b, n, q->flags);
}
static ssize_t k_fread(void *c, void *b, size_t n, size_t done) { (void)done; return (ssize_t)fread(b, 1, n, c); }

ssize_t __ompdsm_read(int fd, void *buf, size_t n)
{
  if (!is_shared(buf, n)) return read(fd, buf, n);
  struct fdreq q = { fd, 0, 0, NULL, NULL };
  return bounce(buf, n, is_regular(fd), k_read, &q);
}

ssize_t __ompdsm_pread(int fd, void *buf, size_t n, off_t off)
{
  if (!is_shared(buf, n)) return pread(fd, buf, n, off);
  struct fdreq q = { fd, 0, off, NULL, NULL };
  return bounce(buf, n, 1, k_pread, &q);
}

ssize_t __ompdsm_recv(int fd, void *buf, size_t n, int flags)
{
  if (!is_shared(buf, n)) return recv(fd, buf, n, flags);
  struct fdreq q = { fd, flags, 0, NULL, NULL };
  return bounce(buf, n, 0, k_recv, &q);
}

ssize_t __ompdsm_recvfrom(int fd, void *buf, size_t n, int flags, struct sockaddr *from, socklen_t *len)
{
  if (!is_shared(buf, n) || !from) return recvfrom(fd, buf, n, flags, from, len);
  struct fdreq q = { fd, flags, 0, from, len };
  return bounce(buf, n, 0, k_recv, &q);
}

size_t dsm__sys_fread(void *buf, size_t size, size_t n, FILE *f)
{
  if (!size || !n) return 0;
  if (!is_shared(buf, size * n)) return fread(buf, size, n, f);
  /* stdio's own loop already reads until full, end of file or error */
  ssize_t got = bounce(buf, size * n, 1, k_fread, f);
  return got < 0 ? 0 : (size_t)got / size;
}

char *dsm__sys_fgets(char *s, int n, FILE *f)
{
  if (n <= 0 || !is_shared(s, (size_t)n)) return fgets(s, n, f);
  char *tmp = malloc((size_t)n);
  if (!tmp) return fgets(s, n, f);
  char *r = fgets(tmp, n, f);
  if (r) memcpy(s, tmp, strlen(tmp) + 1);
  free(tmp);
  return r ? s : NULL;
}

/* The kernel reads a shared source (a path, a buffer to write) just as
 * well once its pages are valid, and only this process's own acquires
 * invalidate them again, so reading each page first is enough. */
void dsm__sys_validate(const void *p, size_t n)
{
  if (!dsm__started || !p || !n)
    return;
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  for (uintptr_t q = (uintptr_t)p, e = q + n; q < e; q = (q & ~(page - 1)) + page)
    if (dsm__is_shared((void *)q))
      (void)*(volatile const char *)q;
}

void dsm__sys_validate_str(const char *s)
{
  if (dsm__started && s && dsm__is_shared(s))
    dsm__sys_validate(s, strlen(s) + 1);     /* strlen faults the pages in as it goes */
}

int __ompdsm_open(const char *path, int flags, ...)
{
  va_list ap;
  va_start(ap, flags);
  int mode = flags & (O_CREAT | O_TMPFILE) ? va_arg(ap, int) : 0;
  va_end(ap);
  dsm__sys_validate_str(path);
  return open(path, flags, mode);
}

/* The kernel reading from shared memory: a page made readable first stays
 * so while this thread alone runs the protocol. With several threads per
 * process (dsm/threads.c) a sibling's acquire may invalidate it before the
 * kernel reads it (EFAULT), so the bytes go through a private copy, made at
 * user level where a fault takes the normal path. */
typedef ssize_t (*kwrite_fn)(void *ctx, const void *buf, size_t n);

static ssize_t out_bounce(const void *src, size_t n, kwrite_fn fn, void *ctx)
{
  if (dsm__threads == 1 || !is_shared(src, n)) {
    dsm__sys_validate(src, n);
    return fn(ctx, src, n);
  }
  size_t chunk = n < BOUNCE ? n : BOUNCE, done = 0;
  char *tmp = malloc(chunk);
  if (!tmp) { errno = ENOMEM; return -1; }
  while (done < n) {
    size_t want = n - done < chunk ? n - done : chunk;
    memcpy(tmp, (const char *)src + done, want);
    ssize_t r = fn(ctx, tmp, want);
    if (r < 0) { free(tmp); return done ? (ssize_t)done : -1; }
    done += (size_t)r;
    if ((size_t)r < want) break;
  }
  free(tmp);
  return (ssize_t)done;
}

struct kw { int fd, flags; };
static ssize_t k_write(void *c, const void *b, size_t n) { return write(((struct kw *)c)->fd, b, n); }
static ssize_t k_send(void *c, const void *b, size_t n)
{
  struct kw *k = c;
  return send(k->fd, b, n, k->flags);
}
static ssize_t k_fwrite(void *c, const void *b, size_t n) { return (ssize_t)fwrite(b, 1, n, c); }

ssize_t __ompdsm_write(int fd, const void *buf, size_t n)
{
  struct kw k = { fd, 0 };
  return out_bounce(buf, n, k_write, &k);
}

size_t dsm__sys_fwrite(const void *buf, size_t size, size_t n, FILE *f)
{
  if (!size || !n)
    return 0;
  ssize_t r = out_bounce(buf, size * n, k_fwrite, f);
  return r < 0 ? 0 : (size_t)r / size;
}

ssize_t __ompdsm_send(int fd, const void *buf, size_t n, int flags)
{
  struct kw k = { fd, flags };
  return out_bounce(buf, n, k_send, &k);
}

/* The bytes a scanf conversion stores through its pointer argument. */
size_t dsm__sys_conv_size(const char *len, char conv, long width)
{
  int l = 0, h = 0, big = 0;
  for (const char *c = len; *c; c++) {
    if (*c == 'l') l++;
    else if (*c == 'h') h++;
    else if (*c == 'L' || *c == 'q' || *c == 'j') big = 1;
    else if (*c == 'z' || *c == 't') l = 1;
  }
  switch (conv) {
  case 'd': case 'i': case 'o': case 'u': case 'x': case 'X': case 'n':
    return big || l ? 8 : h == 1 ? 2 : h >= 2 ? 1 : 4;
  case 'e': case 'f': case 'g': case 'a': case 'E': case 'F': case 'G': case 'A':
    return big ? sizeof(long double) : l ? 8 : 4;
  case 'c':
    return (size_t)(width > 0 ? width : 1) * (l ? sizeof(wchar_t) : 1);
  case 's': case '[':
    return (size_t)(width > 0 ? width + 1 : 1) * (l ? sizeof(wchar_t) : 1);
  case 'p':
    return sizeof(void *);
  default:
    return 0;
  }
}

static void open_scanf_args(const char *fmt, va_list ap)
{
  for (const char *p = fmt; *p; p++) {
    if (*p != '%') continue;
    p++;
    if (*p == '%') continue;
    int suppress = *p == '*';
    if (suppress) p++;
    char *end;
    long width = strtol(p, &end, 10);
    p = end;
    char len[4] = "";
    int nl = 0;
    while (*p && strchr("hlLqjzt", *p) && nl < 3) len[nl++] = *p++;
    len[nl] = 0;
    if (*p == 'm') { p++; suppress = 1; (void)va_arg(ap, void *); }   /* allocated: nothing to open */
    char conv = *p;
    if (!conv) break;
    if (conv == '[') {
      if (p[1] == ']') p++;
      if (p[1] == '^' && p[2] == ']') p += 2;
      while (p[1] && p[1] != ']') p++;
      if (p[1]) p++;
    }
    if (suppress) continue;
    void *dst = va_arg(ap, void *);
    open_range(dst, dsm__sys_conv_size(len, conv, width));
  }
}

int dsm__sys_vfscanf(FILE *f, const char *fmt, va_list ap)
{
  va_list aq;
  va_copy(aq, ap);
  open_scanf_args(fmt, aq);
  va_end(aq);
  return vfscanf(f, fmt, ap);
}

int __ompdsm_scanf(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int r = dsm__sys_vfscanf(stdin, fmt, ap);
  va_end(ap);
  return r;
}
