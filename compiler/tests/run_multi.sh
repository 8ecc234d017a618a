#!/bin/sh
# run_multi.sh OMPDSMCC SRCDIR WORKDIR [LAUNCHER ARGS...]
# Separate compilation and link of multi/*.c, then a run under the launcher;
# the orphaned loop in work.c must fill main's local array.
set -e
ompdsmcc=$1; dir=$2; work=$3; shift 3
mkdir -p "$work"
"$ompdsmcc" -O1 -c "$dir/main.c" -o "$work/main.o"
"$ompdsmcc" -O1 -c "$dir/work.c" -o "$work/work.o"
"$ompdsmcc" "$work/main.o" "$work/work.o" -o "$work/multi"
out=$("$@" "$work/multi")
[ "$out" = 59700 ] || { echo "got '$out', want 59700"; exit 1; }
