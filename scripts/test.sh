#!/usr/bin/env bash
# The whole test suite, as CI runs it: a Release build with warnings as errors and every test,
# then an address+undefined-behaviour sanitizer build running the tests that finish quickly
# under it (the solver's cross-checks run in the Release build).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

cmake -S . -B build-ci -G Ninja -DCMAKE_BUILD_TYPE=Release -DMORABARABA_WERROR=ON >/dev/null
cmake --build build-ci --parallel "$jobs"
(cd build-ci && ctest --output-on-failure --parallel 1 --timeout 1200)

cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMORABARABA_WERROR=ON \
  -DMORABARABA_SANITIZE=ON -DMORABARABA_BENCH=OFF >/dev/null
cmake --build build-asan --parallel "$jobs" --target game_test indexing_test db_test
(cd build-asan && ctest --output-on-failure --timeout 1200 -R "^(Board|Rules|Movegen|Perft|Notation|Sanmill|Index|Table|Db)")
