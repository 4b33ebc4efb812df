#!/usr/bin/env bash
# The whole test suite, as CI runs it. First an address+undefined-behaviour sanitizer build
# runs the game, indexer and table-format tests (with the BMI2 indexer where the CPU has it,
# so both index implementations are exercised); then a Release build with warnings as errors
# runs every test through ctest.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
bmi2=OFF
grep -qw bmi2 /proc/cpuinfo && bmi2=ON

cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMORABARABA_WERROR=ON \
  -DMORABARABA_SANITIZE=ON -DMORABARABA_BMI2=$bmi2 -DMORABARABA_BENCH=OFF -DMORABARABA_MPI=OFF >/dev/null
cmake --build build-asan --parallel "$jobs" --target game_test indexing_test db_test
for t in game_test indexing_test db_test; do
  echo "== $t (address and undefined-behaviour sanitizers, BMI2 $bmi2)"
  build-asan/bin/$t --gtest_brief=1
done

cmake -S . -B build-ci -G Ninja -DCMAKE_BUILD_TYPE=Release -DMORABARABA_WERROR=ON >/dev/null
cmake --build build-ci --parallel "$jobs"
cd build-ci && ctest --output-on-failure --timeout 1200
