#!/usr/bin/env bash
# setup-deps.sh — install the Debian 12 packages ompdsm builds and tests with,
# if any is missing. Safe to run again: it does nothing when all are present.
set -euo pipefail

pkgs=(
  build-essential pkg-config meson ninja-build flex bison libsigsegv-dev
  python3 procps iproute2 nftables openssh-client openssh-server
  libopenmpi-dev openmpi-bin            # the apps' MPI baselines
  clang libclang-rt-14-dev              # libFuzzer targets
  afl++                                 # the compiler fuzzer (tools/fuzz-compiler.sh)
  csmith libcsmith-dev creduce          # differential tests of ompdsmcc (tools/csmith-diff.sh)
  libibverbs-dev                        # the optional RDMA transport
  libpmix-dev                           # starting under mpirun or srun (PMIx headers)
  munge slurmd slurmctld slurm-client   # tests/pmix: srun --mpi=pmix on a private one-node cluster
  gnuplot-nox                           # benchmark plots
)

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ((${#missing[@]})); then
  echo "setup-deps: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Large shared arrays are protected page by page; each run of pages with its
# own protection is one kernel mapping. The default limit (65530) is too low
# for multi-GiB arrays with scattered access.
if [ "$(id -u)" -eq 0 ] && [ "$(cat /proc/sys/vm/max_map_count)" -lt 1048576 ]; then
  sysctl -q -w vm.max_map_count=1048576 || true
fi
