#!/bin/sh
# check_notes.sh OMPDSMCC SRC WORKDIR
# The lines of SRC marked /* NOWAIT: yes */ must be exactly those on which
# `ompdsmcc -v` notes that a loop's worksharing barriers were dropped
# (compiler/omp_nowait.c); a line marked /* NOWAIT: no */ must get no such note.
ompdsmcc=$1; src=$2; work=$3
name=$(basename "$src" .c)
mkdir -p "$work"
"$ompdsmcc" -v -c "$src" -o "$work/$name-notes.o" 2> "$work/$name.notes" ||
  { cat "$work/$name.notes"; echo "ompdsmcc failed"; exit 1; }
want=$(grep -n '/\* NOWAIT: yes \*/' "$src" | cut -d: -f1 | sort -n | tr '\n' ' ')
never=$(grep -n '/\* NOWAIT: no \*/' "$src" | cut -d: -f1 | sort -n | tr '\n' ' ')
got=$(sed -n 's|^[^:]*:\([0-9]*\):[0-9]*: note: the barriers of .*|\1|p' "$work/$name.notes" |
      sort -n | tr '\n' ' ')
echo "marked yes: $want"
echo "marked no:  $never"
echo "noted:      $got"
[ -n "$want" ] && [ -n "$never" ] || { echo "no NOWAIT markers in $src"; exit 1; }
[ "$got" = "$want" ] || { echo "the loops whose barriers were dropped are not those marked yes"; exit 1; }
