/*
 * emit.c — print the translation unit back as C, lowering OpenMP on the way.
 *
 * The output is the user's token stream, printed back with line markers,
 * with each OpenMP construct replaced by generated C (omp_*.c). Identifier
 * uses print through a substitution context (Ctx: symbol -> text), so the
 * same body prints correctly inline, outlined or nested. Functions holding
 * parallel regions are printed into a buffer so that the outlined
 * functions, produced while printing, can be placed in front of them.
 */
#include "ir.h"
#include "parser.h"
#include "../include/ompdsm_rt.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

Frame *frames;
int uid;
Out *prelude;
void emit_range(Out *o, int a, int b, Ctx *ctx);

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

void gen(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void gen(Out *o, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vfprintf(o->f, fmt, ap);
  va_end(ap);
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

static int is_malloc_family(const char *s)
{
  return !strcmp(s, "malloc") || !strcmp(s, "calloc") || !strcmp(s, "realloc") ||
         !strcmp(s, "free") || !strcmp(s, "strdup");
}

static void mark(Out *o, int file, int line)
{
  if (file_sys[file]) fprintf(o->f, "\n# %d \"%s\" 3\n", line, files[file]);
  else fprintf(o->f, "\n#line %d \"%s\"\n", line, files[file]);
  o->file = file;
  o->line = line;
  o->need_mark = 0;
}

static void emit_tok(Out *o, int i, Ctx *ctx)
{
  Token *t = &toks[i];
  if (t->pre) { fprintf(o->f, "\n%s", t->pre); o->need_mark = 1; }
  if (!t->text[0]) return;
  if (o->need_mark || t->file != o->file || t->line < o->line || t->line > o->line + 8)
    mark(o, t->file, t->line);
  while (o->line < t->line) { fputc('\n', o->f); o->line++; }
  fputc(' ', o->f);
  const char *text = t->text;
  if (t->kind == IDENTIFIER && !t->is_member) {
    if (t->is_use && t->sym) text = sym_text(ctx, t->sym);
    if (t->is_use && (!t->sym || t->sym->depth == 0) && is_malloc_family(t->text))
      fprintf(o->f, "__ompdsm_");
    if (!strcmp(t->text, "main") && (!t->sym || t->sym->depth == 0)) text = "__ompdsm_user_main";
  }
  fputs(text, o->f);
  if (t->post) fprintf(o->f, " %s", t->post);
  Sym *y = t->attr_sym;
  if (y && !y->threadprivate && !y->is_const && !y->is_thread && !(y->is_extern && !y->has_init))
    fputs(y->has_init ? " __attribute__((section(\"dsm_shared_data\"), used))"
                      : " __attribute__((section(\"dsm_shared_bss,\\\"aw\\\",@nobits#\"), used))", o->f);
}

/* Print a span into a fresh string (for expressions inside generated code). */
char *span_text(int a, int b, Ctx *ctx)
{
  Out *o = out_mem();
  o->need_mark = 0;
  for (int i = a; i <= b; i++) {
    Token *t = &toks[i];
    const char *text = t->text;
    if (t->kind == IDENTIFIER && t->is_use && t->sym && !t->is_member) text = sym_text(ctx, t->sym);
    fprintf(o->f, " %s", text);
  }
  return out_take(o);
}

/* The declaration of s, with its name replaced: "int (*x)[10]" from "static int x[10]". */
char *decl_text(Sym *s, const char *name)
{
  Out *o = out_mem();
  for (int i = s->spec_ft; i <= s->spec_lt; i++) {
    int k = toks[i].kind;
    if (k == STATIC || k == EXTERN || k == REGISTER || k == AUTO || k == TYPEDEF || k == THREAD_LOCAL || k == INLINE) continue;
    fprintf(o->f, " %s", toks[i].text);
  }
  for (int i = s->decl_ft; i <= s->decl_lt; i++)
    fprintf(o->f, " %s", i == s->ident ? name : toks[i].text);
  return out_take(o);
}
int frame_find(int kind, int stop_at_parallel)
{
  for (Frame *f = frames; f; f = f->up) {
    if (stop_at_parallel && f->kind == OMP_PARALLEL) return 0;
    if (f->kind == kind) return 1;
  }
  return 0;
}

void push(int kind, const char *name) { Frame *f = xcalloc(1, sizeof *f); f->kind = kind; f->name = name; f->up = frames; frames = f; }
void pop(void) { Frame *f = frames; frames = f->up; free(f); }
static void lower_omp(Out *o, Node *n, Ctx *ctx)
{
  Omp *om = n->omp;
  switch (om->kind) {
  case OMP_PARALLEL: case OMP_PARALLEL_FOR: case OMP_PARALLEL_SECTIONS:
    omp_lower_parallel(o, n, om, ctx);
    return;
  case OMP_FOR: omp_lower_for(o, n, om, ctx); return;
  case OMP_SECTIONS: omp_lower_sections(o, n, om, ctx); return;
  case OMP_SECTION:
    error_at(om->tok + 1, "'omp section' outside 'omp sections'");
    return;
  case OMP_SINGLE: omp_lower_single(o, n, om, ctx); return;
  case OMP_MASTER: omp_lower_master(o, n, om, ctx); return;
  default: omp_lower_sync(o, n, om, ctx); return;
  }
}

void emit_range(Out *o, int a, int b, Ctx *ctx)
{
  for (int i = a; i <= b; i++) {
    Node *n = toks[i].node;
    if (n && n->kind == N_OMP) {
      if (toks[i].pre) { fprintf(o->f, "\n%s", toks[i].pre); o->need_mark = 1; }
      lower_omp(o, n, ctx);
      i = n->lt;
      continue;
    }
    emit_tok(o, i, ctx);
  }
}

/* The runtime entry points, declared with compiler-builtin types only: the
   user's preprocessed headers are already in the file, and including
   ompdsm_rt.h (with stdint.h) again would redefine their typedefs. */
static void emit_prelude(FILE *out)
{
  fprintf(out,
    "/* generated by ompdsmcc from the user's source; see ompdsm_rt.h */\n"
    "void __ompdsm_main(int (*)(int, char **), int, char **) __attribute__((noreturn));\n"
    "void __ompdsm_parallel(void (*)(void *), void *, __SIZE_TYPE__, unsigned, int);\n"
    "int __ompdsm_thread_num(void);\n"
    "int __ompdsm_num_threads(void);\n"
    "int __ompdsm_static_chunk(__INT64_TYPE__, __INT64_TYPE__, __INT64_TYPE__, __INT64_TYPE__ *, __INT64_TYPE__ *);\n"
    "void __ompdsm_loop_start(int, __INT64_TYPE__, __INT64_TYPE__);\n"
    "int __ompdsm_loop_next(__INT64_TYPE__ *, __INT64_TYPE__ *);\n"
    "void __ompdsm_loop_end(int);\n"
    "void __ompdsm_ordered_start(__INT64_TYPE__);\n"
    "void __ompdsm_ordered_end(__INT64_TYPE__);\n"
    "void __ompdsm_sections_start(unsigned);\n"
    "int __ompdsm_sections_next(void);\n"
    "int __ompdsm_single_start(void);\n"
    "void __ompdsm_copyprivate(void *, __SIZE_TYPE__, int);\n"
    "void __ompdsm_barrier(void);\n"
    "void __ompdsm_critical_start(const char *);\n"
    "void __ompdsm_critical_end(const char *);\n"
    "void __ompdsm_atomic_start(void);\n"
    "void __ompdsm_atomic_end(void);\n"
    "void __ompdsm_flush(void);\n"
    "void __ompdsm_sema_init(const char *, __INT64_TYPE__, int);\n"
    "void __ompdsm_sema_wait(const char *, __INT64_TYPE__);\n"
    "void __ompdsm_sema_signal(const char *, __INT64_TYPE__);\n"
    "void __ompdsm_cond_wait(const char *, __INT64_TYPE__, const char *);\n"
    "void __ompdsm_cond_signal(const char *, __INT64_TYPE__, const char *);\n"
    "void __ompdsm_cond_broadcast(const char *, __INT64_TYPE__, const char *);\n"
    "void __ompdsm_reduce(void *, const void *, __SIZE_TYPE__, int, int);\n"
    "void *__ompdsm_malloc(__SIZE_TYPE__);\n"
    "void *__ompdsm_calloc(__SIZE_TYPE__, __SIZE_TYPE__);\n"
    "void *__ompdsm_realloc(void *, __SIZE_TYPE__);\n"
    "void __ompdsm_free(void *);\n"
    "char *__ompdsm_strdup(const char *);\n");
  fprintf(out, "#define __OMPDSM_TC(x) _Generic((x), char: %d, signed char: %d, unsigned char: %d, "
    "short: %d, unsigned short: %d, int: %d, unsigned int: %d, long: %d, unsigned long: %d, "
    "long long: %d, unsigned long long: %d, float: %d, double: %d, long double: %d, _Bool: %d)\n",
    OMPDSM_T_CHAR, OMPDSM_T_SCHAR, OMPDSM_T_UCHAR, OMPDSM_T_SHORT, OMPDSM_T_USHORT, OMPDSM_T_INT,
    OMPDSM_T_UINT, OMPDSM_T_LONG, OMPDSM_T_ULONG, OMPDSM_T_LLONG, OMPDSM_T_ULLONG, OMPDSM_T_FLOAT,
    OMPDSM_T_DOUBLE, OMPDSM_T_LDOUBLE, OMPDSM_T_BOOL);
}

/* Outlined regions go in front of their function; if a region calls that
   function (recursion) it must already be declared. K&R definitions
   ("int f(a, b) int a; ...") have no prototype form and are skipped. */
static void print_prototype(FILE *out, Node *f)
{
  Sym *s = f->fsym;
  if (!s) return;
  int open = -1;
  for (int i = s->ident + 1; i <= s->decl_lt; i++)
    if (!strcmp(toks[i].text, "(")) { open = i; break; }
  if (open < 0) return;
  int empty = open + 1 <= s->decl_lt && (!strcmp(toks[open + 1].text, ")") ||
              (toks[open + 1].kind == VOID && !strcmp(toks[open + 2].text, ")")));
  if (!f->nparams && !empty) return;
  fputc('\n', out);
  for (int i = s->spec_ft; i <= s->spec_lt; i++)
    if (toks[i].kind != INLINE) fprintf(out, " %s", toks[i].text);
  for (int i = s->decl_ft; i <= s->decl_lt; i++)
    fprintf(out, " %s", i == s->ident && !strcmp(s->name, "main") ? "__ompdsm_user_main" : toks[i].text);
  fputs(";\n", out);
}

void lower_and_emit(FILE *out, const char *rt_header)
{
  (void)rt_header;
  emit_prelude(out);
  Node *main_fn = NULL;
  Node **func_at = xcalloc((size_t)ntoks + 1, sizeof *func_at);
  for (Node *n = unit_first; n; n = n->next)
    if (n->kind == N_FUNC) {
      func_at[n->ft] = n;
      if (n->fsym && !strcmp(n->fsym->name, "main")) main_fn = n;
    }
  Out *top = xcalloc(1, sizeof *top);
  top->f = out;
  top->file = -1;
  top->need_mark = 1;
  for (int i = 0; i < ntoks; i++) {
    Node *f = func_at[i];
    if (f) {
      prelude = out_mem();
      Out *B = out_mem();
      emit_range(B, f->ft, f->lt, NULL);
      char *p = out_take(prelude), *b = out_take(B);
      prelude = NULL;
      if (*p) print_prototype(out, f);
      fputs(p, out);
      fputs(b, out);
      free(p); free(b);
      top->need_mark = 1;
      i = f->lt;
      continue;
    }
    Node *n = toks[i].node;
    if (n && n->kind == N_OMP) {       /* file-scope threadprivate */
      if (toks[i].pre) { fprintf(out, "\n%s", toks[i].pre); }
      top->need_mark = 1;
      i = n->lt;
      continue;
    }
    emit_tok(top, i, NULL);
  }
  free(top);
  free(func_at);
  fputc('\n', out);
  if (main_fn) {
    fprintf(out, "static int __ompdsm_main_wrap(int argc, char **argv) { (void)argc; (void)argv; ");
    const char *args = main_fn->nparams >= 3 ? "argc, argv, environ" : main_fn->nparams == 2 ? "argc, argv" : "";
    if (main_fn->nparams >= 3) fprintf(out, "extern char **environ; ");
    if (main_fn->spec_void) fprintf(out, "__ompdsm_user_main(%s); return 0; }\n", args);
    else fprintf(out, "return __ompdsm_user_main(%s); }\n", args);
    fprintf(out, "int main(int argc, char **argv) { __ompdsm_main(__ompdsm_main_wrap, argc, argv); }\n");
  }
}

