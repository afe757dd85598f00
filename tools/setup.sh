#!/usr/bin/env bash
# Installs what warpsim needs from Debian's packages (and the SASS disassembler from PyPI where the
# toolkit lacks it), then configures and builds one CMake preset.
#   tools/setup.sh [dev|release|asan|fuzz]      (default: release)
# As root it installs missing packages itself; otherwise it prints the one apt-get line to run.
set -euo pipefail

preset="${1:-release}"
case "$preset" in dev|release|asan|fuzz) ;; *) echo "setup.sh: unknown preset '$preset' (dev, release, asan, fuzz)" >&2; exit 2 ;; esac

packages=(g++ cmake ninja-build libboost-program-options-dev libboost-graph-dev libspdlog-dev
          doctest-dev nlohmann-json3-dev libbenchmark-dev)
if [[ "$preset" == fuzz ]]; then packages+=(clang libclang-rt-dev); fi
# The test presets render every picture kind in headless Chromium (tools/pictures.py),
# and run a sweep through a single-node Slurm (tools/slurm_local.sh).
if [[ "$preset" == dev || "$preset" == asan ]]; then packages+=(chromium slurm-wlm munge); fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]]; then
    echo "setup.sh: installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "setup.sh: missing packages; run:" >&2
    echo "  sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

# The SASS disassembler (warpsim sass): the toolkit's nvdisasm, or NVIDIA's PyPI wheel of it for
# toolkits without one. Without either, the SASS commands say so and their tests skip.
if command -v ptxas > /dev/null && ! command -v nvdisasm > /dev/null &&
   ! python3 -c 'import nvidia, os, sys; sys.exit(not any(os.path.exists(p + "/cu13/bin/nvdisasm") for p in nvidia.__path__))' 2> /dev/null; then
  echo "setup.sh: installing nvdisasm (pip: nvidia-cuda-nvdisasm)"
  python3 -m pip install --quiet --disable-pip-version-check nvidia-cuda-nvdisasm > /dev/null 2>&1 ||
    echo "setup.sh: could not install nvidia-cuda-nvdisasm; warpsim sass will say it is missing" >&2
fi

cd "$(dirname "$0")/.."
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
