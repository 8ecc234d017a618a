/*
 * omp_stdio.c — stdio streams used by every process of a job, for programs
 * built by ompdsmcc (which renames the calls that take a FILE * to these
 * wrappers).
 *
 * A FILE lives in the private heap of the process that opened it; in any
 * other process its address means nothing, or names some other FILE. So a
 * call on a stream this process does not own is shipped, as one request, to
 * the process that does, which makes the libc call and answers with the
 * result. Writes are formatted here and travel as bytes; reads come back as
 * bytes and are stored here, from user level (the destination may be
 * shared). The caller waits for the answer: a shipped write is in the
 * owner's stream before the caller's next synchronization, so it comes
 * before anything the owner writes after synchronizing with the caller.
 *
 * Who owns a stream. Every stream opened through fopen, fdopen or tmpfile
 * is registered with rank 0, which keeps the job's table of (address,
 * owner) and routes requests: it serves the streams it owns and forwards
 * the others to their owners (a forwarded request keeps its origin, and the
 * owner answers the origin directly). Rank 0 reaches an owner directly.
 * Two processes can get the same address for different streams (their
 * heaps are separate), so registration refuses an address another process
 * holds, and the opener moves its stream to another address (a new FILE on
 * a dup of the descriptor): an address names one stream in the whole job.
 *
 * stdin, stdout and stderr belong to every process (dsmrun forwards each
 * one's output): a call on rank 0's std stream, stored in shared memory by
 * the master, is made on this process's own.
 *
 * Owners make shipped calls on a worker thread, not on the transport's
 * service thread: the owner's own thread may hold a FILE's lock while it
 * faults on a shared page (fprintf of a shared string), and that fault is
 * served through the service thread; a service thread waiting for the lock
 * would stop the owner for good. Calls on streams of this process go to
 * libc (through omp_syscall.c where shared memory needs care), unchanged.
 *
 * Not covered: streams from popen, fmemopen, open_memstream or code not
 * built by ompdsmcc are not registered, and another process using one
 * makes the call on the address it was given. A remote fscanf has at most
 * MAX_SLOTS conversions, no %m, and reads at most STR_MAX-1 characters for
 * a %s or %[ without a width.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dsm_internal.h"
#include "net/transport.h"

/* omp_syscall.c: the calls on a stream of this process, with shared memory
 * handled (bounce buffers, pages validated before the kernel reads them). */
size_t  dsm__sys_fread(void *buf, size_t size, size_t n, FILE *f);
char   *dsm__sys_fgets(char *s, int n, FILE *f);
int     dsm__sys_vfscanf(FILE *f, const char *fmt, va_list ap);
size_t  dsm__sys_fwrite(const void *buf, size_t size, size_t n, FILE *f);
void    dsm__sys_validate_str(const char *s);
size_t  dsm__sys_conv_size(const char *len, char conv, long width);

void dsm__stdio_init(void);

/* The entry points generated code calls (declared by ompdsmcc's prelude). */
FILE   *__ompdsm_fopen(const char *path, const char *mode);
FILE   *__ompdsm_fdopen(int fd, const char *mode);
FILE   *__ompdsm_tmpfile(void);
int     __ompdsm_fclose(FILE *f);
int     __ompdsm_fflush(FILE *f);
int     __ompdsm_vfprintf(FILE *f, const char *fmt, va_list ap);
int     __ompdsm_fprintf(FILE *f, const char *fmt, ...);
int     __ompdsm_fputs(const char *s, FILE *f);
int     __ompdsm_fputc(int c, FILE *f);
int     __ompdsm_putc(int c, FILE *f);
size_t  __ompdsm_fwrite(const void *buf, size_t size, size_t n, FILE *f);
size_t  __ompdsm_fread(void *buf, size_t size, size_t n, FILE *f);
char   *__ompdsm_fgets(char *s, int n, FILE *f);
int     __ompdsm_fgetc(FILE *f);
int     __ompdsm_getc(FILE *f);
int     __ompdsm_ungetc(int c, FILE *f);
int     __ompdsm_vfscanf(FILE *f, const char *fmt, va_list ap);
int     __ompdsm_fscanf(FILE *f, const char *fmt, ...);
int     __ompdsm_fseek(FILE *f, long off, int whence);
long    __ompdsm_ftell(FILE *f);
void    __ompdsm_rewind(FILE *f);
int     __ompdsm_feof(FILE *f);
int     __ompdsm_ferror(FILE *f);
void    __ompdsm_clearerr(FILE *f);

