#!/usr/bin/env bash
# csmith-diff.sh — differential test of ompdsmcc against gcc on csmith programs.
#
#   tools/csmith-diff.sh [-b BUILD] [-n PROCS] [-k KEEPDIR] FIRST_SEED COUNT
#
# For each seed: csmith writes a program (deterministic per seed and csmith
# version), gcc builds and runs it (the reference checksum), ompdsmcc builds
# it and dsmrun runs it on PROCS processes (default 2). The two outputs must
# be identical. Seeds whose gcc build runs longer than the time limit
# (csmith sometimes writes very long loops) are skipped and counted as such.
# Prints one line per failing seed and a summary; exits 1 if any seed failed.
# KEEPDIR keeps the sources and outputs of failing seeds (for creduce).
# OMPDSMCC and DSMRUN override the compiler and launcher taken from BUILD.
set -u
build=build procs=2 keep=
while getopts b:n:k: o; do
  case $o in b) build=$OPTARG ;; n) procs=$OPTARG ;; k) keep=$OPTARG ;; *) exit 2 ;; esac
done
shift $((OPTIND - 1))
[ $# -eq 2 ] || { echo "usage: $0 [-b BUILD] [-n PROCS] [-k KEEPDIR] FIRST_SEED COUNT" >&2; exit 2; }
first=$1 count=$2
command -v csmith >/dev/null || { echo "csmith-diff: csmith is not installed (apt-get install csmith libcsmith-dev)" >&2; exit 77; }
inc=${CSMITH_INCLUDE:-/usr/include/csmith}
[ -f "$inc/csmith.h" ] || { echo "csmith-diff: no $inc/csmith.h (apt-get install libcsmith-dev)" >&2; exit 77; }
ompdsmcc=${OMPDSMCC:-$build/compiler/ompdsmcc} dsmrun=${DSMRUN:-$build/tools/dsmrun}
limit=${CSMITH_TIMEOUT:-10}
work=$(mktemp -d /tmp/csmith-diff.XXXXXX)
trap 'rm -rf "$work"' EXIT
same=0 skipped=0 failed=0
for ((s = first; s < first + count; s++)); do
  src=$work/s$s.c
  csmith --seed "$s" > "$src" 2>/dev/null || { echo "seed $s: csmith failed"; failed=$((failed + 1)); continue; }
  if ! gcc -O1 -w -I"$inc" -o "$work/s$s.gcc" "$src" 2>/dev/null ||
     ! timeout "$limit" "$work/s$s.gcc" > "$work/s$s.ref" 2>/dev/null; then
    skipped=$((skipped + 1)); rm -f "$work"/s$s.*; continue
  fi
  why=
  if ! "$ompdsmcc" -O1 -w -I"$inc" -o "$work/s$s.dsm" "$src" 2> "$work/s$s.err"; then
    why="ompdsmcc failed: $(grep -m1 -E 'error' "$work/s$s.err")"
  elif ! timeout $((limit * 3)) "$dsmrun" -n "$procs" "$work/s$s.dsm" > "$work/s$s.out" 2> "$work/s$s.err"; then
    why="run failed: $(head -c 200 "$work/s$s.err")"
  elif ! cmp -s "$work/s$s.ref" "$work/s$s.out"; then
    why="output differs: gcc $(cat "$work/s$s.ref"), ompdsm $(cat "$work/s$s.out")"
  fi
  if [ -n "$why" ]; then
    echo "seed $s: $why"
    failed=$((failed + 1))
    [ -n "$keep" ] && { mkdir -p "$keep"; cp "$work"/s$s.* "$keep"/; }
  else
    same=$((same + 1))
  fi
  rm -f "$work"/s$s.*
done
echo "csmith-diff: seeds $first..$((first + count - 1)): $same identical to gcc, $failed failed, $skipped skipped (gcc build ran over ${limit}s)"
[ "$failed" -eq 0 ]
