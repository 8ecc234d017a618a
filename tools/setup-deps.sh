#!/usr/bin/env bash
# setup-deps.sh — install the Debian 12 packages ompdsm needs, if any is
# missing, saying which and why before it does. Safe to run again: it does
# nothing when all are present.
#
#   setup-deps.sh --minimal   what building ompdsm and running programs needs
#                             (tools/quickstart.sh uses this)
#   setup-deps.sh             that, and everything the test suites use
#                             (tools/test.sh): fuzzers, MPI, Slurm, sshd...
#   setup-deps.sh --list      print both sets, with the reasons; install nothing
#
# Needs root or sudo to install. With the full set, as root, it also raises
# the kernel's vm.max_map_count (it says so; see below).
set -euo pipefail

mode=all
case "${1:-}" in
  --minimal) mode=minimal ;;
  --list) mode=list ;;
  "") ;;
  -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
  *) echo "setup-deps: unknown option '$1' (--minimal, --list or none)" >&2; exit 2 ;;
esac

# package|why — building ompdsm and running OpenMP programs on it
minimal=(
  "build-essential|the C compiler ompdsmcc runs behind, and make"
  "pkg-config|finding libsigsegv, and dsm.pc for programs written against dsm.h"
  "meson|the build system"
  "ninja-build|what meson builds with"
  "flex|ompdsmcc's scanner"
  "bison|ompdsmcc's parser"
  "libsigsegv-dev|page faults of the DSM, caught in every program"
  "python3|dsmprof, the sharing profiler's report"
)
# package|why — the test suites and the benchmarks
tests=(
  "procps|the tests look for processes left behind (pgrep)"
  "iproute2|network namespaces as the hosts of a test cluster (launcher, faults)"
  "nftables|the faults suite drops and delays the job's datagrams"
  "openssh-client|starting ranks on other hosts; the ssh tests"
  "openssh-server|the ssh tests start a private sshd on this machine"
  "libopenmpi-dev|the MPI versions of the apps (baselines); mpirun for the PMIx tests"
  "openmpi-bin|mpirun"
  "libpmix-dev|starting programs under mpirun or srun (PMIx headers)"
  "munge|Slurm's authentication, for the srun test (tests/pmix)"
  "slurmd|a private one-node Slurm cluster for the srun test"
  "slurmctld|its controller"
  "slurm-client|srun"
  "libibverbs-dev|the optional RDMA transport and its tests (Soft-RoCE)"
  "clang|libFuzzer targets (the diff decoder, the datagram decoder)"
  "libclang-rt-14-dev|libFuzzer's runtime"
  "afl++|fuzzing ompdsmcc (tools/fuzz-compiler.sh)"
  "csmith|random C programs compiled by ompdsmcc and gcc and compared"
  "libcsmith-dev|csmith's header"
  "creduce|shrinking a csmith program that ompdsmcc gets wrong"
  "gnuplot-nox|the benchmark plots and dsmprof's chart"
)

show() {   # show TITLE ENTRIES...
  local title=$1; shift
  echo "$title"
  for e in "$@"; do printf '  %-20s %s\n' "${e%%|*}" "${e#*|}"; done
}
if [ $mode = list ]; then
  show "minimal (build and run; tools/quickstart.sh):" "${minimal[@]}"
  show "and for the tests (tools/test.sh):" "${tests[@]}"
  echo "and, as root, vm.max_map_count raised to 1048576 (see below in this script)"
  exit 0
fi

wanted=("${minimal[@]}")
[ $mode = all ] && wanted+=("${tests[@]}")
missing=()
for e in "${wanted[@]}"; do
  p=${e%%|*}
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$e")
done

if ((${#missing[@]})); then
  show "setup-deps: installing these missing Debian packages:" "${missing[@]}"
  names=()
  for e in "${missing[@]}"; do names+=("${e%%|*}"); done
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${names[@]}" >/dev/null
fi

# Large shared arrays are protected page by page; each run of pages with its
# own protection is one kernel mapping. The default limit (65530) is too low
# for the multi-GiB arrays with scattered access that some tests make. It is
# raised for this boot only, as root, for the full set, and said.
if [ $mode = all ] && [ "$(id -u)" -eq 0 ]; then
  cur=$(cat /proc/sys/vm/max_map_count)
  if [ "$cur" -lt 1048576 ]; then
    echo "setup-deps: raising vm.max_map_count from $cur to 1048576 until the next boot"
    echo "            (each run of pages with its own protection is a mapping; large tests need more)"
    sysctl -q -w vm.max_map_count=1048576 || echo "setup-deps: could not (in a container?); the large tests may fail"
  fi
fi
