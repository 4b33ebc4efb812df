#!/usr/bin/env bash
# The whole test suite, as CI runs it, each stage opened with the seconds since the start. First
# clang-format checks that every C and C++ file is as .clang-format writes it; then an
# address+undefined-behaviour sanitizer build
# runs the game, indexer and table-format tests with the portable indexer; a ThreadSanitizer
# build runs the multi-threaded probe tests of the table reader and its block cache (about a
# minute; bench/README.md, "ThreadSanitizer"); then a Release build
# with warnings as errors (and the BMI2 indexer where the CPU has it) runs every test through
# ctest. The cross-checks of 4v3 and 3v4 against the simple test solver take minutes of CPU
# time and gigabytes each (its level sweeps keep every move of the group) and run outside CI:
# ctest -R FourVersusThree. So do the simple solver's comparisons of the history presets with
# the same rules without bars (HistoryValues). Between the two, the build for app
# authors (MORABARABA_PROBE_ONLY) in a clean folder, installed and linked by a C program through
# pkg-config, and a C++ program on it through add_subdirectory (tests/probe_only_test.sh, about
# a minute of CPU), and the fuzz targets of fuzz/ (clang, libFuzzer) built and run 8 seconds each
# on their corpus (scripts/fuzz.sh: about three minutes with the build); ctest comes last, so
# that its summary closes the output.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)
# Each stage's start, with the seconds since the suite began: where the time goes.
stage() { echo "== [${SECONDS} s] $*"; }

stage "the format of every C and C++ file (clang-format, .clang-format)"
git ls-files '*.h' '*.cpp' '*.c' | xargs clang-format --dry-run --Werror
# ctest runs two tests at once, most of them on two OpenMP threads each: a thread that waits
# sleeps instead of spinning on a core the other test needs (11 % less time for the solver's
# tests here).
export OMP_WAIT_POLICY=passive

# The sanitizer builds at -O1 with line tables only: 40 % less compile time than
# RelWithDebInfo's -O2 -g, and still a file and line in every report.
sanitizer_build=(-G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" -DMORABARABA_WERROR=ON -DMORABARABA_BENCH=OFF
  -DMORABARABA_MPI=OFF)

stage "the address and undefined-behaviour sanitizer build"
cmake -S . -B build-asan "${sanitizer_build[@]}" -DMORABARABA_SANITIZE=ON -DMORABARABA_BMI2=OFF \
  >/dev/null
cmake --build build-asan --parallel "$jobs" --target game_test indexing_test db_test
# The indexer's exhaustive sweeps of the larger subspaces run in the Release build only: under
# the sanitizers they took 90 of indexing_test's 112 s, and walk the code its smaller tests walk.
# The three programs run side by side, their outputs shown in turn.
asan_filter=(game_test '*' indexing_test
  '-*ExhaustiveSmallSubspaces:*VisitsEveryCanonicalPositionOnce:*MovingSubspacesMatchBurnside'
  db_test '*')
stage "game_test, indexing_test, db_test (address and undefined-behaviour sanitizers)"
asan_out=$(mktemp -d)
pids=()
for ((i = 0; i < ${#asan_filter[@]}; i += 2)); do
  t=${asan_filter[i]}
  build-asan/bin/$t --gtest_brief=1 --gtest_filter="${asan_filter[i + 1]}" >"$asan_out/$t" 2>&1 &
  pids+=($!)
done
asan_failed=0
for ((i = 0; i < ${#asan_filter[@]}; i += 2)); do
  t=${asan_filter[i]}
  status=0
  wait "${pids[i / 2]}" || status=$?
  echo "== $t (address and undefined-behaviour sanitizers)"
  cat "$asan_out/$t"
  [ "$status" -eq 0 ] || { echo "$t failed (exit status $status)"; asan_failed=1; }
done
rm -rf "$asan_out"
[ "$asan_failed" -eq 0 ]

stage "the ThreadSanitizer build"
cmake -S . -B build-tsan "${sanitizer_build[@]}" -DMORABARABA_TSAN=ON >/dev/null
cmake --build build-tsan --parallel "$jobs" --target db_test
stage "db_test, threads (ThreadSanitizer)"
TSAN_OPTIONS=halt_on_error=1 build-tsan/bin/db_test --gtest_brief=1 \
  --gtest_filter='*Concurrent*:*SharedCache*:*CachedReader*:*CacheDoesNot*'

stage "the probe library alone (MORABARABA_PROBE_ONLY)"
bash tests/probe_only_test.sh

stage "the fuzz targets, 8 s each (scripts/fuzz.sh)"
bash scripts/fuzz.sh 8

stage "the Release build"
cmake -S . -B build-ci -G Ninja -DCMAKE_BUILD_TYPE=Release -DMORABARABA_WERROR=ON >/dev/null
cmake --build build-ci --parallel "$jobs"
stage "every test (ctest)"
# --no-tests=error: a build whose GoogleTest went missing (CMakeLists.txt then leaves the tests
# out) must not pass.
(cd build-ci && ctest --parallel "$jobs" --output-on-failure --timeout 1200 --no-tests=error \
  -E 'FourVersusThree|HistoryValues')
stage "done"
