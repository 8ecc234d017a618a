#!/bin/sh
# check_warnings.sh OMPDSMCC FILE MIN — ompdsmcc -Wall -Wextra gives the
# warnings gcc -fopenmp gives for FILE, at the same file and line, and no
# others (issue 56: they were all lost, and generated code could add its
# own). Columns are not compared: a warning about a string literal's
# contents points inside the literal with gcc, at its start with ompdsmcc
# (cc finds no substring locations after line markers). MIN: the least
# number of warnings gcc must give, so that a program meant to warn cannot
# pass by silence on both sides.
set -u
ompdsmcc=$1; src=$2; min=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# "file:line:col: warning: text [-Wflag]" -> "file:line: warning: text [-Wflag]"
keep() { grep -E '^[^ :]+:[0-9]+:[0-9]+: warning: ' | sed -E 's/^([^:]+:[0-9]+):[0-9]+:/\1:/' | sort -u; }
gcc -fopenmp -Wall -Wextra -O1 -c "$src" -o "$tmp/gcc.o" 2> "$tmp/gcc.err" || { cat "$tmp/gcc.err"; exit 1; }
"$ompdsmcc" -Wall -Wextra -O1 -c "$src" -o "$tmp/dsm.o" 2> "$tmp/dsm.err" || { cat "$tmp/dsm.err"; exit 1; }
keep < "$tmp/gcc.err" > "$tmp/gcc.w"
keep < "$tmp/dsm.err" > "$tmp/dsm.w"
n=$(wc -l < "$tmp/gcc.w")
echo "gcc -fopenmp: $n warnings"
cat "$tmp/gcc.w"
if [ "$n" -lt "$min" ]; then
  echo "check_warnings: gcc gave $n warnings, the test expects at least $min"; exit 1
fi
if ! diff -u "$tmp/gcc.w" "$tmp/dsm.w"; then
  echo "check_warnings: ompdsmcc's warnings (+) differ from gcc -fopenmp's (-)"
  echo "--- ompdsmcc said:"; cat "$tmp/dsm.err"
  exit 1
fi
echo "check_warnings: ompdsmcc gives the same $n warnings"
