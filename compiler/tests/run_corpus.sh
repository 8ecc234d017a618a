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
expect=$(sed -n 's|^// EXPECT: ||p' "$src")

# One build of a program serves all its runs (1, 2 and 4 processes, with
# and without threads: five in the normal build, each a compile by ompdsmcc
# and one by gcc, most of a short run's time). The binaries are kept beside
# the runs' work directories under a key made of what they are built from:
# the compiler, the runtime library, its headers and linker script, and the
# source. Runs of one program may go at once; the build is under a lock.
here=$(cd "$(dirname "$0")" && pwd)
bin=$(dirname "$work")/corpus-bin/$name
mkdir -p "$(dirname "$bin")"
key=$(stat -L -c '%n %y %s' "$ompdsmcc" "$(dirname "$ompdsmcc")/../sync/libdsm.a" \
        "$here"/../../include/* "$here"/../../dsm/dsm_shared.ld "$src" 2>/dev/null || true)
(
  flock 9
  if [ ! -e "$bin.key" ] || [ "$(cat "$bin.key")" != "$key" ]; then
    rm -f "$bin.key"
    "$ompdsmcc" -O1 -o "$bin.dsm" "$src" -lm
    [ -n "$expect" ] || ${GCC:-gcc} -fopenmp -O1 -w -o "$bin.gcc" "$src" -lm
    printf '%s\n' "$key" > "$bin.key"
  fi
) 9> "$bin.lock"

if [ -n "$expect" ]; then
  printf '%s\n' "$expect" > "$work/$name.ref"
else
  OMP_NUM_THREADS=${OMP_NUM_THREADS:-4} "$bin.gcc" > "$work/$name.ref"
fi
"$@" "$bin.dsm" > "$work/$name.out" 2> "$work/$name.err" || { cat "$work/$name.err" >&2; exit 1; }
cat "$work/$name.err" >&2
diff -u "$work/$name.ref" "$work/$name.out"
# "// STDERR: text" (@N@: the number of processes, from OMP_NUM_THREADS):
# the run's stderr has that text on exactly one line.
want=$(sed -n 's|^// STDERR: ||p' "$src" | sed "s|@N@|${OMP_NUM_THREADS:-}|g")
if [ -n "$want" ]; then
  n=$(grep -cF -- "$want" "$work/$name.err" || true)
  [ "$n" -eq 1 ] || { echo "stderr has '$want' on $n lines, want 1"; exit 1; }
fi