/* ---- the request ------------------------------------------------------------ */

enum { OP_REG, OP_UNREG, OP_WRITE, OP_FLUSH, OP_CLOSE, OP_SEEK, OP_REWIND, OP_TELL,
       OP_READ, OP_GETS, OP_GETC, OP_UNGETC, OP_SCANF, OP_EOF, OP_ERROR, OP_CLEARERR, OP_COUNT };

/* How a reply says the call went: made by the owner, or to be made here,
 * on the stream as given (nobody registered it) or on our own std stream k
 * (HOW_STD + k). */
enum { HOW_DONE, HOW_LOCAL, HOW_STD };

struct sreq { uint32_t op; uint32_t pad; uint64_t file; int64_t a, b; };  /* + payload */
struct srep { int64_t ret; int32_t err, how; };                          /* + payload */

#define CHUNK   (16u << 20)   /* bytes of one shipped write or read */
#define STR_MAX 4096          /* a remote %s or %[ without a width */
#define MAX_SLOTS 32          /* stores of one remote fscanf */

/* ---- who owns what ------------------------------------------------------------ */

/* On rank 0, every registered stream of the job; elsewhere, this process's. */
struct entry { uint64_t file; unsigned owner; struct entry *next; };
static struct entry *streams;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
/* Rank 0's std streams, as met in shared memory: a cache the threads of a
 * process share, read and written atomically (a miss only asks rank 0). */
static FILE *rank0_std[3];

static int distributed(void) { return dsm__started && dsm__nprocs > 1; }
static FILE *std_stream(int k) { return k == 0 ? stdin : k == 1 ? stdout : stderr; }
static int std_index(FILE *f) { return f == stdin ? 0 : f == stdout ? 1 : f == stderr ? 2 : -1; }

static struct entry **find(uint64_t file)     /* under mu */
{
  struct entry **e = &streams;
  while (*e && (*e)->file != file) e = &(*e)->next;
  return e;
}

/* Owner of file (-1: nobody registered it); a close takes it off the table
 * at once, since nobody may use the stream after asking to close it. */
static int owner_of(uint64_t file, int closing)
{
  pthread_mutex_lock(&mu);
  struct entry **e = find(file), *x = *e;
  int owner = x ? (int)x->owner : -1;
  if (x && closing) { *e = x->next; free(x); }
  pthread_mutex_unlock(&mu);
  return owner;
}

/* Rank 0: add (file, owner) unless another process holds the address. */
static int table_add(uint64_t file, unsigned owner)
{
  pthread_mutex_lock(&mu);
  struct entry **e = find(file);
  int ok = !*e || (*e)->owner == owner;
  if (!*e) {
    struct entry *x = malloc(sizeof *x);
    if (!x) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
    *x = (struct entry){ file, owner, NULL };
    *e = x;
  }
  pthread_mutex_unlock(&mu);
  return ok;
}

static void table_drop(uint64_t file, unsigned owner)
{
  pthread_mutex_lock(&mu);
  struct entry **e = find(file), *x = *e;
  if (x && x->owner == owner) { *e = x->next; free(x); }
  pthread_mutex_unlock(&mu);
}

/* The stream to use in this process for f, or NULL when another process
 * owns it. Rank 0 knows every registered stream: one it does not know is
 * its own (popen, a library's). Others know only their own and ask rank 0. */
