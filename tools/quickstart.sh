#!/usr/bin/env bash
# quickstart.sh — on a fresh Debian 12 machine: install the few packages that
# building needs (tools/setup-deps.sh --minimal says which and why), build,
# and run the main job: QSORT (apps/qsort/qsort_omp.c, plain OpenMP with a
# condition-variable task queue) compiled by ompdsmcc and run by dsmrun on 4
# local processes, printing its verified answer and the per-rank statistics
# table. The test suites need more: tools/test.sh installs the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup-deps.sh --minimal
[ -d build ] || meson setup build --buildtype=debugoptimized
ninja -C build
exec build/tools/dsmrun -n 4 --stats build/apps/qsort_ompdsm -s small
