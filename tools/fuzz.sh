#!/usr/bin/env bash
# Builds the IR parser's libFuzzer target with clang and runs it.
#   tools/fuzz.sh [SECONDS]      (default 60)
# The corpus starts from kernels_ir/ and tests/ir_invalid/ and grows in build/fuzz/corpus/;
# crashes are written to build/fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
tools/setup.sh fuzz
mkdir -p build/fuzz/corpus build/fuzz/artifacts
build/fuzz/tests/fuzz/ir_parser_fuzzer -max_total_time="$seconds" -max_len=65536 \
  -artifact_prefix=build/fuzz/artifacts/ -print_final_stats=1 \
  build/fuzz/corpus kernels_ir tests/ir_invalid
