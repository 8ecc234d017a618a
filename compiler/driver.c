/*
 * driver.c — ompdsmcc, a drop-in cc for OpenMP C programs.
 *
 * For each .c file: cc -E (our include/ first, so our omp.h wins), parse,
 * lower OpenMP, write C text, compile it with the system cc. Then link
 * with libdsm, the shared-section linker script and -no-pie. Everything
 * that is not ours passes through to the system cc ($OMPDSM_CC or cc).
 * Translation runs in a child process, so every file starts with fresh
 * global tables and a crash in one file cannot take the driver down
 * without a clear message.
 */
#include "emit.h"
#include "ir.h"
#include "lower.h"
#include "parser.h"
#include "ompdsmcc_config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
/* Like cc1, the compiler is a short-lived process that leaves its IR and
 * argument vectors to exit(); freeing them would only cost time. So a
 * sanitizer build checks memory errors here but not leaks. */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }
#endif

typedef struct Vec { char **v; int n, cap; } Vec;

static void push_arg(Vec *a, const char *s)
{
  if (a->n + 2 > a->cap) {
    a->cap = a->cap ? a->cap * 2 : 32;
    a->v = realloc(a->v, (size_t)a->cap * sizeof *a->v);
  }
  a->v[a->n++] = xstrdup(s);
  a->v[a->n] = NULL;
}

static Vec temps;

