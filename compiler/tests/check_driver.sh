#!/bin/bash
# check_driver.sh OMPDSMCC — ompdsmcc answers what build systems ask a cc
# before they use it (issue 56): --help/-h, --version naming the compiler
# behind it, -dumpversion and -dumpmachine, -E of stdin, -E -dM, options
# without an input (-Wl,--version), a program read from stdin; and CMake
# and Meson configure, build and run an OpenMP project with CC=ompdsmcc
# (each when installed).
set -u
C=$(realpath "$1")
CC_BEHIND=${OMPDSM_CC:-cc}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T" || exit 1
fails=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fails=$((fails + 1)); }
check() { local d=$1; shift; if "$@"; then ok "$d"; else bad "$d"; fi; }

for h in --help -h; do
  "$C" $h > out 2> err; rc=$?
  check "$h: status 0" [ $rc -eq 0 ]
  check "$h: usage on stdout" grep -q '^usage: ompdsmcc' out
  check "$h: nothing on stderr" [ ! -s err ]
done

"$C" --version > out 2>&1; rc=$?
check "--version: status 0" [ $rc -eq 0 ]
check "--version: ompdsmcc first" grep -q '^ompdsmcc [0-9]' <(head -1 out)
check "--version: names the backing compiler" grep -qF "$("$CC_BEHIND" --version | head -1)" out

for q in -dumpversion -dumpmachine; do
  check "$q: what $CC_BEHIND says" [ "$("$C" $q 2>&1)" = "$("$CC_BEHIND" $q 2>&1)" ]
done

echo _OPENMP | "$C" -E - > out 2> err; rc=$?
check "-E - (stdin): status 0" [ $rc -eq 0 ]
check "-E - (stdin): _OPENMP expanded to a date" grep -Eqx ' *20[0-9]{4}' out
"$C" -E -dM - < /dev/null > out 2> err
check "-E -dM -: _OPENMP defined" grep -Eq '^#define _OPENMP 20[0-9]{4}$' out
check "-E -dM -: _OPENMP announces OpenMP 4.5, whose taskloop ompdsmcc accepts" \
  grep -Eq '^#define _OPENMP 201511$' out
check "-E -dM -: the compiler's own macros" grep -q '^#define __STDC_VERSION__' out

"$C" -Wl,--version > out 2>&1; rc=$?
check "-Wl,--version without input: status 0 and the linker's answer" \
  eval '[ $rc -eq 0 ] && grep -Eqi "ld|linker" out'

"$C" > out 2>&1; rc=$?
check "no arguments: status 1, 'no input files'" eval '[ $rc -eq 1 ] && grep -q "no input files" out'

printf '#include <omp.h>\nint main(void) { return omp_get_max_threads() > 0 ? 3 : 4; }\n' |
  "$C" -x c - -o fromstdin 2> err
./fromstdin < /dev/null; rc=$?
check "a program read from stdin builds and runs (status $rc)" [ $rc -eq 3 ]

cat > probe.c <<'CEOF'
#include <omp.h>
#include <stdio.h>
int main(void)
{
  int n = 0;
#pragma omp parallel reduction(+:n)
  n += 1;
  printf("threads %d\n", n);
  return 0;
}
CEOF
# Run alone, the probe is a job of one with a thread per CPU, as gcc gives.
if command -v cmake > /dev/null; then
  mkdir cm && cp probe.c cm/ &&
  printf 'cmake_minimum_required(VERSION 3.13)\nproject(probe C)\nfind_package(OpenMP REQUIRED)\nadd_executable(probe probe.c)\ntarget_link_libraries(probe OpenMP::OpenMP_C)\n' > cm/CMakeLists.txt
  CC="$C" cmake -S cm -B cm/b > cm.log 2>&1 && cmake --build cm/b >> cm.log 2>&1 && cm/b/probe > cm.out 2>> cm.log
  check "CMake configures, builds and runs an OpenMP project" grep -qx "threads $(nproc)" cm.out
  grep -qx "threads $(nproc)" cm.out || cat cm.log
fi
if command -v meson > /dev/null && command -v ninja > /dev/null; then
  mkdir me && cp probe.c me/ &&
  printf "project('probe', 'c')\nexecutable('probe', 'probe.c', dependencies: dependency('openmp'))\n" > me/meson.build
  CC="$C" meson setup me/b me > me.log 2>&1 && ninja -C me/b >> me.log 2>&1 && me/b/probe > me.out 2>> me.log
  check "Meson configures, builds and runs an OpenMP project" grep -qx "threads $(nproc)" me.out
  grep -qx "threads $(nproc)" me.out || cat me.log
fi

echo "$fails failed"
[ $fails -eq 0 ]
