#!/usr/bin/env bash
# quickstart.sh — on a fresh Debian 12 machine: install what is missing, build,
# and run the main job: QSORT (apps/qsort/qsort_omp.c, plain OpenMP with the
# seed's condition-variable task queue) compiled by ompdsmcc and run by dsmrun
# on 4 local processes, printing its verified answer and the per-rank
# statistics table.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup-deps.sh
[ -d build ] || meson setup build --buildtype=debugoptimized
ninja -C build
exec build/tools/dsmrun -n 4 --stats build/apps/qsort_ompdsm -s small
