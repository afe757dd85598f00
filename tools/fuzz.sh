#!/usr/bin/env bash
# Builds the libFuzzer targets with clang and runs each: the IR parser, the GPU config parser and
# `banks`' index expressions.
#   tools/fuzz.sh [SECONDS]      (per target; default 60)
# Each corpus starts from the repository's own inputs and grows in build/fuzz/corpus/<target>/;
# crashes are written to build/fuzz/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
tools/setup.sh fuzz
mkdir -p build/fuzz/artifacts
run() {
  local target="$1"; shift
  mkdir -p "build/fuzz/corpus/$target"
  "build/fuzz/tests/fuzz/$target" -max_total_time="$seconds" -max_len=65536 \
    -artifact_prefix=build/fuzz/artifacts/ -print_final_stats=1 "build/fuzz/corpus/$target" "$@"
}
run ir_parser_fuzzer kernels_ir tests/ir_invalid
run config_fuzzer configs tests/bad_input
run index_expression_fuzzer tests/fuzz/index_corpus
