/*
 * fuzz_translate.c — the front end and the OpenMP lowering on one
 * preprocessed file, for a fuzzer (tools/fuzz-compiler.sh runs AFL++ on it).
 *
 * A malformed program must end in a diagnostic and exit status 1, never in a
 * crash or a hang. The translator keeps global state, so one process
 * translates one input: AFL++'s fork server gives every input a fresh
 * process.
 */
#include <stdio.h>

#include "emit.h"
#include "ir.h"
#include "lower.h"
#include "parser.h"

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: fuzz_translate FILE.i\n");
    return 2;
  }
  FILE *in = fopen(argv[1], "r");
  if (!in) {
    perror(argv[1]);
    return 2;
  }
  int r = parse_file(in);
  fclose(in);
  if (r || nerrors)
    return 1;
  FILE *out = fopen("/dev/null", "w");
  if (!out)
    return 2;
  lower_unit();
  emit_unit(out);
  fclose(out);
  return nerrors ? 1 : 0;
}
