#!/usr/bin/env bash
# Installs what warpsim needs from Debian's packages, then configures and builds one CMake preset.
#   tools/setup.sh [dev|release|asan|fuzz]      (default: release)
# As root it installs missing packages itself; otherwise it prints the one apt-get line to run.
set -euo pipefail

preset="${1:-release}"
case "$preset" in dev|release|asan|fuzz) ;; *) echo "setup.sh: unknown preset '$preset' (dev, release, asan, fuzz)" >&2; exit 2 ;; esac

packages=(g++ cmake ninja-build libboost-program-options-dev libboost-graph-dev libspdlog-dev
          doctest-dev nlohmann-json3-dev libbenchmark-dev)
if [[ "$preset" == fuzz ]]; then packages+=(clang libclang-rt-dev); fi

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

cd "$(dirname "$0")/.."
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
