#!/bin/bash
# check-docs-names.sh [DOC...] — every file and function that docs/hacking.md
# (or the DOCs given) names exists in the tree (issue 55: the map had
# drifted, naming functions that were gone).
#
# Files: every word ending in .c .h .sh .py .l .y .ld .md must be a file of
# the repository (by its path when it has one, else by its name). Functions:
# every `identifier` in backquotes that looks like one of ours (has an
# underscore and is lower case) must be defined or declared in a source file
# or a meson.build (tests/layers, whose test plants missing names, aside);
# environment variables (upper case) must be read somewhere. Prints what is
# missing and exits 1.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
[ $# -gt 0 ] || set -- docs/hacking.md
files=$(git ls-files 2>/dev/null) || files=$(find . -type f -not -path './build*' | sed 's|^\./||')
bad=0
for doc in "$@"; do
  [ -f "$doc" ] || { echo "check-docs-names.sh: no $doc" >&2; exit 2; }
  for f in $(grep -oE '[A-Za-z0-9_./-]+\.(c|h|sh|py|l|y|ld|md)\b' "$doc" | sort -u); do
    case "$f" in
      _*|.*) continue ;;   # a suffix pattern (_omp.c) or a bare extension
    esac
    if [[ $f == */* ]]; then
      grep -qxF "$f" <<<"$files" || grep -qE "(^|/)${f//./\\.}\$" <<<"$files" ||
        { echo "check-docs-names.sh: $doc names $f: no such file"; bad=1; }
    else
      grep -qE "(^|/)${f//./\\.}\$" <<<"$files" ||
        { echo "check-docs-names.sh: $doc names $f: no such file"; bad=1; }
    fi
  done
  srcs=$(grep -E '\.(c|h|l|y|sh|py|build)$' <<<"$files" | grep -v '^tests/layers/')
  for w in $(grep -oE '`[a-z][a-z0-9]*_[a-z0-9_]*`' "$doc" | tr -d '`' | sort -u); do
    # shellcheck disable=SC2086
    grep -qE "(^|[^A-Za-z0-9_])$w[[:space:]]*(\(|=|\[|;|,)|^$w\b|define $w\b" $srcs ||
      { echo "check-docs-names.sh: $doc names \`$w\`: not found in the sources"; bad=1; }
  done
  for w in $(grep -oE '`DSM_[A-Z0-9_]*`' "$doc" | tr -d '`' | sort -u); do
    # shellcheck disable=SC2086
    grep -qF "\"$w\"" $srcs || { echo "check-docs-names.sh: $doc names $w: no source reads it"; bad=1; }
  done
done
[ $bad = 0 ] && echo "check-docs-names.sh: every file, function and variable named in $* exists"
exit $bad
