#!/bin/sh
# run_deferred.sh OMPDSMCC SRC WORKDIR LAUNCHER ARGS...
# run_corpus.sh with deferred_tasks.c in place of libdsm's task runtime:
# tasks run as late and in as reversed an order as OpenMP lets them, so a
# lowering that captures firstprivates by reference or drops a dependence,
# a taskwait or a taskgroup shows in the output.
set -e
ompdsmcc=$1; src=$2; work=$3; shift 3
here=$(dirname "$0")
mkdir -p "$work"
${CC:-cc} -O1 -c "$here/deferred_tasks.c" -o "$work/deferred_tasks_$(basename "$src" .c).o"
OMPDSMCC_EXTRA="$work/deferred_tasks_$(basename "$src" .c).o -Wl,--allow-multiple-definition" \
  exec sh "$here/run_corpus.sh" "$ompdsmcc" "$src" "$work" "$@"