static FILE *here(FILE *f)
{
  if (!distributed() || !f || std_index(f) >= 0) return f;
  for (int k = 0; k < 3; k++)
    if (__atomic_load_n(&rank0_std[k], __ATOMIC_RELAXED) == f) return std_stream(k);
  int owner = owner_of((uintptr_t)f, 0);
  if (owner == (int)dsm__rank || (owner < 0 && dsm__rank == 0)) return f;
  return NULL;
}

/* ---- shipping a call ------------------------------------------------------------ */

/* One request for the call op on *f, which here() said is not ours. Returns
 * the reply (its payload follows the srep; free it) when the owner made the
 * call, with errno set from it; NULL when the call is to be made here, on
 * *f as updated. */
static struct srep *ship(FILE **f, int op, int64_t a, int64_t b, const void *data, size_t len, size_t *out_len)
{
  unsigned dst = 0;
  if (dsm__rank == 0) {
    int owner = owner_of((uintptr_t)*f, op == OP_CLOSE);
    if (owner < 0) return NULL;
    dst = (unsigned)owner;
  }
  /* the payload may be shared memory: copied here, where faults are served */
  char *req = malloc(sizeof(struct sreq) + len);
  if (!req) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  struct sreq q = { (uint32_t)op, 0, (uintptr_t)*f, a, b };
  memcpy(req, &q, sizeof q);
  if (len) memcpy(req + sizeof q, data, len);
  void *reply = NULL;
  size_t rlen = 0;
  dsm__tp_call(dst, DSM__MSG_STDIO, req, sizeof q + len, &reply, &rlen);
  free(req);
  struct srep *r = reply;
  if (rlen < sizeof *r)
    dsm__fatal(DSM__EXIT_FATAL, "malformed STDIO reply");
  if (r->how == HOW_LOCAL) { free(r); return NULL; }
  if (r->how >= HOW_STD && r->how < HOW_STD + 3) {
    __atomic_store_n(&rank0_std[r->how - HOW_STD], *f, __ATOMIC_RELAXED);
    *f = std_stream(r->how - HOW_STD);
    free(r);
    return NULL;
  }
  if (r->err) errno = r->err;
  if (out_len) *out_len = rlen - sizeof *r;
  return r;
}

/* A call whose whole answer is its return value. */
static int ship_ret(FILE **f, int op, int64_t a, int64_t b, int64_t *ret)
{
  struct srep *r = ship(f, op, a, b, NULL, 0, NULL);
  if (!r) return 0;
  *ret = r->ret;
  free(r);
  return 1;
}

/* Writes n bytes to *f's owner in chunks; returns the bytes written, or -1
 * when the stream turned out to be ours (*f updated). */
static int64_t ship_write(FILE **f, const void *buf, size_t n)
{
  size_t done = 0;
  do {
    size_t want = n - done < CHUNK ? n - done : CHUNK;
    struct srep *r = ship(f, OP_WRITE, 0, 0, (const char *)buf + done, want, NULL);
    if (!r) return done ? (int64_t)done : -1;
    int64_t got = r->ret;
    free(r);
    done += got > 0 ? (size_t)got : 0;
    if ((size_t)(got > 0 ? got : 0) < want) break;
  } while (done < n);
  return (int64_t)done;
}

/* ---- registration -------------------------------------------------------------- */

static int reg(FILE *f, int op)
{
  if (dsm__rank == 0) {
    if (op == OP_REG) return table_add((uintptr_t)f, 0);
    table_drop((uintptr_t)f, 0);
    return 1;
  }
  struct sreq q = { (uint32_t)op, 0, (uintptr_t)f, 0, 0 };
  void *reply = NULL;
  size_t rlen = 0;
  dsm__tp_call(0, DSM__MSG_STDIO, &q, sizeof q, &reply, &rlen);
  struct srep r;
  if (rlen < sizeof r) dsm__fatal(DSM__EXIT_FATAL, "malformed STDIO reply");
  memcpy(&r, reply, sizeof r);
  free(reply);
  if (r.ret && op == OP_REG) {
    pthread_mutex_lock(&mu);
    struct entry **e = find((uintptr_t)f);
    if (!*e) {
      struct entry *x = malloc(sizeof *x);
      if (!x) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
      *x = (struct entry){ (uintptr_t)f, dsm__rank, NULL };
      *e = x;
    }
    pthread_mutex_unlock(&mu);
  }
  if (op == OP_UNREG) table_drop((uintptr_t)f, dsm__rank);
  return (int)r.ret;
}

