#!/usr/bin/env bash
# Installs the Debian 12 packages the build, the tests and the benchmarks need. Idempotent: a
# second run installs nothing new. Needs root (or sudo).
set -euo pipefail

packages=(
  build-essential cmake ninja-build ccache pkg-config git
  libopenblas-dev            # GEMM-based convolution in MIOpen
  libdnnl-dev                # oneDNN: the peer in benchmarks (never linked into MIOpen)
  libflatbuffers-dev flatbuffers-compiler   # hipDNN graph wire format
  libgtest-dev libgmock-dev googletest      # tests
  libbenchmark-dev           # benchmarks
  libsqlite3-dev
  python3 python3-clang-14   # the MIOpen wrapper generator parses miopen.h with libclang
  valgrind                   # ctest wrapper_hop_callgrind (instructions per wrapper hop)
  python3-matplotlib         # PNG plots of the performance report (benchmarks/report)
  clang-14 libclang-rt-14-dev llvm-14   # sanitizer stages (scripts/ci-sanitizers.sh): ASan/UBSan/TSan runtimes, llvm-symbolizer
  libomp-14-dev              # OpenMP for clang (omp.h, libomp): the dnnl-provider in the sanitizer trees
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update
$SUDO apt-get install -y --no-install-recommends "${missing[@]}"
