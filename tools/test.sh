#!/usr/bin/env bash
# test.sh — on a fresh Debian 12 machine: install what is missing, build, and
# run every test. Extra arguments go to `meson test` (e.g. --suite dsm).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup-deps.sh
[ -d build ] || meson setup build --buildtype=debugoptimized
ninja -C build
# 2 cores: the multi-process jobs block rather than spin, so two test jobs at
# a time keep the machine busy without starving the jobs' own processes.
meson test -C build --print-errorlogs --num-processes 2 "$@"