/* Registers a stream just opened, moving it to another address while the
 * one it has is another process's. mode is what fdopen needs to make the
 * same stream again. */
static FILE *claim(FILE *f, const char *mode)
{
  if (!f || !distributed()) return f;
  FILE *held[8];
  int nheld = 0;
  while (!reg(f, OP_REG)) {
    /* held keeps the old FILE alive, so the new one cannot take its address */
    int fd = fileno(f), nfd = fd >= 0 ? fcntl(fd, F_DUPFD_CLOEXEC, 0) : -1;
    if (nfd >= 0 && !(fcntl(fd, F_GETFD) & FD_CLOEXEC)) fcntl(nfd, F_SETFD, 0);
    FILE *g = nfd >= 0 ? fdopen(nfd, mode) : NULL;
    if (!g || nheld == (int)(sizeof held / sizeof *held)) {
      dsm__fatal(DSM__EXIT_FATAL, "stdio: no address for a new stream that no other process holds");
    }
    held[nheld++] = f;
    f = g;
  }
  while (nheld) fclose(held[--nheld]);   /* just opened: nothing buffered */
  return f;
}

/* fdopen's mode for a stream fopen opened with mode: the access only (the
 * file exists now, and 'x' or truncation must not happen again). */
static const char *reopen_mode(const char *mode)
{
  int plus = strchr(mode, '+') != NULL;
  switch (mode[0]) {
  case 'w': return plus ? "w+" : "w";
  case 'a': return plus ? "a+" : "a";
  default:  return plus ? "r+" : "r";
  }
}

FILE *__ompdsm_fopen(const char *path, const char *mode)
{
  dsm__sys_validate_str(path);
  dsm__sys_validate_str(mode);
  return claim(fopen(path, mode), reopen_mode(mode));
}

FILE *__ompdsm_fdopen(int fd, const char *mode)
{
  dsm__sys_validate_str(mode);
  return claim(fdopen(fd, mode), reopen_mode(mode));
}

FILE *__ompdsm_tmpfile(void) { return claim(tmpfile(), "w+"); }

int __ompdsm_fclose(FILE *f)
{
  FILE *g = here(f);
  if (!g) {
    int64_t ret;
    if (ship_ret(&f, OP_CLOSE, 0, 0, &ret)) return (int)ret;
    g = f;
  }
  if (distributed() && std_index(g) < 0) reg(g, OP_UNREG);
  return fclose(g);
}

/* ---- writes ----------------------------------------------------------------------- */

int __ompdsm_vfprintf(FILE *f, const char *fmt, va_list ap)
{
  FILE *g = here(f);
  if (g) return vfprintf(g, fmt, ap);
  char *s = NULL;
  int n = vasprintf(&s, fmt, ap);
  if (n < 0) return -1;
  int64_t w = ship_write(&f, s, (size_t)n);
  if (w < 0) w = (int64_t)fwrite(s, 1, (size_t)n, f);
  free(s);
  return w == n ? n : -1;
}

int __ompdsm_fprintf(FILE *f, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int r = __ompdsm_vfprintf(f, fmt, ap);
  va_end(ap);
  return r;
}

int __ompdsm_fputs(const char *s, FILE *f)
{
  FILE *g = here(f);
  if (g) { dsm__sys_validate_str(s); return fputs(s, g); }
  size_t n = strlen(s);
  int64_t w = ship_write(&f, s, n);
  if (w < 0) { dsm__sys_validate_str(s); return fputs(s, f); }
  return (size_t)w == n ? 1 : EOF;
}

