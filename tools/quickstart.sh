#!/usr/bin/env bash
# quickstart.sh — on a fresh Debian 12 machine: install what is missing, build,
# and run the demo job: 4 local processes under dsmrun, printing the verified
# answer and the per-rank statistics table.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup-deps.sh
[ -d build ] || meson setup build --buildtype=debugoptimized
ninja -C build
exec build/tools/dsmrun -n 4 --stats build/tests/dsm/dsm_sor
