#!/bin/bash
# check-compiler-deps.sh BUILDDIR — ompdsmcc's lowering depends one way
# (issue 55).
#
#   core        compiler/lower.c (the walk) and lower_context.c (output
#               buffers, substitutions, the construct stack): lower.h
#   constructs  compiler/omp_*.c, one file per kind of construct; their
#               entry points are declared in omp_lower.h, the one door
#   helpers     what several constructs share, each in a file named for
#               its idea: capture.c, datasharing.c, loop.c
#
# From the objects of BUILDDIR/compiler/ompdsmcc.p, by `nm`, for every
# symbol an object uses that another object defines:
#   - an omp_*.c file uses nothing defined in another omp_*.c file (what
#     two of them share belongs in a helper, or goes through the core, as
#     lower_range and lower_construct do);
#   - the core, and every other file, uses of an omp_*.c file only what
#     omp_lower.h declares (the parser also calls omp_parse.c, the
#     directives' parser, through omp_parse.h);
# and the non-static functions of the lowering carry their file's prefix
# (the table below). Each offence is printed with the file that commits it
# and the symbol, and the check fails. Run by the `layers` suite.
set -u
build=${1:?usage: check-compiler-deps.sh BUILDDIR}
dir="$build/compiler/ompdsmcc.p"
src=$(cd "$(dirname "$0")/.." && pwd)/compiler
[ -d "$dir" ] || { echo "check-compiler-deps.sh: no $dir (build ompdsmcc first)" >&2; exit 2; }
shopt -s nullglob
objs=("$dir"/*.o)
[ ${#objs[@]} -gt 0 ] || { echo "check-compiler-deps.sh: no objects in $dir" >&2; exit 2; }

name() { local m=${1##*/}; m=${m%.o}; echo "${m#meson-generated_.._}"; }   # foo.c

# A construct file: omp_*.c. CHECK_COMPILER_DEPS_OMP=FILE.c counts one more
# file as one (its test in tests/layers: with capture.c taken for a
# construct's file, the outliner's and the task lowering's calls into it
# must fail the check, as they did before capture.c existed).
is_omp() { [[ $1 == omp_*.c || $1 == "${CHECK_COMPILER_DEPS_OMP:-}" ]]; }
is_core() { [[ $1 == lower.c || $1 == lower_context.c ]]; }

# What a header declares: functions and extern variables.
declares() {
  perl -0777 -ne 's{/\*.*?\*/}{}gs; s{//[^\n]*}{}g; s{^\s*#[^\n]*}{}mg;
    print "$1\n" while /\b([A-Za-z_]\w*)\s*\([^;{]*\)\s*(?:__attribute__\s*\(\(.*?\)\)\s*)?;/gs;
    print "$1\n" while /\bextern\b[^;(]*?\b([A-Za-z_]\w*)\s*(?:\[[^]]*\])?\s*;/gs' "$1"
}
declare -A door parse_door
for s in $(declares "$src/omp_lower.h"); do door[$s]=1; done
for s in $(declares "$src/omp_parse.h"); do parse_door[$s]=1; done
# CHECK_COMPILER_DEPS_HIDE=SYMBOL leaves one entry point out of the door
# (its test: lower.c's call of it must then fail the check).
[ -n "${CHECK_COMPILER_DEPS_HIDE:-}" ] && unset "door[$CHECK_COMPILER_DEPS_HIDE]"
[ ${#door[@]} -gt 0 ] || { echo "check-compiler-deps.sh: nothing declared in $src/omp_lower.h" >&2; exit 2; }

# The prefixes of the lowering's non-static functions, by file. The core
# names its functions for what they act on; a construct's file has its
# entry points (omp_lower_<construct>) and may have omp_<file>_* ones.
prefixes() {
  case "$1" in
    lower.c) echo "lower_" ;;
    lower_context.c) echo "out_ gen ctx_ sym_text frame_ c_escape" ;;
    capture.c) echo "cap_ caps_" ;;
    datasharing.c) echo "ds_" ;;
    loop.c) echo "loop_" ;;
    omp_*.c) local f=${1%.c}; echo "omp_lower_ ${f}_ $f" ;;
  esac
}

declare -A def
for o in "${objs[@]}"; do
  m=$(name "$o")
  while read -r _ _ sym; do def[$sym]=$m; done < <(nm --defined-only -g "$o" | awk 'NF == 3')
done

bad=0 calls=0
for o in "${objs[@]}"; do
  m=$(name "$o")
  while read -r _ sym; do
    d=${def[$sym]:-}
    [ -n "$d" ] && [ "$d" != "$m" ] && is_omp "$d" || continue
    calls=$((calls + 1))
    if is_omp "$m"; then
      echo "check-compiler-deps.sh: $m calls $sym, defined in $d: one omp_*.c file calls another" \
           "(share it through a helper or the core)"
      bad=1
    elif [ -z "${door[$sym]:-}" ] && { is_core "$m" || [ -z "${parse_door[$sym]:-}" ]; }; then
      echo "check-compiler-deps.sh: $m calls $sym, defined in $d, which omp_lower.h does not declare"
      bad=1
    fi
  done < <(nm -u "$o" | awk 'NF == 2')
  pre=$(prefixes "$m")
  [ -n "$pre" ] || continue
  while read -r _ t sym; do
    [ "$t" = T ] || continue
    ok=0
    for p in $pre; do [[ $sym == "$p"* ]] && ok=1; done
    [ $ok = 1 ] || { echo "check-compiler-deps.sh: $m defines $sym: a function of $m begins with one of: $pre"; bad=1; }
  done < <(nm --defined-only -g "$o" | awk 'NF == 3')
done

[ $bad = 0 ] && echo "check-compiler-deps.sh: ${#objs[@]} objects; the $calls calls into omp_*.c files go through omp_lower.h (or omp_parse.h), none from another omp_*.c file"
exit $bad
