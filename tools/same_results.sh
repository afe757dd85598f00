#!/usr/bin/env bash
# Proves that a change leaves every result alone: runs every launch of every kernel in
# kernels_ir/ in functional mode and in timing mode on 1 and on 2 simulation threads, and
# compares the JSON reports byte for byte (host wall-clock figures removed, as they are the
# only thing allowed to differ).
#
#   tools/same_results.sh snapshot WARPSIM OUTDIR   reports of one binary into OUTDIR
#   tools/same_results.sh compare BASE_REV          builds BASE_REV and the work tree
#                                                   (release), snapshots both, diffs them
# Exit status 0 when every report is identical, 1 when any differs.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="$(nproc)"
if ! command -v jq > /dev/null; then
  if [[ $(id -u) -eq 0 ]]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq > /dev/null
  else
    echo "same_results.sh: needs jq; run: sudo apt-get install -y jq" >&2
    exit 1
  fi
fi

# Every launch in kernels_ir/, as "FILE NAME", where NAME is the launch's alias if it has one.
list_launches() {
  find kernels_ir -name '*.kir' | sort | while read -r file; do
    sed -nE 's/^launch +([A-Za-z_][A-Za-z0-9_]*)( +as +([A-Za-z_][A-Za-z0-9_]*))?.*/\1 \3/p' "$file" |
      while read -r kernel alias; do echo "$file ${alias:-$kernel}"; done
  done
}

# One launch's three reports: functional, timing on 1 thread, timing on 2 threads.
snapshot_launch() {
  local warpsim="$1" outdir="$2" file="$3" name="$4"
  local stem="$outdir/$(basename "$file" .kir).$name"
  local -a runs=("functional:--mode functional" "timing1:--mode timing --threads 1"
    "timing2:--mode timing --threads 2")
  for run in "${runs[@]}"; do
    local tag="${run%%:*}" flags="${run#*:}"
    # shellcheck disable=SC2086 # the flags are words on purpose
    if "$warpsim" run "$file" --launch "$name" $flags --json "$stem.$tag.raw" \
      > /dev/null 2> "$stem.$tag.err"; then
      jq -S 'del(.host)' "$stem.$tag.raw" > "$stem.$tag.json"
    else
      echo "exit $?" > "$stem.$tag.json"
      cat "$stem.$tag.err" >> "$stem.$tag.json"
    fi
    rm -f "$stem.$tag.raw" "$stem.$tag.err"
  done
}

snapshot() {
  local warpsim outdir
  warpsim="$(realpath "$1")"
  outdir="$2"
  mkdir -p "$outdir"
  export -f snapshot_launch
  list_launches | xargs -P "$jobs" -L 1 bash -c 'snapshot_launch "$0" "$1" "$2" "$3"' \
    "$warpsim" "$outdir"
  echo "$(find "$outdir" -name '*.json' | wc -l) reports in $outdir"
}

compare() {
  local base_rev="$1" scratch
  scratch="$(mktemp -d)"
  # The scratch folder is named now: the trap runs after this function's locals are gone.
  # shellcheck disable=SC2064
  trap "git worktree remove --force '$scratch/base' > /dev/null 2>&1 || true; rm -rf '$scratch'" EXIT
  git worktree add --detach "$scratch/base" "$base_rev" > /dev/null
  (cd "$scratch/base" && cmake --preset release > /dev/null &&
    cmake --build --preset release --target warpsim > /dev/null)
  tools/setup.sh release > /dev/null
  snapshot "$scratch/base/build/release/warpsim" "$scratch/before"
  snapshot build/release/warpsim "$scratch/after"
  if diff -r "$scratch/before" "$scratch/after" > "$scratch/diff"; then
    echo "identical: every report of $base_rev equals the work tree's"
  else
    echo "different reports ($(grep -c '^diff' "$scratch/diff" || true) files):"
    head -100 "$scratch/diff"
    return 1
  fi
}

case "${1:-}" in
  snapshot) snapshot "$2" "$3" ;;
  compare) compare "$2" ;;
  *) sed -n '2,10p' "$0" >&2; exit 2 ;;
esac
