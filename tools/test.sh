#!/usr/bin/env bash
# test.sh — on a fresh Debian 12 machine: install what is missing, build, and
# run every test, in three builds:
#
#   build/        the normal build: every suite
#   build-asan/   AddressSanitizer + UndefinedBehaviorSanitizer: every suite
#                 again (libdsm, the tools, the compiler, the apps and the
#                 programs ompdsmcc builds are all instrumented; the compiler
#                 corpus runs on 2 and 4 processes, not 1)
#   build-tsan/   ThreadSanitizer: the suites whose processes run a service
#                 thread next to the application thread (transport, dsm,
#                 sync, and verbs with its NIC stand-in thread), the two
#                 volume tests at a quarter of their volume; then the runs
#                 with two OpenMP threads per process (threads-run: the
#                 compiler corpus on 2 processes, the apps on 1 and 2)
#
# Arguments go to `meson test` and then only the normal build is tested
# (e.g. `tools/test.sh --suite dsm` for a quick look). OMPDSM_SANITIZERS=0
# skips the two sanitizer builds.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup-deps.sh

# 2 cores: the multi-process jobs block rather than spin, so two test jobs at
# a time keep the machine busy without starving the jobs' own processes.
run_tests() {   # run_tests BUILDDIR [meson test arguments...]
  local dir=$1; shift
  ninja -C "$dir"
  meson test -C "$dir" --print-errorlogs --num-processes 2 "$@"
}

# Two test jobs share the machine's CPUs, so a job's own rank count says
# nothing about free CPUs: ranks are not pinned (dsm/bind.c), and the
# scheduler balances the two jobs. The cpu_bind tests pin on purpose.
export DSM_CPU_BIND=${DSM_CPU_BIND:-none}
# Every event that changes a page checks that the page is left in one of
# its states (dsm/page_state.c; docs/protocol.md, "A page's states").
export DSM_CHECK_PAGES=${DSM_CHECK_PAGES:-1}
[ -d build ] || meson setup build --buildtype=debugoptimized
if (($#)); then
  run_tests build "$@"
  exit
fi
run_tests build
echo "test.sh: the dsm and sync suites again with two threads in each process"
run_tests build --setup threads --suite dsm --suite sync
[ "${OMPDSM_SANITIZERS:-1}" = 0 ] && exit 0

# A sanitizer report must fail the test that caused it: UBSan stops at the
# first finding (ASan and TSan always do, with exit status 1 and 66).
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
echo "test.sh: the whole suite again under AddressSanitizer + UndefinedBehaviorSanitizer"
[ -d build-asan ] || meson setup build-asan --buildtype=debugoptimized \
  -Db_sanitize=address,undefined -Db_lundef=false
# The network-fault test over namespaces runs in the normal build only: it
# is the longest test (150 s under ASan, alone on the machine), and under
# ASan the transport suite's loss and duplication tests take the same paths.
OMPDSM_NETEM=0 run_tests build-asan
echo "test.sh: transport, dsm, sync and verbs suites under ThreadSanitizer"
# No MPI baselines here: their tests do not run under TSan.
[ -d build-tsan ] || meson setup build-tsan --buildtype=debugoptimized \
  -Db_sanitize=thread -Db_lundef=false -Dmpi=disabled
run_tests build-tsan --suite transport --suite dsm --suite sync --suite verbs
echo "test.sh: the dsm and sync suites under ThreadSanitizer with two threads in each process"
run_tests build-tsan --setup threads --suite dsm --suite sync
echo "test.sh: OpenMP programs and apps under ThreadSanitizer with two threads in each process"
run_tests build-tsan --suite threads-run
