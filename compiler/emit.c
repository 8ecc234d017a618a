/*
 * emit.c — the last pass: print the translation unit back as C.
 *
 * The output is the user's token stream, printed back with line markers,
 * with each OpenMP construct replaced by the C text lower.c left on its node
 * and each function preceded by the regions outlined from it. Identifier
 * uses print through a substitution context (Ctx: symbol -> text), so the
 * lowering can print the same body inline, outlined or nested with
 * emit_tok. The renaming of main, malloc and friends, and the placement of
 * globals in the shared sections, happen here, token by token.
 */
#include "emit.h"
#include "ir.h"
#include "lower.h"
#include "parser.h"
#include "type.h"
#include "../include/ompdsm_rt.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Library calls that translated units make through the runtime: the heap
   (shared memory must come from the DSM), the calls whose destination the
   kernel writes (its pages must be opened first: omp_syscall.c), and the
   calls given a FILE *, which may be another process's (omp_stdio.c).
   printf, puts and putchar write stdout, which every process has. */
static int is_wrapped_call(const char *s)
{
  static const char *names[] = { "malloc", "calloc", "realloc", "free", "strdup",
    "read", "pread", "recv", "recvfrom", "scanf", "open", "write", "send",
    "fopen", "fdopen", "tmpfile", "fclose", "fflush",
    "fprintf", "vfprintf", "fputs", "fputc", "putc", "fwrite",
    "fread", "fgets", "fgetc", "getc", "ungetc", "fscanf", "vfscanf",
    "fseek", "ftell", "rewind", "feof", "ferror", "clearerr", NULL };
  for (int i = 0; names[i]; i++)
    if (!strcmp(s, names[i])) return 1;
  return 0;
}

/* The allocators whose calls pass "file:line" (the sharing profiler names
   heap blocks by it): __ompdsm_malloc_at("f.c:12", n). The token after the
   name is the call's "(", printed by the next emit_tok. */
static int site_paren = -1;

static int is_site_call(const char *s)
{
  return !strcmp(s, "malloc") || !strcmp(s, "calloc") || !strcmp(s, "realloc") ||
         !strcmp(s, "strdup");
}

/* A program may define a function with a library name (its own write());
   calls to it stay calls to it. A definition in a system header is the
   library's own inline version (fprintf under _FORTIFY_SOURCE, which calls
   __fprintf_chk on the stream): calls still go to the wrapper. */
static int defined_here(const char *name)
{
  for (Node *n = unit_first; n; n = n->next)
    if (n->kind == N_FUNC && n->fsym && !strcmp(n->fsym->name, name) && !toks[n->ft].sys)
      return 1;
  return 0;
}

/* A line marker, "# LINE FILE [3]": the 3 says a system header (whose
 * warnings cc keeps quiet). It is a marker, not "#line", because "#line"
 * keeps the flag of the marker before it: the user's code after the last
 * system header was taken as one, and cc said nothing about it (issue 56).
 * The flag is the token's own: a system macro expanded in the user's line
 * (`stderr`) is marked alone; until 2026-12-07 it made the rest of the
 * user's file a system header, and cc quiet about it. */
static void mark(Out *o, int file, int line, int sys)
{
  if (sys) fprintf(o->f, "\n# %d \"%s\" 3\n", line, files[file]);
  else fprintf(o->f, "\n# %d \"%s\"\n", line, files[file]);
  o->file = file;
  o->line = line;
  o->sys = sys;
  o->need_mark = 0;
  o->col = 1;
  o->last = 0;
  o->tok_end = ftell(o->f);
}

static int emit_text(Out *o, int i, Ctx *ctx);
static int can_touch(int a, int b);

