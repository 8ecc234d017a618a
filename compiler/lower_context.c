/*
 * lower_context.c — what the lowering passes share while they write C:
 * output buffers (Out), substitution contexts (Ctx) and the stack of
 * constructs being lowered (Frame). With lower.c, the lowering's core
 * (lower.h); what is shared where (DsEnv) is datasharing.c's.
 *
 * This module knows nothing about OpenMP or about the token stream: lower.c
 * and the omp_*.c lowerings write generated text into Outs, emit.c writes
 * the user's tokens into them, and each asks a Ctx how a symbol prints at
 * the point it is writing (its own name, "(*x)" through a pointer in an
 * outlined function, a private copy's name).
 */
#include "lower.h"
#include "ir.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Frame *frames;
int uid;
Out *prelude;
Node *cur_function;
int unit_uses_tasks;

Out *out_mem(void)
{
  Out *o = xcalloc(1, sizeof *o);
  o->f = open_memstream(&o->buf, &o->len);
  o->file = -1;
  o->need_mark = 1;
  return o;
}

char *out_take(Out *o)
{
  fclose(o->f);
  char *s = o->buf;
  free(o);
  return s;
}

void gen(Out *o, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vfprintf(o->f, fmt, ap);
  va_end(ap);
}

void gen_once(Out *o, const char *fmt, ...)
{
  /* The flag is generated, so not placed in shared memory: each process
   * makes the call once. Threads of a process test it together: the one
   * that swaps it makes the call (a plain test and set was a data race
   * that ThreadSanitizer reported in every program with critical or a
   * named local, two threads per process). */
  int id = ++uid;
  gen(o, " { static int __ompdsm_once%d; if (!__atomic_load_n(&__ompdsm_once%d, __ATOMIC_ACQUIRE) &&"
         " !__atomic_exchange_n(&__ompdsm_once%d, 1, __ATOMIC_ACQ_REL)) { ", id, id, id);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(o->f, fmt, ap);
  va_end(ap);
  gen(o, "; } }");
}

char *c_escape(const char *s)
{
  char *out = xcalloc(1, 4 * strlen(s) + 1), *d = out;
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') { *d++ = '\\'; *d++ = *s; }
    else if ((unsigned char)*s < 0x20) *d++ = '?';
    else *d++ = *s;
  }
  return out;
}

Ctx *ctx_add(Ctx *up, Sym *s, const char *repl)
{
  Ctx *c = xcalloc(1, sizeof *c);
  c->sym = s;
  c->repl = xstrdup(repl);
  c->up = up;
  return c;
}

const char *sym_text(Ctx *ctx, Sym *s)
{
  for (Ctx *c = ctx; c; c = c->up)
    if (c->sym == s) return c->repl;
  return s->name;
}

int frame_find(int kind, int stop_at_parallel)
{
  for (Frame *f = frames; f; f = f->up) {
    if (stop_at_parallel && f->kind == OMP_PARALLEL) return 0;
    if (f->kind == kind) return 1;
  }
  return 0;
}

void frame_push(int kind, const char *name)
{
  Frame *f = xcalloc(1, sizeof *f);
  f->kind = kind;
  f->name = name;
  f->up = frames;
  frames = f;
}

void frame_pop(void)
{
  Frame *f = frames;
  frames = f->up;
  free(f);
}
