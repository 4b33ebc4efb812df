#!/usr/bin/env bash
# Builds the fuzz targets of fuzz/ (libFuzzer with the address and undefined-behaviour
# sanitizers: scripts/sanitizer_build.sh) in build-fuzz, or FUZZ_BUILD, and runs each for SECONDS
# (default 10) on its corpus, fuzz/corpus/<target>, as many at once as the machine has cores.
# Exits non-zero on any finding: a crash, a sanitizer report, a leak, a hang (over 10 s on one
# input) or a run out of memory (2 GiB); libFuzzer writes the input to <build>/findings/<target>-*,
# to be fixed and added to the corpus. New inputs go to a scratch folder, so the committed corpus
# does not change. The last status line of each target (executions, cov:) is printed.
#   scripts/fuzz.sh [SECONDS [TARGET...]]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/each_on_a_core.sh
seconds=${1:-10}
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] ||
  targets=(position_fuzzer sanmill_fuzzer table_fuzzer barred_fuzzer checkpoint_fuzzer http_fuzzer)
build=${FUZZ_BUILD:-build-fuzz}
scripts/sanitizer_build.sh "$build" "${targets[@]}"

mkdir -p "$build/findings"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
run() {
  local t=$1 status=0
  mkdir -p "$scratch/$t"
  "$build/bin/$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$build/findings/$t-" -print_final_stats=1 "$scratch/$t" \
    "fuzz/corpus/$t" >"$scratch/$t.log" 2>&1 || status=$?
  echo "$status" >"$scratch/$t.status"
}
# Each target is single-threaded: one a core, then reported in the order given.
each_on_a_core run "${targets[@]}"
failed=()
for t in "${targets[@]}"; do
  status=$(cat "$scratch/$t.status")
  if [ "$status" -eq 0 ]; then
    done_line=$(grep -E '^#[0-9]+' "$scratch/$t.log" | tail -1)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch/$t.log")
    echo "== $t: ${execs:-?} executions in ${seconds} s; ${done_line}"
  else
    echo "== $t: FINDING (exit status $status)"
    grep -v -E '^#[0-9]+|^INFO:' "$scratch/$t.log" | tail -60
    failed+=("$t")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]} (inputs in $build/findings/)"
  exit 1
fi