void emit_tok(Out *o, int i, Ctx *ctx)
{
  Token *t = &toks[i];
  if (t->pre) { fprintf(o->f, "\n%s", t->pre); o->need_mark = 1; }
  if (!t->text[0]) return;
  if (o->need_mark || t->file != o->file || t->sys != o->sys || t->line < o->line ||
      t->line > o->line + 8)
    mark(o, t->file, t->line, t->sys);
  if (o->col && ftell(o->f) != o->tok_end)
    o->col = 0;   /* generated text came between: columns are lost for this line */
  while (o->line < t->line) { fputc('\n', o->f); o->line++; o->col = 1; o->last = 0; }
  if (t->wrap_open) {
    /* The "{" of a statement the lowering follows with a call (ir.h). */
    fprintf(o->f, " {%s", t->wrap_open_text ? t->wrap_open_text : "");
    if (t->spin_watch_lt > 0) {
      char *lv = span_text(t->spin_watch_ft, t->spin_watch_lt, ctx);
      fprintf(o->f, " __ompdsm_spin_watch((const void *)&(%s), sizeof(%s));", lv, lv);
      free(lv);
    }
    o->col = 0;   /* generated text: columns are lost for this line */
  }
  /* A token of the user's starts in the column it had, when nothing
   * generated came before it on its line: cc's warnings then point where
   * the user's own compiler would (issue 56). Else one blank. */
  if (o->col && (t->col > o->col || (t->col == o->col && can_touch(o->last, t->text[0])))) {
    fprintf(o->f, "%*s", t->col - o->col, "");
    o->col = t->col;
  } else {
    fputc(' ', o->f);
    if (o->col) o->col++;
  }
  long start = ftell(o->f);
  o->last = emit_text(o, i, ctx);
  long end = ftell(o->f);
  /* More than the token went out: the columns after it are not the
   * user's any more, and what touches it is not known. */
  o->col = o->col && o->last ? o->col + (int)(end - start) : 0;
  o->tok_end = end;
}

/* May a token that begins with b follow one that ends with a with no
 * blank between, and still be read as two tokens, the same two? The
 * preprocessor's columns say they touched, but after a macro's expansion
 * they may overlap the blank that separated them ("double _Complex"). */
static int can_touch(int a, int b)
{
  int wa = isalnum(a) || a == '_' || a == '.', wb = isalnum(b) || b == '_' || b == '.';
  if (wa && (wb || b == '"' || b == '\''))
    return 0;                       /* one name or number, or a prefixed literal */
  if ((a == 'e' || a == 'E' || a == 'p' || a == 'P') && (b == '+' || b == '-'))
    return 0;                       /* an exponent */
  static const char join[] = "+-*/%<>=!&|^.:#";
  return !(a && strchr(join, a) && strchr(join, b));
}

/* The token's text, renamed or replaced as it must be, with what is glued
 * to it (emit_tok places it). Returns the last character printed, 0 when
 * it was more than the token. */
