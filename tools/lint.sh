#!/usr/bin/env bash
# Checks the C++ sources against .clang-format (every tracked .cpp and .hpp), and with `tidy`
# also runs .clang-tidy's checks over the product sources (needs the dev preset's packages:
# tools/setup.sh dev).
#   tools/lint.sh          formatting only (what CI runs)
#   tools/lint.sh tidy     formatting and clang-tidy
#   tools/lint.sh fix      reformats the files in place
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-format}"
case "$mode" in format|tidy|fix) ;; *) echo "lint.sh: unknown mode '$mode' (format, tidy, fix)" >&2; exit 2 ;; esac

packages=(clang-format)
if [[ "$mode" == tidy ]]; then packages+=(clang-tidy); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  if [[ $(id -u) -eq 0 ]]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "lint.sh: missing packages; run: sudo apt-get install -y ${missing[*]}" >&2
    exit 1
  fi
fi

mapfile -t files < <(git ls-files '*.cpp' '*.hpp')
if [[ "$mode" == fix ]]; then
  clang-format -i "${files[@]}"
  exit 0
fi
unformatted=()
for f in "${files[@]}"; do
  clang-format --dry-run -Werror "$f" > /dev/null 2>&1 || unformatted+=("$f")
done
if ((${#unformatted[@]})); then
  echo "lint.sh: not formatted as .clang-format says (tools/lint.sh fix formats them):" >&2
  printf '  %s\n' "${unformatted[@]}" >&2
  exit 1
fi
echo "lint.sh: ${#files[@]} files formatted"

if [[ "$mode" == tidy ]]; then
  # The dev preset compiles its sources in batches (a unity build), whose compile commands name
  # the batches, not the files: clang-tidy reads a configuration of its own, one file a command.
  cmake --preset dev -B build/tidy -DCMAKE_UNITY_BUILD=OFF > /dev/null
  mapfile -t sources < <(git ls-files 'sim/*.cpp' 'tools/*.cpp' 'cuda_backend/*.cpp' |
    grep -v -e 'cupti_counters.cpp' -e '\.in$')
  printf '%s\n' "${sources[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy --quiet -p build/tidy \
    --extra-arg=-Wno-unknown-warning-option
  echo "lint.sh: clang-tidy found nothing in ${#sources[@]} files"
fi
