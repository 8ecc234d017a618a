#!/bin/sh
# check_error.sh OMPDSMCC SRC WORKDIR
# SRC holds "// expect: FILE:LINE:COL: error: TEXT". ompdsmcc must exit 1,
# print that text, and leave no object file behind.
ompdsmcc=$1; src=$2; work=$3
name=$(basename "$src" .c)
mkdir -p "$work"
want=$(sed -n 's|^// expect: ||p' "$src")
[ -n "$want" ] || { echo "no '// expect:' line in $src"; exit 1; }
rm -f "$work/$name.o"
"$ompdsmcc" -c "$src" -o "$work/$name.o" 2> "$work/$name.err"
rc=$?
cat "$work/$name.err"
[ $rc -eq 1 ] || { echo "exit status $rc, want 1"; exit 1; }
[ ! -e "$work/$name.o" ] || { echo "object file written despite the error"; exit 1; }
grep -qF -- "$want" "$work/$name.err" || { echo "missing: $want"; exit 1; }