int __ompdsm_fputc(int c, FILE *f)
{
  FILE *g = here(f);
  if (g) return fputc(c, g);
  unsigned char b = (unsigned char)c;
  int64_t w = ship_write(&f, &b, 1);
  if (w < 0) return fputc(c, f);
  return w == 1 ? b : EOF;
}

int __ompdsm_putc(int c, FILE *f) { return __ompdsm_fputc(c, f); }

size_t __ompdsm_fwrite(const void *buf, size_t size, size_t n, FILE *f)
{
  FILE *g = here(f);
  if (g || !size || !n) return dsm__sys_fwrite(buf, size, n, g ? g : f);
  int64_t w = ship_write(&f, buf, size * n);
  if (w < 0) return dsm__sys_fwrite(buf, size, n, f);
  return (size_t)w / size;
}

int __ompdsm_fflush(FILE *f)
{
  if (!f) return fflush(NULL);     /* this process's streams */
  FILE *g = here(f);
  int64_t ret;
  if (!g && ship_ret(&f, OP_FLUSH, 0, 0, &ret)) return (int)ret;
  return fflush(g ? g : f);
}

/* ---- reads ------------------------------------------------------------------------ */

size_t __ompdsm_fread(void *buf, size_t size, size_t n, FILE *f)
{
  FILE *g = here(f);
  if (g || !size || !n) return dsm__sys_fread(buf, size, n, g ? g : f);
  size_t total = size * n, done = 0;
  while (done < total) {
    size_t want = total - done < CHUNK ? total - done : CHUNK, got = 0;
    struct srep *r = ship(&f, OP_READ, (int64_t)want, 0, NULL, 0, &got);
    if (!r) return done ? done / size : dsm__sys_fread(buf, size, n, f);
    if (got > want) got = want;
    memcpy((char *)buf + done, r + 1, got);
    free(r);
    done += got;
    if (got < want) break;
  }
  return done / size;
}

char *__ompdsm_fgets(char *s, int n, FILE *f)
{
  FILE *g = here(f);
  if (g || n <= 0) return dsm__sys_fgets(s, n, g ? g : f);
  size_t got = 0;
  struct srep *r = ship(&f, OP_GETS, n, 0, NULL, 0, &got);
  if (!r) return dsm__sys_fgets(s, n, f);
  char *ret = NULL;
  if (r->ret && got > 0 && got <= (size_t)n) {
    memcpy(s, r + 1, got);
    s[got - 1] = 0;
    ret = s;
  }
  free(r);
  return ret;
}

int __ompdsm_fgetc(FILE *f)
{
  FILE *g = here(f);
  int64_t ret;
  if (!g && ship_ret(&f, OP_GETC, 0, 0, &ret)) return (int)ret;
  return fgetc(g ? g : f);
}

int __ompdsm_getc(FILE *f) { return __ompdsm_fgetc(f); }

int __ompdsm_ungetc(int c, FILE *f)
{
  FILE *g = here(f);
  int64_t ret;
  if (!g && ship_ret(&f, OP_UNGETC, c, 0, &ret)) return (int)ret;
  return ungetc(c, g ? g : f);
}

/* A remote fscanf: the owner converts into buffers of its own (one slot per
 * conversion that stores) and sends them back; they are stored here. */
struct slot { size_t off, size; char conv; };

/* fmt with a width given to every %s and %[ that has none (the owner's
 * buffer has a size), and its slots; NULL for what cannot be shipped. */
