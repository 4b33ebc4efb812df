#!/usr/bin/env bash
# The whole test suite, as CI runs it, each stage opened with the seconds since the start
# (bench/README.md, "The test suite", has where the time goes):
# - clang-format checks that every C and C++ file is as .clang-format writes it;
# - the sanitizer build (scripts/sanitizer_build.sh: clang, address and undefined-behaviour
#   sanitizers, libFuzzer's coverage without its tracing of comparisons, the portable indexer)
#   runs the game, indexer, table-format
#   and solver tests (the small cases), then the fuzz targets of fuzz/, 5 s each on their corpus
#   (scripts/fuzz.sh);
# - a ThreadSanitizer build runs the multi-threaded probe tests of the table reader and its block
#   cache;
# - the build for app authors (MORABARABA_PROBE_ONLY) in a clean folder, installed and linked by
#   a C program through pkg-config, and a C++ program on it through add_subdirectory
#   (tests/probe_only_test.sh);
# - a Release build with warnings as errors (and the BMI2 indexer where the CPU has it) runs
#   every test through ctest;
# The sanitizer and Release builds are unity builds (CMAKE_UNITY_BUILD: a target's files compiled
# eight to a unit, each header parsed once a unit): 40 % less time; so are the ThreadSanitizer
# and probe-only builds. Developers' builds and the README's compile file by file, which catches
# a file that compiles only after another's includes.
# - last, the probe library's tests (C++, C ABI, proof search) under the sanitizers, on the
#   tables ctest's fixtures solved.
# The cross-checks of 4v3 and 3v4 against the simple test solver take minutes of CPU time and
# gigabytes each (its level sweeps keep every move of the group) and run outside CI: ctest -R
# FourVersusThree. So do the simple solver's comparisons of the history presets with the same
# rules without bars (HistoryValues), and the herd-4 whole games of msa-tournament and house-003
# against the simple solvers (OutOfCi; msa-tournament's herd 3 and mssa-1's herd 4 run), and the
# explorer's browser test on herd 5's whole game and m+o <= 10 (OutOfCi; herd 3 and m+o <= 8 run).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/each_on_a_core.sh
jobs=$(nproc)
# Each stage's start, with the seconds since the suite began: where the time goes.
stage() { echo "== [${SECONDS} s] $*"; }

stage "the format of every C and C++ file (clang-format, .clang-format)"
git ls-files '*.h' '*.cpp' '*.c' | xargs clang-format --dry-run --Werror
# ctest runs two tests at once, most of them on two OpenMP threads each: a thread that waits
# sleeps instead of spinning on a core the other test needs (11 % less time for the solver's
# tests here).
export OMP_WAIT_POLICY=passive

# Runs test programs of the sanitizer build, each given as "PROGRAM GTEST_FILTER", one a core,
# and shows their outputs in turn.
sanitized_tests() {
  local out t failed=0
  out=$(mktemp -d)
  run_sanitized() {
    local t=${1%% *} status=0
    build-asan/bin/$t --gtest_brief=1 --gtest_filter="${1#* }" >"$out/$t" 2>&1 || status=$?
    echo "$status" >"$out/$t.status"
  }
  each_on_a_core run_sanitized "$@"
  for t in "${@%% *}"; do
    echo "== $t (address and undefined-behaviour sanitizers)"
    cat "$out/$t"
    if [ "$(cat "$out/$t.status")" -ne 0 ]; then
      echo "$t failed (exit status $(cat "$out/$t.status"))"
      failed=1
    fi
  done
  rm -rf "$out"
  return "$failed"
}

fuzz_targets=(position_fuzzer sanmill_fuzzer table_fuzzer barred_fuzzer checkpoint_fuzzer
  http_fuzzer)
stage "the sanitizer build (clang: address, undefined behaviour, libFuzzer's coverage)"
scripts/sanitizer_build.sh -DMORABARABA_FUZZ_TRACE_CMP=OFF -DCMAKE_UNITY_BUILD=ON build-asan \
  game_test indexing_test db_test solver_test whole_game_test probe_test proof_search_test \
  c_api_test "${fuzz_targets[@]}"
# The indexer's sweeps (larger subspaces, the Koti and Nine Men's Morris boards), the deepest
# perfts and the solver's long cross-checks run in the Release build only: they walk the code
# the small cases walk.
stage "game, indexer, table-format and solver tests (address and undefined-behaviour sanitizers)"
# Longest first, for the lanes to end together.
sanitized_tests \
  'solver_test Solver.*:SolvedSmall.HouseRulesHaveThePublishedPureValues:SolvedSmall.HandCheckedPositions:CheckpointTest.*:FirstFailure.*' \
  'game_test -Perft.StartDepth6AgreesWithReferenceBySymmetry:Bars.PerftFromTheStart' \
  'db_test *' \
  'whole_game_test WholeGame.VerifierCatchesAnAlteredPlacingValue' \
  'indexing_test -*ExhaustiveSmallSubspaces:*VisitsEveryCanonicalPositionOnce:*MovingSubspacesMatchBurnside:*SymmetricPositions:*KotiExhaustiveAndSampled:*NineMensMorrisExhaustive'
stage "the fuzz targets, 5 s each (scripts/fuzz.sh)"
FUZZ_BUILD=build-asan scripts/fuzz.sh 5 "${fuzz_targets[@]}"

# The ThreadSanitizer build at -O1 with line tables, as the sanitizer build.
stage "the ThreadSanitizer build"
cmake -S . -B build-tsan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" -DMORABARABA_WERROR=ON -DMORABARABA_BENCH=OFF \
  -DMORABARABA_MPI=OFF -DMORABARABA_TSAN=ON -DCMAKE_UNITY_BUILD=ON >/dev/null
cmake --build build-tsan --parallel "$jobs" --target db_test
stage "db_test, threads (ThreadSanitizer)"
TSAN_OPTIONS=halt_on_error=1 build-tsan/bin/db_test --gtest_brief=1 \
  --gtest_filter='*Concurrent*:*SharedCache*:*CachedReader*:*CacheDoesNot*'

stage "the probe library alone (MORABARABA_PROBE_ONLY)"
bash tests/probe_only_test.sh

stage "the Release build"
cmake -S . -B build-ci -G Ninja -DCMAKE_BUILD_TYPE=Release -DMORABARABA_WERROR=ON \
  -DCMAKE_UNITY_BUILD=ON >/dev/null
cmake --build build-ci --parallel "$jobs"
stage "every test (ctest)"
# --no-tests=error: a build whose GoogleTest went missing (CMakeLists.txt then leaves the tests
# out) must not pass.
(cd build-ci && ctest --parallel "$jobs" --output-on-failure --timeout 1200 --no-tests=error \
  -E 'FourVersusThree|HistoryValues|OutOfCi')

stage "the probe library's tests (address and undefined-behaviour sanitizers)"
MORABARABA_TEST_DB=$PWD/build-ci/tests/probe_db sanitized_tests \
  'probe_test -*VerifierChecksTheBarredSectionOfMssa1' 'c_api_test *' \
  'proof_search_test -*RandomPlacingPositionsOfEveryLayer'
stage "done"
