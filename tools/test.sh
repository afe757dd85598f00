#!/usr/bin/env bash
# Sets up, builds and runs the test suite of one preset (default: dev; asan for the sanitizers).
#   tools/test.sh [dev|asan]
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-dev}"
tools/setup.sh "$preset"
ctest --preset "$preset" --parallel "$(nproc)"