static char *scan_plan(const char *fmt, struct slot *sl, int *nslots, size_t *total)
{
  char *out = malloc(strlen(fmt) * 3 + 1), *o = out;
  if (!out) return NULL;
  int n = 0;
  size_t off = 0;
  for (const char *p = fmt; *p;) {
    if (*p != '%') { *o++ = *p++; continue; }
    *o++ = *p++;
    if (*p == '%') { *o++ = *p++; continue; }
    int suppress = *p == '*';
    if (suppress) *o++ = *p++;
    char *end;
    long width = strtol(p, &end, 10);
    while (p < end) *o++ = *p++;
    char len[4] = "";
    int nl = 0;
    while (*p && strchr("hlLqjzt", *p) && nl < 3) len[nl++] = *o++ = *p++;
    len[nl] = 0;
    if (*p == 'm' || !*p) goto bad;
    char conv = *p;
    if ((conv == 's' || conv == '[') && width <= 0 && !suppress) {
      /* the width goes before the length modifiers */
      o -= nl;
      width = STR_MAX - 1;
      o += sprintf(o, "%ld", width);
      memcpy(o, len, (size_t)nl);
      o += nl;
    }
    *o++ = *p++;
    if (conv == '[') {
      if (*p == '^') *o++ = *p++;
      if (*p == ']') *o++ = *p++;
      while (*p && *p != ']') *o++ = *p++;
      if (!*p) goto bad;
      *o++ = *p++;
    }
    if (suppress) continue;
    size_t size = dsm__sys_conv_size(len, conv, width);
    if (!size || n == MAX_SLOTS) goto bad;
    sl[n++] = (struct slot){ off, size, conv };
    off += (size + 15) & ~(size_t)15;
  }
  *o = 0;
  *nslots = n;
  *total = off;
  return out;
bad:
  free(out);
  return NULL;
}

/* The owner's side: fscanf into the slots. A variadic call takes more
 * arguments than its format uses (C11 7.21.6.2p2), so one call with
 * MAX_SLOTS pointers serves any format. */
static int64_t scan_here(FILE *f, const char *fmt, char **buf, size_t *len)
{
  struct slot sl[MAX_SLOTS];
  int n = 0;
  size_t total = 0;
  char *plan = scan_plan(fmt, sl, &n, &total);
  if (!plan) { errno = EINVAL; return EOF; }
  free(plan);   /* the origin already planned fmt: it is its own plan */
  char *b = calloc(1, total + 1);
  if (!b) { errno = ENOMEM; return EOF; }
  void *p[MAX_SLOTS];
  for (int i = 0; i < MAX_SLOTS; i++) p[i] = b + (i < n ? sl[i].off : 0);
  int r = fscanf(f, fmt, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], p[8], p[9], p[10],
                 p[11], p[12], p[13], p[14], p[15], p[16], p[17], p[18], p[19], p[20], p[21],
                 p[22], p[23], p[24], p[25], p[26], p[27], p[28], p[29], p[30], p[31]);
  *buf = b;
  *len = total;
  return r;
}

int __ompdsm_vfscanf(FILE *f, const char *fmt, va_list ap)
{
  FILE *g = here(f);
  if (g) return dsm__sys_vfscanf(g, fmt, ap);
  struct slot sl[MAX_SLOTS];
  int n = 0;
  size_t total = 0;
  char *plan = scan_plan(fmt, sl, &n, &total);
  if (!plan) { errno = EINVAL; return EOF; }
  size_t got = 0;
  struct srep *r = ship(&f, OP_SCANF, 0, 0, plan, strlen(plan) + 1, &got);
  free(plan);
  if (!r) return dsm__sys_vfscanf(f, fmt, ap);
  int ret = (int)r->ret;
  const char *b = (const char *)(r + 1);
  /* conversions are assigned in order: the first ret that count, and a %n
     once every conversion before it was */
  int counted = 0;
  for (int i = 0; i < n && ret > 0 && got >= total; i++) {
    void *dst = va_arg(ap, void *);
    int is_n = sl[i].conv == 'n';
    if (!is_n && counted == ret) break;
    const char *src = b + sl[i].off;
    if (sl[i].conv == 's' || sl[i].conv == '[')
      memcpy(dst, src, strnlen(src, sl[i].size - 1) + 1);
    else
      memcpy(dst, src, sl[i].size);
    if (!is_n) counted++;
  }
  free(r);
  return ret;
}

