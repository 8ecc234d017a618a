/* Streams used by threads that did not open them (issue 14, class 9): a
   FILE lives in the private heap of the process that opened it, so every
   call below that a thread makes on another thread's stream is shipped to
   the owner. The master reads each file back after the region and checks
   every line and byte; the output says only what holds for any thread
   count and schedule.
   - fprintf, fputs, fputc, putc under critical into the master's file;
   - an ordered loop whose lines must land in iteration order, the master's
     own writes between the shipped ones (a shipped write is done when the
     call returns);
   - ftell and fflush on the master's stream from every thread;
   - fwrite of a shared buffer, then fread and fgets, fgetc and fscanf of
     the master's input file by every thread;
   - a stream opened by the last thread, written by all, closed by it;
   - stderr passed through shared memory (each process has its own);
   - fclose by the master after the region. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PER 3
#define NB 512
#define MAXT 16

static double block[NB];        /* shared: written by fwrite, read by fread */
static double back[NB];
static char path[4][96];
static FILE *others;            /* the last thread's stream */
static FILE *err;               /* the master's stderr */
// STDERR: stderr through shared memory from the last thread

static int fail(const char *what, const char *line)
{
  printf("FAIL: %s: '%s'\n", what, line ? line : "(none)");
  return 1;
}

int main(void)
{
  int pid = (int)getpid(), bad = 0, nthreads = 1;
  for (int i = 0; i < 4; i++) snprintf(path[i], sizeof path[i], "/tmp/ompdsm-stdio-%d.%d", pid, i);
  FILE *out = fopen(path[0], "w"), *bin = fopen(path[1], "w+");
  if (!out || !bin) { perror("fopen"); return 1; }
  err = stderr;
  FILE *inp = fopen(path[3], "w");
  for (int i = 0; i < 2 * MAXT; i++) fprintf(inp, "item %d w%d\n", i, i * 7);
  fclose(inp);
  inp = fopen(path[3], "r");
  long items = 0, words_ok = 0;
  fprintf(out, "header\n");
  fflush(out);
  long told[MAXT];
  int seen_pos[MAXT];

#pragma omp parallel shared(out, bin, inp, told, seen_pos, nthreads) reduction(+:items, words_ok)
  {
    int t = omp_get_thread_num(), n = omp_get_num_threads();
#pragma omp single
    nthreads = n;
    for (int k = 0; k < PER; k++) {
#pragma omp critical (out)
      {
        fprintf(out, "thread %d line %d\n", t, k);
        fputs("fputs ", out);
        fputc('c', out);
        putc('0' + t % 10, out);
        fputc('\n', out);
      }
    }
#pragma omp barrier
#pragma omp for ordered schedule(static, 1)
    for (int i = 0; i < 4 * n; i++) {
#pragma omp ordered
      fprintf(out, "seq %d\n", i);
    }
#pragma omp critical (out)
    {
      fflush(out);
      told[t] = ftell(out);
      fprintf(out, "told %ld\n", told[t]);
    }
    /* fwrite of shared memory, each thread its block, in thread order */
#pragma omp for
    for (int i = 0; i < NB; i++) block[i] = i * 0.25 + 1;
#pragma omp for ordered schedule(static, 1)
    for (int i = 0; i < n; i++) {
#pragma omp ordered
      {
        int lo = NB * i / n, hi = NB * (i + 1) / n;
        if (fwrite(block + lo, sizeof *block, (size_t)(hi - lo), bin) != (size_t)(hi - lo)) seen_pos[i] = -1;
      }
    }
#pragma omp single
    {
      fflush(bin);
      rewind(bin);
    }
    /* fread into shared memory, again in thread order */
#pragma omp for ordered schedule(static, 1)
    for (int i = 0; i < n; i++) {
#pragma omp ordered
      {
        int lo = NB * i / n, hi = NB * (i + 1) / n;
        seen_pos[i] = fread(back + lo, sizeof *back, (size_t)(hi - lo), bin) == (size_t)(hi - lo) ? 1 : -2;
      }
    }
    /* records of the master's input, two per thread: fscanf, then
       fgetc, ungetc and fgets */
#pragma omp critical (inp)
    {
      int a = -1;
      char w[16] = "", l[64] = "";
      if (fscanf(inp, "item %d %15s\n", &a, w) == 2) {
        items += a;
        words_ok += atoi(w + 1) == a * 7;
      }
      int c = fgetc(inp);
      if (c == 'i' && ungetc(c, inp) == 'i' && fgets(l, sizeof l, inp) && sscanf(l, "item %d w%15s", &a, w) == 2) {
        items += a;
        words_ok += atoi(w) == a * 7;
      }
    }
    /* a slave's stream, used by every thread; its owner closes it */
    if (t == n - 1) {
      others = fopen(path[2], "w");
      fprintf(err, "stderr through shared memory from the last thread\n");
    }
#pragma omp barrier
#pragma omp critical (others)
    fprintf(others, "to the last thread from %d\n", t);
#pragma omp barrier
    if (t == n - 1) fclose(others);
  }

  /* the master's own writes after the region come after everything shipped */
  fprintf(out, "footer\n");
  if (fclose(out) != 0) bad |= fail("fclose", NULL);

  FILE *in = fopen(path[0], "r");
  char line[256];
  int count[MAXT] = { 0 }, fputs_count[MAXT] = { 0 }, seq = 0, tolds = 0, nlines = 0;
  int header = 0, footer = 0;
  while (fgets(line, sizeof line, in)) {
    int a, b;
    char c;
    nlines++;
    if (nlines == 1) { header = !strcmp(line, "header\n"); continue; }
    if (sscanf(line, "thread %d line %d", &a, &b) == 2 && a >= 0 && a < nthreads && b == count[a]) count[a]++;
    else if (sscanf(line, "fputs c%c", &c) == 1 && c - '0' >= 0 && c - '0' < nthreads) fputs_count[c - '0']++;
    else if (sscanf(line, "seq %d", &a) == 1) { if (a != seq++) bad |= fail("seq out of order", line); }
    else if (sscanf(line, "told %d", &a) == 1) tolds++;
    else if (!strcmp(line, "footer\n")) footer = nlines;
    else bad |= fail("unexpected line", line);
  }
  fclose(in);
  for (int t = 0; t < nthreads; t++)
    if (count[t] != PER || fputs_count[t] != PER) bad |= fail("lines of a thread missing", NULL);
  if (!header || footer != nlines) bad |= fail("header first and footer last", NULL);
  if (seq != 4 * nthreads || tolds != nthreads) bad |= fail("seq and told lines", NULL);
  /* every ftell named a distinct position, the end of the file at the time */
  for (int i = 0; i < nthreads; i++)
    for (int j = 0; j < i; j++)
      if (told[i] == told[j] || told[i] <= 0) bad |= fail("ftell positions", NULL);
  printf("text: %d lines per thread, %d ordered lines in order, header first, footer last\n", PER, seq == 4 * nthreads ? 4 : -1);

  for (int i = 0; i < nthreads; i++) if (seen_pos[i] != 1) bad |= fail("fwrite/fread of a block", NULL);
  if (memcmp(block, back, sizeof block)) bad |= fail("fread gave other bytes than fwrite wrote", NULL);
  fseek(bin, 0, SEEK_END);
  printf("binary: %ld bytes, read back %s\n", ftell(bin), memcmp(block, back, sizeof block) ? "different" : "identical");
  fclose(bin);

  in = fopen(path[2], "r");
  int from[MAXT] = { 0 }, others_lines = 0;
  while (in && fgets(line, sizeof line, in)) {
    int a;
    if (sscanf(line, "to the last thread from %d", &a) == 1 && a >= 0 && a < nthreads) { from[a]++; others_lines++; }
    else bad |= fail("unexpected line in the last thread's file", line);
  }
  if (in) fclose(in);
  for (int t = 0; t < nthreads; t++) if (from[t] != 1) bad |= fail("a line to the last thread's stream", NULL);
  printf("last thread's stream: one line from every thread: %s\n", others_lines == nthreads ? "yes" : "no");

  long want = (long)(2 * nthreads) * (2 * nthreads - 1) / 2;
  if (items != want || words_ok != 2 * nthreads) bad |= fail("records read by the threads", NULL);
  printf("input: two records per thread, each read once: %s\n", items == want && words_ok == 2 * nthreads ? "yes" : "no");
  if (!feof(inp) && fgetc(inp) != 'i') bad |= fail("the next record", NULL);
  fclose(inp);

  for (int i = 0; i < 4; i++) remove(path[i]);
  printf("%s\n", bad ? "FAILED" : "ok");
  return bad;
}
