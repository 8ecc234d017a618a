/*
 * dsmrun_cmdline.c — the words of the command lines dsmrun starts: growing
 * argv and envp vectors, the --launcher template (split into words like a
 * shell would, with {host} filled in), and quoting for the remote shell that
 * ssh hands its command to.
 *
 * A template is split here rather than by sh -c, so that a host name never
 * passes through a shell on this machine and the launcher gets exactly the
 * words the user quoted.
 */
#include <stdlib.h>
#include <string.h>

#include "dsmrun.h"

void dsmrun_strv_push(dsmrun_strv_t *s, char *str)
{
  if (s->n + 2 > s->cap) {
    s->cap = s->cap ? s->cap * 2 : 16;
    char **nv = realloc(s->v, s->cap * sizeof *nv);
    if (!nv)
      dsmrun_die("out of memory");
    s->v = nv;
  }
  s->v[s->n++] = str;
  s->v[s->n] = NULL;
}

void dsmrun_strv_extend(dsmrun_strv_t *s, char *const *src)
{
  for (char *const *p = src; p && *p; p++)
    dsmrun_strv_push(s, *p);
}

dsmrun_strv_t dsmrun_split_words(const char *s)
{
  dsmrun_strv_t out = { 0 };
  size_t len = strlen(s);
  char *word = dsmrun_xmalloc(len + 1);
  size_t wn = 0;
  int in_word = 0;
  char quote = 0;
  for (const char *p = s; *p; p++) {
    char ch = *p;
    if (quote) {
      if (ch == quote)
        quote = 0;
      else if (ch == '\\' && quote == '"' && p[1])
        word[wn++] = *++p;
      else
        word[wn++] = ch;
    } else if (ch == '\'' || ch == '"') {
      quote = ch;
      in_word = 1;
    } else if (ch == '\\' && p[1]) {
      word[wn++] = *++p;
      in_word = 1;
    } else if (ch == ' ' || ch == '\t' || ch == '\n') {
      if (in_word) {
        word[wn] = '\0';
        dsmrun_strv_push(&out, dsmrun_xstrdup(word));
        wn = 0;
        in_word = 0;
      }
    } else {
      word[wn++] = ch;
      in_word = 1;
    }
  }
  if (quote)
    dsmrun_usage_error("--launcher: unterminated %c quote in '%s'", quote, s);
  if (in_word) {
    word[wn] = '\0';
    dsmrun_strv_push(&out, dsmrun_xstrdup(word));
  }
  free(word);
  if (out.n == 0)
    dsmrun_usage_error("--launcher: empty command");
  return out;
}

void dsmrun_launcher_check(const char *launcher)
{
  dsmrun_strv_t w = dsmrun_split_words(launcher);   /* exits on a quoting error */
  for (size_t i = 0; i < w.n; i++)
    free(w.v[i]);
  free(w.v);
}

char *dsmrun_subst_host(const char *w, const char *host)
{
  size_t hl = strlen(host), n = 0;
  for (const char *p = w; (p = strstr(p, "{host}")); p += 6)
    n++;
  char *out = dsmrun_xmalloc(strlen(w) + n * hl + 1), *o = out;
  for (const char *p = w; *p;) {
    if (strncmp(p, "{host}", 6) == 0) {
      memcpy(o, host, hl);
      o += hl;
      p += 6;
    } else {
      *o++ = *p++;
    }
  }
  *o = '\0';
  return out;
}

/* ---- shell text ---------------------------------------------------------- */

/* A string that grows as it is appended to. */
typedef struct text {
  char *s;
  size_t len, cap;
} text_t;

static void text_reserve(text_t *t, size_t more)
{
  if (t->len + more + 1 <= t->cap)
    return;
  t->cap = (t->len + more + 1) * 2;
  char *ns = realloc(t->s, t->cap);
  if (!ns)
    dsmrun_die("out of memory");
  t->s = ns;
}

static void text_add(text_t *t, const char *s)
{
  size_t sl = strlen(s);
  text_reserve(t, sl);
  memcpy(t->s + t->len, s, sl + 1);
  t->len += sl;
}

/* Append s quoted for a POSIX shell: 'it'\''s'. */
static void text_quote(text_t *t, const char *s)
{
  text_reserve(t, 4 * strlen(s) + 2);
  char *o = t->s + t->len;
  *o++ = '\'';
  for (; *s; s++) {
    if (*s == '\'') {
      memcpy(o, "'\\''", 4);
      o += 4;
    } else {
      *o++ = *s;
    }
  }
  *o++ = '\'';
  *o = '\0';
  t->len = (size_t)(o - t->s);
}

char *dsmrun_shell_line(char *const *words)
{
  text_t t = { 0 };
  text_add(&t, "");
  for (char *const *w = words; *w; w++) {
    text_quote(&t, *w);
    text_add(&t, " ");
  }
  return t.s;
}

char *dsmrun_remote_command(const char *cwd, char *const *words)
{
  text_t t = { 0 };
  /* Shared file systems: the same directory usually exists there. */
  if (cwd[0]) {
    text_add(&t, "cd ");
    text_quote(&t, cwd);
    text_add(&t, " 2>/dev/null; ");
  }
  text_add(&t, "exec env");
  for (char *const *w = words; *w; w++) {
    text_add(&t, " ");
    text_quote(&t, *w);
  }
  return t.s;
}
