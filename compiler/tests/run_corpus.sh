#!/bin/sh
# run_corpus.sh OMPDSMCC SRC WORKDIR [LAUNCHER ARGS...]
# Builds SRC with ompdsmcc and runs it (under the launcher, e.g. dsmrun -n 4);
# the reference output is "// EXPECT: text" from the source if present
# (programs using the seed's extensions, which gcc ignores), otherwise the
# output of the same program built with gcc -fopenmp. Fails on any difference,
# and when a "// STDERR: text" line in the source is not matched (below).
set -e
ompdsmcc=$1; src=$2; work=$3; shift 3
name=$(basename "$src" .c)
mkdir -p "$work"
"$ompdsmcc" -O1 -o "$work/$name.dsm" "$src" -lm
expect=$(sed -n 's|^// EXPECT: ||p' "$src")
if [ -n "$expect" ]; then
  printf '%s\n' "$expect" > "$work/$name.ref"
else
  ${GCC:-gcc} -fopenmp -O1 -w -o "$work/$name.gcc" "$src" -lm
  OMP_NUM_THREADS=${OMP_NUM_THREADS:-4} "$work/$name.gcc" > "$work/$name.ref"
fi
"$@" "$work/$name.dsm" > "$work/$name.out" 2> "$work/$name.err" || { cat "$work/$name.err" >&2; exit 1; }
cat "$work/$name.err" >&2
diff -u "$work/$name.ref" "$work/$name.out"
# "// STDERR: text" (@N@: the number of processes, from OMP_NUM_THREADS):
# the run's stderr has that text on exactly one line.
want=$(sed -n 's|^// STDERR: ||p' "$src" | sed "s|@N@|${OMP_NUM_THREADS:-}|g")
if [ -n "$want" ]; then
  n=$(grep -cF -- "$want" "$work/$name.err" || true)
  [ "$n" -eq 1 ] || { echo "stderr has '$want' on $n lines, want 1"; exit 1; }
fi
