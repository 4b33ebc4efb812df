#!/usr/bin/env bash
# Builds the fuzz targets of fuzz/ (libFuzzer with the address and undefined-behaviour
# sanitizers; clang, MORABARABA_FUZZ) in build-fuzz and runs each for SECONDS (default 10) on its
# corpus, fuzz/corpus/<target>. Exits non-zero on any finding: a crash, a sanitizer report, a
# leak, a hang (over 10 s on one input) or a run out of memory (2 GiB); libFuzzer writes the
# input to build-fuzz/findings/<target>-*, to be fixed and added to the corpus. New inputs go
# to a scratch folder, so the committed corpus does not change. The last status line of each
# target (executions, cov:) is printed. Usage: scripts/fuzz.sh [SECONDS [TARGET...]]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] ||
  targets=(position_fuzzer sanmill_fuzzer table_fuzzer barred_fuzzer checkpoint_fuzzer http_fuzzer)

# -O1 with line tables, as the sanitizer build of scripts/test.sh: quicker to build than -O2.
cmake -S . -B build-fuzz -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DMORABARABA_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" \
  -DMORABARABA_TESTS=OFF -DMORABARABA_BENCH=OFF -DMORABARABA_MPI=OFF >/dev/null
cmake --build build-fuzz --parallel "$(nproc)" --target "${targets[@]}"

mkdir -p build-fuzz/findings
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failed=()
for t in "${targets[@]}"; do
  mkdir -p "$scratch/$t"
  status=0
  build-fuzz/bin/$t -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="build-fuzz/findings/$t-" -print_final_stats=1 "$scratch/$t" \
    "fuzz/corpus/$t" >"$scratch/$t.log" 2>&1 || status=$?
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
  echo "fuzz: findings in ${failed[*]} (inputs in build-fuzz/findings/)"
  exit 1
fi