static int emit_text(Out *o, int i, Ctx *ctx)
{
  Token *t = &toks[i];
  if (t->split_sym && t->tp_prev != t->tp_next) {
    /* a threadprivate variable beside others: end the declaration and start
       another with the same specifiers (omp_parse.c checked they can be) */
    Sym *y = t->split_sym;
    fputs(t->tp_next ? "; _Thread_local" : ";", o->f);
    for (int k = y->spec_ft; k <= y->spec_lt; k++) {
      if (!strcmp(toks[k].text, "{")) { /* a tagged type's body is defined once */
        for (int depth = 0; k <= y->spec_lt; k++) {
          depth += !strcmp(toks[k].text, "{") - !strcmp(toks[k].text, "}");
          if (!depth) break;
        }
        continue;
      }
      fprintf(o->f, " %s", toks[k].text);
      if (toks[k].post) fprintf(o->f, " %s", toks[k].post);
    }
    return 0;
  }
  if (t->thread_before) fputs("_Thread_local ", o->f);
  const char *text = t->text;
  if (t->kind == IDENTIFIER && !t->is_member) {
    if (t->is_use && t->sym) text = sym_text(ctx, t->sym);
    if (t->is_use && (!t->sym || t->sym->depth == 0) && is_wrapped_call(t->text) && !defined_here(t->text)) {
      fprintf(o->f, "__ompdsm_");
      /* A call of an allocator passes its site to the sharing profiler. */
      if (is_site_call(t->text) && i + 1 < ntoks && !strcmp(toks[i + 1].text, "(")) {
        fputs(text, o->f);
        text = "_at";
        site_paren = i + 1;
      }
    }
    if (!strcmp(t->text, "main") && (!t->sym || t->sym->depth == 0)) text = "__ompdsm_user_main";
  }
  fputs(text, o->f);
  int last = text[0] ? text[strlen(text) - 1] : 0;
  if (i == site_paren) {
    site_paren = -1;
    last = 0;
    fputs(" \"", o->f);
    for (const char *c = files[t->file]; *c; c++)
      fprintf(o->f, *c == '"' || *c == '\\' ? "\\%c" : (unsigned char)*c < 0x20 ? "?" : "%c", *c);
    fprintf(o->f, ":%d\",", t->line);
  }
  if (t->post) { fprintf(o->f, " %s", t->post); last = 0; }
  Sym *y = t->attr_sym;
  /* read-only objects are the same in every process: they stay in .rodata */
  if (y && !y->threadprivate && !type_is_const_object(y->type) && !y->is_thread && !(y->is_extern && !y->has_init)) {
    fputs(y->has_init ? " __attribute__((section(\"dsm_shared_data\"), used))"
                      : " __attribute__((section(\"dsm_shared_bss,\\\"aw\\\",@nobits#\"), used))", o->f);
    last = 0;
  }
  if (t->wrap_close) {
    fprintf(o->f, "%s }", t->wrap_close);
    last = 0;
  }
  return last;
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

/* The runtime entry points, declared with compiler-builtin types only: the
   user's preprocessed headers are already in the file, and including
   ompdsm_rt.h (with stdint.h) again would redefine their typedefs. */
static void emit_prelude(FILE *out)
{
  fprintf(out,
    "/* generated by ompdsmcc from the user's source; see ompdsm_rt.h */\n"
    "void __ompdsm_main(int (*)(int, char **), int, char **) __attribute__((noreturn));\n"
    "void __ompdsm_parallel(void (*)(void *), void *, __SIZE_TYPE__, unsigned, int);\n"
    "void __ompdsm_parallel_dynamic(void (*)(void *), void *, __SIZE_TYPE__, unsigned, int);\n"
    "void __ompdsm_parallel_sealed(void (*)(void *), void *, __SIZE_TYPE__, unsigned, int);\n"
    "int __ompdsm_thread_num(void);\n"
    "void __ompdsm_team_check(unsigned, int, const char *, int *);\n"
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
    "void __ompdsm_name_critical(const char *, const char *);\n"
    "void __ompdsm_name_local(void *, __SIZE_TYPE__, const char *);\n"
    "void __ompdsm_critical_end(const char *);\n"
    "void __ompdsm_atomic_start(void);\n"
    "void __ompdsm_atomic_end(void);\n"
    "void __ompdsm_flush(void);\n"
    "void __ompdsm_spin_flush(void);\n"
    "void __ompdsm_spin_end(void);\n"
    "void __ompdsm_spin_watch(const void *, __SIZE_TYPE__);\n"
    "void __ompdsm_sema_init(const char *, __INT64_TYPE__, int);\n"
    "void __ompdsm_sema_wait(const char *, __INT64_TYPE__);\n"
    "void __ompdsm_sema_signal(const char *, __INT64_TYPE__);\n"
    "void __ompdsm_cond_wait(const char *, __INT64_TYPE__, const char *);\n"
    "void __ompdsm_cond_signal(const char *, __INT64_TYPE__, const char *);\n"
    "void __ompdsm_cond_broadcast(const char *, __INT64_TYPE__, const char *);\n"
    "void __ompdsm_reduce(void *, const void *, __SIZE_TYPE__, int, int);\n"
    "void __ompdsm_reduce_join(void *, const void *, __SIZE_TYPE__, int, int);\n"
    "void *__ompdsm_malloc(__SIZE_TYPE__);\n"
    "void *__ompdsm_malloc_at(const char *, __SIZE_TYPE__);\n"
    "void *__ompdsm_calloc_at(const char *, __SIZE_TYPE__, __SIZE_TYPE__);\n"
    "void *__ompdsm_realloc_at(const char *, void *, __SIZE_TYPE__);\n"
    "char *__ompdsm_strdup_at(const char *, const char *);\n"
    "void *__ompdsm_calloc(__SIZE_TYPE__, __SIZE_TYPE__);\n"
    "void *__ompdsm_realloc(void *, __SIZE_TYPE__);\n"
    "void __ompdsm_free(void *);\n"
    "char *__ompdsm_strdup(const char *);\n"
    "long __ompdsm_read(int, void *, __SIZE_TYPE__);\n"
    "long __ompdsm_pread(int, void *, __SIZE_TYPE__, long);\n"
    "long __ompdsm_recv(int, void *, __SIZE_TYPE__, int);\n"
    "long __ompdsm_recvfrom(int, void *, __SIZE_TYPE__, int, void *, void *);\n"
    "int __ompdsm_scanf(const char *, ...) __attribute__((format(scanf, 1, 2)));\n"
    "int __ompdsm_open(const char *, int, ...);\n"
    "long __ompdsm_write(int, const void *, __SIZE_TYPE__);\n"
    "long __ompdsm_send(int, const void *, __SIZE_TYPE__, int);\n"
    "void *__ompdsm_fopen(const char *, const char *);\n"
    "void *__ompdsm_fdopen(int, const char *);\n"
    "void *__ompdsm_tmpfile(void);\n"
    "int __ompdsm_fclose(void *);\n"
    "int __ompdsm_fflush(void *);\n"
    "int __ompdsm_fprintf(void *, const char *, ...) __attribute__((format(printf, 2, 3)));\n"
    "int __ompdsm_vfprintf(void *, const char *, __builtin_va_list) __attribute__((format(printf, 2, 0)));\n"
    "int __ompdsm_fputs(const char *, void *);\n"
    "int __ompdsm_fputc(int, void *);\n"
    "int __ompdsm_putc(int, void *);\n"
    "__SIZE_TYPE__ __ompdsm_fwrite(const void *, __SIZE_TYPE__, __SIZE_TYPE__, void *);\n"
    "__SIZE_TYPE__ __ompdsm_fread(void *, __SIZE_TYPE__, __SIZE_TYPE__, void *);\n"
    "char *__ompdsm_fgets(char *, int, void *);\n"
    "int __ompdsm_fgetc(void *);\n"
    "int __ompdsm_getc(void *);\n"
    "int __ompdsm_ungetc(int, void *);\n"
    "int __ompdsm_fscanf(void *, const char *, ...) __attribute__((format(scanf, 2, 3)));\n"
    "int __ompdsm_vfscanf(void *, const char *, __builtin_va_list) __attribute__((format(scanf, 2, 0)));\n"
    "int __ompdsm_fseek(void *, long, int);\n"
    "long __ompdsm_ftell(void *);\n"
    "void __ompdsm_rewind(void *);\n"
    "int __ompdsm_feof(void *);\n"
    "int __ompdsm_ferror(void *);\n"
    "void __ompdsm_clearerr(void *);\n"
    "struct __ompdsm_dep { void *addr; __SIZE_TYPE__ len; int kind; };\n"
    "void __ompdsm_task(void (*)(void *), void *, __SIZE_TYPE__, int, unsigned, const struct __ompdsm_dep *, int);\n"
    "void __ompdsm_taskwait(void);\n"
    "void __ompdsm_taskyield(void);\n"
    "void __ompdsm_taskgroup_start(void);\n"
    "void __ompdsm_taskgroup_end(void);\n"
    "void __ompdsm_tasks_used(void);\n"
    "static inline void __ompdsm_taskgroup_cleanup(int *p) { (void)p; __ompdsm_taskgroup_end(); }\n");
  /* the runtime must know before main that tasks exist (region stacks in
     shared memory, barriers that drain tasks); every process runs this */
  if (unit_uses_tasks)
    fprintf(out, "static void __attribute__((constructor)) __ompdsm_tasks_ctor(void) { __ompdsm_tasks_used(); }\n");
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
  if (!s || f->kr_first >= 0) return;   /* K&R: no prototype form */
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

void emit_unit(FILE *out)
{
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
  int fn_end = -1;
  for (int i = 0; i < ntoks; i++) {
    Node *f = func_at[i];
    if (f) { fn_end = f->lt; top->need_mark = 1; }
    if (f && f->outlined && *f->outlined) {
      print_prototype(out, f);
      fputs(f->outlined, out);
      top->need_mark = 1;
    }
    Node *n = toks[i].node;
    if (n && n->kind == N_OMP) {
      /* a construct inside a function, as lower.c left it; file-scope
         threadprivate directives leave nothing */
      if (toks[i].pre) fprintf(out, "\n%s", toks[i].pre);
      if (n->lowered) fputs(n->lowered, out);
      top->need_mark = 1;
      i = n->lt;
      continue;
    }
    /* reaching the } that ends main returns 0 (C99 5.1.2.2.3); renamed, it
       would return whatever the last call left behind */
    if (main_fn && i == main_fn->lt && !main_fn->spec_void) fputs(" return 0;", out);
    emit_tok(top, i, NULL);
    if (i == fn_end) top->need_mark = 1;   /* what follows a function gets its own marker */
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

