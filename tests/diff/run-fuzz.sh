#!/bin/sh
# run-fuzz.sh — build tests/diff/fuzz_diff.c with clang's libFuzzer, ASan and
# UBSan, and run it for a bounded time.
#
#   run-fuzz.sh [SECONDS [OUTDIR]]   build in OUTDIR and fuzz SECONDS (default 60)
#   run-fuzz.sh --check              exit 0 if clang can build a libFuzzer target
#
# OUTDIR (default /tmp/ompdsm-fuzz-diff) keeps the binary, the corpus, which
# grows from run to run, and crash-* files for any input that failed; rerun
# one with `OUTDIR/fuzz_diff OUTDIR/crash-...`. Exit status 77 (meson's
# "skipped") when clang or libFuzzer is missing (Debian: clang and
# libclang-rt-14-dev).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
CLANG=${CLANG:-clang}

can_fuzz() {
  command -v "$CLANG" >/dev/null 2>&1 || return 1
  t=$(mktemp -d)
  printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' > "$t/probe.c"
  if "$CLANG" -fsanitize=fuzzer,address,undefined "$t/probe.c" -o "$t/probe" >/dev/null 2>&1; then
    rm -rf "$t"; return 0
  fi
  rm -rf "$t"; return 1
}

if [ "${1:-}" = "--check" ]; then
  can_fuzz
  exit $?
fi

secs=${1:-60}
out=${2:-/tmp/ompdsm-fuzz-diff}
case $secs in ''|*[!0-9]*) echo "run-fuzz.sh: error: SECONDS must be a number, not '$secs'" >&2; exit 2;; esac

if ! can_fuzz; then
  echo "run-fuzz.sh: skipped: $CLANG cannot build -fsanitize=fuzzer (install clang and libclang-rt-14-dev)" >&2
  exit 77
fi

mkdir -p "$out/corpus"
"$CLANG" -g -O2 -std=gnu11 -Wall -Wextra -Werror \
  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$src/dsm" -I"$here" \
  "$here/fuzz_diff.c" "$src/dsm/diff.c" -o "$out/fuzz_diff"

# -timeout: one input taking this long is a hang. -rss_limit_mb keeps a bug
# that allocates from eating the machine. The fuzzer stops by itself after
# max_total_time.
exec "$out/fuzz_diff" "$out/corpus" \
  -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 \
  -artifact_prefix="$out/" -print_final_stats=1
