#!/usr/bin/env bash
# fuzz-compiler.sh — fuzz ompdsmcc's front end and OpenMP lowering with AFL++
# for a bounded time. Every input must give a diagnostic or a translation;
# a crash or a hang is a failure (exit 1, with the inputs under OUT/).
#
#   tools/fuzz-compiler.sh [SECONDS [OUT]]        default 60 s, /tmp/ompdsmcc-afl
#
# Needs afl++ (Debian package afl++), flex and bison. Seeds are the OpenMP
# corpus of compiler/tests/corpus with their #include lines removed (small
# seeds fuzz faster; the full glibc headers are covered by the parse tests).
set -euo pipefail
secs=${1:-60}
out=${2:-/tmp/ompdsmcc-afl}
src=$(cd "$(dirname "$0")/.." && pwd)/compiler
command -v afl-fuzz >/dev/null && command -v afl-cc >/dev/null || {
  echo "fuzz-compiler: afl++ is not installed (apt-get install afl++)" >&2; exit 77; }

work=$(mktemp -d /tmp/ompdsmcc-fuzz.XXXXXX)
trap 'rm -rf "$work"' EXIT
flex --outfile="$work/lexer.c" --header-file="$work/lexer.h" "$src/lexer.l"
bison --defines="$work/parser.h" --output="$work/parser.c" "$src/parser.y" 2>/dev/null
# Every pass of the compiler, found rather than listed, so a new file
# cannot be left out: all of compiler/*.c but the driver, whose main()
# the harness replaces.
passes=()
for f in "$src"/*.c; do
  [ "$(basename "$f")" = driver.c ] || passes+=("$f")
done
AFL_QUIET=1 afl-cc -O1 -g -D_GNU_SOURCE -I"$work" -I"$src" -w -o "$work/fuzz_translate" \
  "${passes[@]}" "$work/lexer.c" "$work/parser.c"

mkdir -p "$work/seeds"
for f in "$src"/tests/corpus/*.c "$src"/tests/errors/*.c; do
  { echo 'int printf(const char *, ...); void *malloc(unsigned long); double sqrt(double);'
    grep -v '^#include' "$f"; } > "$work/seeds/$(basename "$f" .c).i"
done

rm -rf "$out"
# Containers rarely let us set core_pattern or the CPU governor; AFL++ only
# needs to be told that this is fine.
export AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1
afl-fuzz -V "$secs" -t 2000 -m none -i "$work/seeds" -o "$out" -- "$work/fuzz_translate" @@ \
  > "$work/afl.log" 2>&1 || { tail -20 "$work/afl.log"; exit 1; }
stats="$out/default/fuzzer_stats"
execs=$(awk -F: '/^execs_done/ {gsub(/ /,"",$2); print $2}' "$stats")
crashes=$(awk -F: '/^saved_crashes|^unique_crashes/ {gsub(/ /,"",$2); print $2; exit}' "$stats")
hangs=$(awk -F: '/^saved_hangs|^unique_hangs/ {gsub(/ /,"",$2); print $2; exit}' "$stats")
paths=$(awk -F: '/^corpus_count|^paths_total/ {gsub(/ /,"",$2); print $2; exit}' "$stats")
echo "fuzz-compiler: ${secs}s, $execs executions, $paths inputs in the queue, $crashes crashes, $hangs hangs"
# AFL++ calls an input a hang when one run exceeds -t; on a loaded 2-core
# machine that can be a slow run, not a loop. Every hang is replayed with a
# generous limit and counts only if it still does not finish; every crash is
# replayed to show the signal. A replayed input must end in status 0 or 1
# (translated, or a diagnostic).
bad=0
for f in "$out"/default/crashes/id:* "$out"/default/hangs/id:*; do
  [ -e "$f" ] || continue
  rc=0
  timeout 20 "$work/fuzz_translate" "$f" >/dev/null 2>&1 || rc=$?
  if [ "$rc" -gt 1 ]; then
    echo "fuzz-compiler: $f: status $rc on replay" >&2
    bad=$((bad + 1))
  else
    echo "fuzz-compiler: $f: finished with status $rc on replay (a slow run, not a failure)"
  fi
done
[ "$bad" = 0 ] || { echo "fuzz-compiler: $bad inputs crash or hang; they are under $out/default/{crashes,hangs}" >&2; exit 1; }