static int run(Vec *a)
{
  if (opt_verbose) {
    for (int i = 0; i < a->n; i++) fprintf(stderr, "%s%s", i ? " " : "", a->v[i]);
    fputc('\n', stderr);
  }
  pid_t p = fork();
  if (p < 0) { perror("ompdsmcc: fork"); return 1; }
  if (p == 0) {
    execvp(a->v[0], a->v);
    fprintf(stderr, "ompdsmcc: cannot run %s: %s\n", a->v[0], strerror(errno));
    _exit(127);
  }
  int st;
  while (waitpid(p, &st, 0) < 0 && errno == EINTR) {}
  return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

static void cleanup(void)
{
  for (int i = 0; i < temps.n; i++) unlink(temps.v[i]);
}

static char *tmpname(const char *suffix)
{
  const char *dir = getenv("TMPDIR");
  char buf[PATH_MAX];
  snprintf(buf, sizeof buf, "%s/ompdsmcc-XXXXXX%s", dir && *dir ? dir : "/tmp", suffix);
  int fd = mkstemps(buf, (int)strlen(suffix));
  if (fd < 0) { perror("ompdsmcc: mkstemps"); exit(1); }
  close(fd);
  push_arg(&temps, buf);
  return xstrdup(buf);
}

static int ends_with(const char *s, const char *suf)
{
  size_t a = strlen(s), b = strlen(suf);
  return a >= b && !strcmp(s + a - b, suf);
}

static char *replace_ext(const char *path, const char *ext, int strip_dir)
{
  const char *base = strip_dir ? strrchr(path, '/') : NULL;
  base = base ? base + 1 : path;
  char *s = malloc(strlen(base) + strlen(ext) + 1);
  strcpy(s, base);
  char *dot = strrchr(s, '.'), *slash = strrchr(s, '/');
  if (dot && (!slash || dot > slash)) *dot = 0;
  strcat(s, ext);
  return s;
}

/* Paths: build tree, installed tree, or $OMPDSM_HOME. */
static char inc_dir[PATH_MAX], lib_dsm[PATH_MAX], ld_script[PATH_MAX];

static void find_paths(void)
{
  const char *home = getenv("OMPDSM_HOME");
  if (home && *home) {
    snprintf(inc_dir, sizeof inc_dir, "%s/include", home);
    snprintf(lib_dsm, sizeof lib_dsm, "%s/lib/libdsm.a", home);
    snprintf(ld_script, sizeof ld_script, "%s/lib/ompdsm/dsm_shared.ld", home);
    return;
  }
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  self[n > 0 ? n : 0] = 0;
  char *slash = strrchr(self, '/');
  if (slash) *slash = 0;
  char real_build[PATH_MAX];
  if (n > 0 && realpath(OMPDSMCC_BUILD_DIR, real_build) && !strcmp(real_build, self)) {
    snprintf(inc_dir, sizeof inc_dir, "%s", OMPDSMCC_SRC_INCLUDE);
    snprintf(lib_dsm, sizeof lib_dsm, "%s", OMPDSMCC_BUILD_LIBDSM);
    snprintf(ld_script, sizeof ld_script, "%s", OMPDSMCC_SRC_LDSCRIPT);
  } else {
    snprintf(inc_dir, sizeof inc_dir, "%s", OMPDSMCC_INST_INCLUDE);
    snprintf(lib_dsm, sizeof lib_dsm, "%s", OMPDSMCC_INST_LIBDSM);
    snprintf(ld_script, sizeof ld_script, "%s", OMPDSMCC_INST_LDSCRIPT);
  }
}

/* Parse and lower one preprocessed file; runs in a child. */
static int translate(const char *in_path, const char *out_path)
{
  pid_t p = fork();
  if (p < 0) { perror("ompdsmcc: fork"); return 1; }
  if (p == 0) {
    FILE *in = fopen(in_path, "r");
    if (!in) { perror(in_path); _exit(1); }
    int r = parse_file(in);
    fclose(in);
    if (r || nerrors) _exit(1);
    FILE *out = fopen(out_path, "w");
    if (!out) { perror(out_path); _exit(1); }
    lower_unit();
    emit_unit(out);
    if (fclose(out) != 0) { perror(out_path); _exit(1); }
    _exit(nerrors ? 1 : 0);
  }
  int st;
  while (waitpid(p, &st, 0) < 0 && errno == EINTR) {}
  if (WIFSIGNALED(st)) {
    fprintf(stderr, "ompdsmcc: internal error: translator died with signal %d on %s\n", WTERMSIG(st), in_path);
    return 1;
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

/* ---- questions asked without an input file --------------------------------
 * configure scripts, CMake and Meson probe a compiler before they use it:
 * --version (Meson looks for the GNU banner there), -dumpversion,
 * -dumpmachine, -print-file-name=..., -v, and -E -dM - on an empty stdin
 * for the predefined macros. ompdsmcc answers --help and --version itself
 * and hands the other questions to the compiler behind it, whose answers
 * are the ones that matter for the code it will be given (issue 56). */

static void usage(FILE *f)
{
  fprintf(f,
    "usage: ompdsmcc [cc options] file.c... [file.o...] [-l lib]... [-o prog]\n"
    "\n"
    "Compiles OpenMP C for the ompdsm software DSM, as a drop-in cc: each C file\n"
    "is preprocessed, its OpenMP constructs are turned into calls of libdsm, and\n"
    "the result is compiled and linked by the system compiler ($OMPDSM_CC, else\n"
    "cc). Run the program with dsmrun -n N ./prog, or alone as a job of one.\n"
    "\n"
    "Options of its own:\n"
    "  --ompdsm-keep, -save-temps  keep the translated C (name.omp.c)\n"
    "  -v                          print the commands run and constructs run serially\n"
    "  -h, --help                  this text\n"
    "  --version                   ompdsmcc's version and the backing compiler's\n"
    "Everything else goes to the system compiler; -fopenmp is implied. A file\n"
    "named - is read from stdin (with -x c, or -E). See ompdsmcc(1).\n");
}

/* A question for the compiler itself, not about any input. */
static int is_query(const char *a)
{
  return !strcmp(a, "-dumpversion") || !strcmp(a, "-dumpfullversion") ||
         !strcmp(a, "-dumpmachine") || !strcmp(a, "-dumpspecs") || !strcmp(a, "-###") ||
         !strncmp(a, "-print-", 7) || !strcmp(a, "--print-multiarch");
}

static int print_version(const char *cc)
{
  printf("ompdsmcc %s (OpenMP C for the ompdsm software DSM)\n", OMPDSMCC_VERSION);
  printf("backing compiler: %s%s, which says:\n", cc, getenv("OMPDSM_CC") ? " ($OMPDSM_CC)" : "");
  fflush(stdout);
  Vec a = {0};
  push_arg(&a, cc);
  push_arg(&a, "--version");
  return run(&a);
}

static int takes_arg(const char *a)
{
  static const char *two[] = { "-o", "-I", "-D", "-U", "-L", "-l", "-include", "-isystem", "-iquote",
    "-MF", "-MT", "-MQ", "-x", "-Xlinker", "-idirafter", NULL };
  for (int i = 0; two[i]; i++)
    if (!strcmp(a, two[i])) return 1;
  return 0;
}

int main(int argc, char **argv)
{
  const char *cc = getenv("OMPDSM_CC");
  if (!cc || !*cc) cc = "cc";
  Vec pp = {0}, comp = {0}, link = {0}, srcs = {0}, deps = {0};
  const char *output = NULL;
  int do_c = 0, do_E = 0, do_S = 0, keep = 0, nolink_inputs = 0, has_md = 0, has_mf = 0;
  int query = 0;
  Vec passed = {0};   /* what the backing compiler gets when only asked questions */
  push_arg(&passed, cc);
  atexit(cleanup);
  find_paths();

  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    const char *next = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage(stdout); return 0; }
    if (!strcmp(a, "--version")) return print_version(cc);
    if (!strcmp(a, "--ompdsm-keep") || !strcmp(a, "-save-temps")) { keep = 1; continue; }
    if (strcmp(a, "-fopenmp") && strcmp(a, "-openmp") && strcmp(a, "-qopenmp")) push_arg(&passed, a);
    if (is_query(a)) { query = 1; continue; }
    /* -v also goes to cc, whose verbose output (the link line) CMake reads. */
    if (!strcmp(a, "-v")) { opt_verbose = 1; push_arg(&comp, a); push_arg(&link, a); continue; }
    /* -dM, -dD, -dN, -dI: what -E prints besides the code */
    if (!strncmp(a, "-d", 2) && a[2] && strchr("MDNIU", a[2]) && !a[3]) { push_arg(&pp, a); continue; }
    if (!strcmp(a, "-fopenmp") || !strcmp(a, "-openmp") || !strcmp(a, "-qopenmp")) continue;
    if (!strcmp(a, "-c")) { do_c = 1; continue; }
    if (!strcmp(a, "-E")) { do_E = 1; continue; }
    if (!strcmp(a, "-S")) { do_S = 1; continue; }
    if (a[0] == '-' && takes_arg(a)) {
      if (!next) { fprintf(stderr, "ompdsmcc: error: missing argument to '%s'\n", a); return 1; }
      i++;
      if (!strcmp(a, "-o")) { output = next; continue; }
      if (!strcmp(a, "-L") || !strcmp(a, "-l") || !strcmp(a, "-Xlinker")) { push_arg(&link, a); push_arg(&link, next); continue; }
      if (!strncmp(a, "-M", 2)) { push_arg(&deps, a); push_arg(&deps, next); if (!strcmp(a, "-MF")) has_mf = 1; continue; }
      push_arg(&pp, a); push_arg(&pp, next);
      continue;
    }
    if (!strncmp(a, "-I", 2) || !strncmp(a, "-D", 2) || !strncmp(a, "-U", 2)) { push_arg(&pp, a); continue; }
    if (!strncmp(a, "-l", 2) || !strncmp(a, "-L", 2) || !strncmp(a, "-Wl,", 4) || !strcmp(a, "-static") ||
        !strcmp(a, "-rdynamic") || !strcmp(a, "-pthread") || !strcmp(a, "-shared")) {
      push_arg(&link, a);
      if (!strcmp(a, "-pthread")) push_arg(&pp, a);
      continue;
    }
    if (!strcmp(a, "-MD") || !strcmp(a, "-MMD") || !strcmp(a, "-MP") || !strcmp(a, "-M") || !strcmp(a, "-MM")) {
      push_arg(&deps, a); has_md = 1; continue;
    }
    if (!strncmp(a, "-std=", 5) || !strncmp(a, "-m", 2) || !strcmp(a, "-ansi") || !strcmp(a, "-pedantic")) {
      push_arg(&pp, a); push_arg(&comp, a); continue;
    }
    if (!strncmp(a, "-O", 2) || !strncmp(a, "-g", 2) || !strncmp(a, "-W", 2) || !strncmp(a, "-f", 2) ||
        !strcmp(a, "-w") || !strcmp(a, "-p") || !strcmp(a, "-pg")) {
      if (!strcmp(a, "-fpie") || !strcmp(a, "-fPIE") || !strcmp(a, "-fpic") || !strcmp(a, "-fPIC")) continue;
      push_arg(&comp, a);
      if (!strncmp(a, "-f", 2) || !strncmp(a, "-O", 2)) push_arg(&link, a);
      continue;
    }
    if (a[0] == '-' && a[1]) { push_arg(&comp, a); continue; }
    if (ends_with(a, ".c") || !strcmp(a, "-")) { push_arg(&srcs, a); continue; }
    push_arg(&link, a);   /* .o .a .so and anything else: to the link */
    nolink_inputs++;
  }
  if (query || (!srcs.n && !nolink_inputs && passed.n > 1)) {
    /* Only questions, or options without an input: what cc makes of them
     * is the answer (-v alone: its version and configuration; -Wl,--version:
     * the linker's, which Meson asks for). */
    if (opt_verbose && !query)
      fprintf(stderr, "ompdsmcc %s, backing compiler %s\n", OMPDSMCC_VERSION, cc);
    return run(&passed);
  }
  if (!srcs.n && !nolink_inputs) {
    fprintf(stderr, "ompdsmcc: error: no input files (ompdsmcc --help says how to use it)\n");
    return 1;
  }
  if (output && (do_c || do_S || do_E) && srcs.n > 1) {
    fprintf(stderr, "ompdsmcc: error: cannot specify -o with -c, -S or -E with multiple files\n");
    return 1;
  }

  Vec objs = {0};
  int failed = 0;
  for (int s = 0; s < srcs.n && !failed; s++) {
    const char *src = srcs.v[s];
    /* 1. preprocess */
    Vec a = {0};
    push_arg(&a, cc);
    push_arg(&a, "-E");
    /* -fopenmp: the preprocessor then expands macros in "#pragma omp"
     * lines, as OpenMP says it must (final(d > CUTOFF), a[0:N]); our own
     * _OPENMP replaces the one it defines. OpenMP 4.5 (201511): what
     * ompdsmcc accepts reaches that far (taskloop, simd, target and teams
     * run on the host, as 4.5 allows, depend on tasks), and a program that
     * tests the version before using taskloop would otherwise take its
     * fallback (issue 52). Not 5.0: its allocators, loop construct and
     * declare variant are not there. */
    push_arg(&a, "-fopenmp");
    push_arg(&a, "-U_OPENMP");
    push_arg(&a, "-D_OMPDSM=1");
    push_arg(&a, "-D_OPENMP=201511");
    push_arg(&a, "-I");
    push_arg(&a, inc_dir);
    for (int i = 0; i < pp.n; i++) push_arg(&a, pp.v[i]);
    if (do_E) {
      push_arg(&a, src);
      if (output) { push_arg(&a, "-o"); push_arg(&a, output); }
      if (run(&a)) return 1;
      continue;
    }
    char *obj = do_c ? (output ? xstrdup(output) : replace_ext(src, ".o", 1)) : tmpname(".o");
    for (int i = 0; i < deps.n; i++) push_arg(&a, deps.v[i]);
    if (has_md && !has_mf) { push_arg(&a, "-MF"); push_arg(&a, replace_ext(obj, ".d", 0)); }
    if (deps.n) { push_arg(&a, "-MT"); push_arg(&a, obj); }
    char *ifile = tmpname(".i");
    push_arg(&a, src);
    push_arg(&a, "-o");
    push_arg(&a, ifile);
    if (run(&a)) { failed = 1; break; }
    /* 2. translate */
    char *cfile;
    if (keep) {
      cfile = output && !do_c && !do_S ? replace_ext(output, ".omp.c", 0) :
              output ? replace_ext(output, ".omp.c", 0) : replace_ext(src, ".omp.c", 1);
    } else {
      cfile = tmpname(".c");
    }
    if (translate(ifile, cfile)) { failed = 1; unlink(cfile); break; }
    /* 3. compile */
    Vec c = {0};
    push_arg(&c, cc);
    push_arg(&c, do_S ? "-S" : "-c");
    push_arg(&c, "-fno-pie");
    if (*OMPDSMCC_SANITIZE) push_arg(&c, OMPDSMCC_SANITIZE);
    push_arg(&c, "-I");
    push_arg(&c, inc_dir);
    for (int i = 0; i < comp.n; i++) push_arg(&c, comp.v[i]);
    push_arg(&c, cfile);
    push_arg(&c, "-o");
    if (do_S) push_arg(&c, output ? output : replace_ext(src, ".s", 1));
    else push_arg(&c, obj);
    if (run(&c)) { failed = 1; if (do_c) unlink(obj); break; }
    push_arg(&objs, obj);
  }
  if (failed) return 1;
  if (do_c || do_S || do_E) return 0;

  /* 4. link */
  Vec l = {0};
  push_arg(&l, cc);
  push_arg(&l, "-no-pie");
  if (*OMPDSMCC_SANITIZE) push_arg(&l, OMPDSMCC_SANITIZE);
  for (int i = 0; i < objs.n; i++) push_arg(&l, objs.v[i]);
  for (int i = 0; i < link.n; i++) push_arg(&l, link.v[i]);
  char t[PATH_MAX + 16];
  snprintf(t, sizeof t, "-Wl,-T,%s", ld_script);
  push_arg(&l, t);
  push_arg(&l, lib_dsm);
  push_arg(&l, "-lsigsegv");
  push_arg(&l, "-lpthread");
  push_arg(&l, "-lm");
  push_arg(&l, "-o");
  push_arg(&l, output ? output : "a.out");
  if (run(&l)) { unlink(output ? output : "a.out"); return 1; }
  return 0;
}