int __ompdsm_fscanf(FILE *f, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int r = __ompdsm_vfscanf(f, fmt, ap);
  va_end(ap);
  return r;
}

/* ---- position and state ---------------------------------------------------------- */

int __ompdsm_fseek(FILE *f, long off, int whence)
{
  FILE *g = here(f);
  int64_t ret;
  if (!g && ship_ret(&f, OP_SEEK, off, whence, &ret)) return (int)ret;
  return fseek(g ? g : f, off, whence);
}

long __ompdsm_ftell(FILE *f)
{
  FILE *g = here(f);
  int64_t ret;
  if (!g && ship_ret(&f, OP_TELL, 0, 0, &ret)) return (long)ret;
  return ftell(g ? g : f);
}

void __ompdsm_rewind(FILE *f)
{
  FILE *g = here(f);
  int64_t ret;
  if (!g && ship_ret(&f, OP_REWIND, 0, 0, &ret)) return;
  rewind(g ? g : f);
}

int __ompdsm_feof(FILE *f)
{
  FILE *g = here(f);
  int64_t ret;
  if (!g && ship_ret(&f, OP_EOF, 0, 0, &ret)) return (int)ret;
  return feof(g ? g : f);
}

int __ompdsm_ferror(FILE *f)
{
  FILE *g = here(f);
  int64_t ret;
  if (!g && ship_ret(&f, OP_ERROR, 0, 0, &ret)) return (int)ret;
  return ferror(g ? g : f);
}

void __ompdsm_clearerr(FILE *f)
{
  FILE *g = here(f);
  int64_t ret;
  if (!g && ship_ret(&f, OP_CLEARERR, 0, 0, &ret)) return;
  clearerr(g ? g : f);
}

/* ---- the owner's side ---------------------------------------------------------- */

struct job { dsm__reqh_t h; struct sreq q; char *data; size_t len; struct job *next; };
static struct job *jobs, **jobs_tail = &jobs;
static pthread_cond_t jobs_cv = PTHREAD_COND_INITIALIZER;
static int worker_running;

static void reply(dsm__reqh_t h, int64_t ret, int err, int how, const void *data, size_t len)
{
  struct srep r = { ret, err, how };
  const void *bufs[2] = { &r, data };
  size_t lens[2] = { sizeof r, len };
  dsm__tp_replyv(h, bufs, lens, data && len ? 2 : 1);
}

/* One shipped call on a stream of this process. */
static void perform(struct job *j)
{
  FILE *f = (FILE *)(uintptr_t)j->q.file;
  char *out = NULL;
  size_t out_len = 0;
  int64_t ret = 0;
  errno = 0;
  switch (j->q.op) {
  case OP_WRITE:    ret = (int64_t)fwrite(j->data, 1, j->len, f); break;
  case OP_FLUSH:    ret = fflush(f); break;
  case OP_CLOSE:    ret = fclose(f); break;
  case OP_SEEK:     ret = fseek(f, (long)j->q.a, (int)j->q.b); break;
  case OP_REWIND:   rewind(f); break;
  case OP_TELL:     ret = ftell(f); break;
  case OP_GETC:     ret = fgetc(f); break;
  case OP_UNGETC:   ret = ungetc((int)j->q.a, f); break;
  case OP_EOF:      ret = feof(f); break;
  case OP_ERROR:    ret = ferror(f); break;
  case OP_CLEARERR: clearerr(f); break;
  case OP_READ:
    out = malloc(j->q.a > 0 ? (size_t)j->q.a : 1);
    if (out) out_len = fread(out, 1, (size_t)j->q.a, f);
    ret = (int64_t)out_len;
    break;
  case OP_GETS:
    out = malloc((size_t)j->q.a);
    if (out && fgets(out, (int)j->q.a, f)) { out_len = strlen(out) + 1; ret = 1; }
    break;
  case OP_SCANF:
    if (!j->len || j->data[j->len - 1]) dsm__fatal(DSM__EXIT_FATAL, "malformed STDIO scanf format");
    ret = scan_here(f, j->data, &out, &out_len);
    break;
  }
  reply(j->h, ret, errno, HOW_DONE, out, out_len);
  free(out);
}

