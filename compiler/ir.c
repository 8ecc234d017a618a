/*
 * ir.c — token array, file table, scopes and diagnostics.
 *
 * Scopes are a stack of singly linked symbol lists; symbols are never freed
 * because tokens keep pointing at them until the output is written.
 */
#include "ir.h"
#include "parser.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

Token *toks;
int ntoks;
static int cap_toks;
char **files;
int lex_sys;
int nfiles;
int nerrors;
int diag_quiet;
int opt_verbose;
Node *unit_first, *unit_last;

void *xcalloc(size_t n, size_t size)
{
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) { fprintf(stderr, "ompdsmcc: out of memory\n"); exit(1); }
  return p;
}

char *xstrdup(const char *s)
{
  char *p = strdup(s);
  if (!p) { fprintf(stderr, "ompdsmcc: out of memory\n"); exit(1); }
  return p;
}

int tok_new(int kind, const char *text, int len, int file, int line, int col)
{
  /* Room for a few zeroed tokens past the last: the passes look one or
     two tokens ahead (omp_outline.c) and find kind 0 there, not memory
     past the array. */
  if (ntoks + 4 >= cap_toks) {
    int old = cap_toks;
    cap_toks = cap_toks ? cap_toks * 2 : 65536;
    toks = realloc(toks, (size_t)cap_toks * sizeof *toks);
    if (!toks) { fprintf(stderr, "ompdsmcc: out of memory\n"); exit(1); }
    memset(toks + old, 0, (size_t)(cap_toks - old) * sizeof *toks);
  }
  Token *t = &toks[ntoks];
  memset(t, 0, sizeof *t);
  t->kind = kind;
  t->text = malloc((size_t)len + 1);
  memcpy(t->text, text, (size_t)len);
  t->text[len] = 0;
  t->file = file;
  t->sys = lex_sys;
  t->line = line;
  t->col = col;
  return ntoks++;
}

int file_intern(const char *name)
{
  for (int i = 0; i < nfiles; i++)
    if (!strcmp(files[i], name))
      return i;
  files = realloc(files, (size_t)(nfiles + 1) * sizeof *files);
  files[nfiles] = xstrdup(name);
  return nfiles++;
}

Node *node_new(int kind, int ft, int lt)
{
  Node *n = xcalloc(1, sizeof *n);
  n->kind = kind;
  n->ft = ft;
  n->lt = lt;
  return n;
}

void node_add(Node *parent, Node *kid)
{
  if (!kid) return;
  if (parent->last_kid) parent->last_kid->next = kid;
  else parent->kids = kid;
  parent->last_kid = kid;
}

/* ---- diagnostics: file:line:col: error: msg, the source line, a caret ---- */
static void show_line(const char *file, int line, int col)
{
  FILE *f = fopen(file, "r");
  if (!f) return;
  char buf[4096];
  int n = 1;
  while (fgets(buf, sizeof buf, f)) {
    if (n++ == line) {
      size_t l = strlen(buf);
      if (l && buf[l - 1] == '\n') buf[l - 1] = 0;
      fprintf(stderr, " %s\n ", buf);
      for (int i = 1; i < col && buf[i - 1]; i++)
        fputc(buf[i - 1] == '\t' ? '\t' : ' ', stderr);
      fputs("^\n", stderr);
      break;
    }
  }
  fclose(f);
}

void error_at(int tok, const char *fmt, ...)
{
  va_list ap;
  const char *file = "<input>";
  int line = 0, col = 0;
  if (tok >= 0 && tok < ntoks) {
    file = files[toks[tok].file];
    line = toks[tok].line;
    col = toks[tok].col;
  } else if (ntoks > 0) {
    file = files[toks[ntoks - 1].file];
    line = toks[ntoks - 1].line;
    col = toks[ntoks - 1].col;
  }
  nerrors++;
  if (diag_quiet) return;
  fprintf(stderr, "%s:%d:%d: error: ", file, line, col);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  show_line(file, line, col);
}

void note_at(int tok, const char *fmt, ...)
{
  if (!opt_verbose || diag_quiet || tok < 0 || tok >= ntoks) return;
  va_list ap;
  fprintf(stderr, "%s:%d:%d: note: ", files[toks[tok].file], toks[tok].line, toks[tok].col);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
}

int is_assign_kind(int k)
{
  return k == '=' || k == ADD_ASSIGN || k == SUB_ASSIGN || k == MUL_ASSIGN || k == DIV_ASSIGN ||
         k == MOD_ASSIGN || k == LEFT_ASSIGN || k == RIGHT_ASSIGN || k == AND_ASSIGN ||
         k == XOR_ASSIGN || k == OR_ASSIGN;
}