static void *worker(void *unused)
{
  (void)unused;
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL);   /* the program's signals are for its own thread */
  for (;;) {
    pthread_mutex_lock(&mu);
    while (!jobs) pthread_cond_wait(&jobs_cv, &mu);
    struct job *j = jobs;
    jobs = j->next;
    if (!jobs) jobs_tail = &jobs;
    pthread_mutex_unlock(&mu);
    perform(j);
    free(j->data);
    free(j);
  }
  return NULL;
}

static void enqueue(const dsm__msg_t *m, const struct sreq *q)
{
  struct job *j = calloc(1, sizeof *j);
  if (!j) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  j->h = dsm__reqh(m);
  j->q = *q;
  j->len = m->len - sizeof *q;
  j->data = malloc(j->len + 1);
  if (!j->data) dsm__fatal(DSM__EXIT_FATAL, "out of private memory");
  memcpy(j->data, (const char *)m->data + sizeof *q, j->len);
  pthread_mutex_lock(&mu);
  *jobs_tail = j;
  jobs_tail = &j->next;
  if (!worker_running) {
    pthread_t t;
    if (pthread_create(&t, NULL, worker, NULL))
      dsm__fatal(DSM__EXIT_FATAL, "stdio: cannot start the worker thread");
    pthread_detach(t);
    worker_running = 1;
  }
  pthread_cond_signal(&jobs_cv);
  pthread_mutex_unlock(&mu);
}

/* Rank 0 registers and routes; an owner queues the call for its worker. */
static void on_stdio(const dsm__msg_t *m)
{
  struct sreq q;
  if (m->len < sizeof q)
    dsm__fatal(DSM__EXIT_FATAL, "malformed STDIO request from rank %u", m->origin);
  memcpy(&q, m->data, sizeof q);
  if (q.op >= OP_COUNT)
    dsm__fatal(DSM__EXIT_FATAL, "unknown STDIO operation %u from rank %u", q.op, m->origin);
  dsm__reqh_t h = dsm__reqh(m);
  if (q.op == OP_REG || q.op == OP_UNREG) {
    if (dsm__rank != 0) dsm__fatal(DSM__EXIT_FATAL, "STDIO registration sent to rank %u", dsm__rank);
    int ok = 1;
    if (q.op == OP_REG) ok = table_add(q.file, m->origin);
    else table_drop(q.file, m->origin);
    reply(h, ok, 0, HOW_DONE, NULL, 0);
    return;
  }
  if (dsm__rank == 0 && m->origin != 0) {
    FILE *f = (FILE *)(uintptr_t)q.file;
    int k = std_index(f);
    if (k >= 0) { reply(h, 0, 0, HOW_STD + k, NULL, 0); return; }
    int owner = owner_of(q.file, q.op == OP_CLOSE);
    if (owner < 0) reply(h, 0, 0, HOW_LOCAL, NULL, 0);
    else if (owner != 0) dsm__tp_forward(h, (unsigned)owner, m->data, m->len);
    else enqueue(m, &q);
    return;
  }
  /* ours, from rank 0 or forwarded by it; a stream closed meanwhile is
     the caller's race, answered as libc would answer a closed stream */
  int owner = owner_of(q.file, q.op == OP_CLOSE);
  if (owner != (int)dsm__rank) reply(h, -1, EBADF, HOW_DONE, NULL, 0);
  else enqueue(m, &q);
}

void dsm__stdio_init(void)
{
  dsm__tp_handle(DSM__MSG_STDIO, on_stdio);
}
