#!/usr/bin/env bash
# Configures BUILD_DIR as the project's sanitizer build and builds TARGETs in it: clang, every
# library compiled with the address and undefined-behaviour sanitizers and libFuzzer's coverage
# (MORABARABA_FUZZ), at -O1 with line tables (40 % less compile time than -O2 -g, and still a
# file and line in every report). The fuzz targets (scripts/fuzz.sh) and the tests run under the
# sanitizers (scripts/test.sh) share it, so the libraries are compiled once for both. Options
# before BUILD_DIR go to cmake (scripts/test.sh: -DMORABARABA_FUZZ_TRACE_CMP=OFF).
#   scripts/sanitizer_build.sh [-DOPTION=VALUE...] BUILD_DIR TARGET...
set -euo pipefail
cmake_options=()
while [ $# -gt 0 ] && [[ $1 == -D* ]]; do
  cmake_options+=("$1")
  shift
done
if [ $# -lt 2 ]; then
  sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
cd "$(dirname "$0")/.."
build=$1
shift
cmake -S . -B "$build" -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
  -DMORABARABA_FUZZ=ON -DMORABARABA_BMI2=OFF -DMORABARABA_WERROR=ON \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1" \
  -DMORABARABA_BENCH=OFF -DMORABARABA_MPI=OFF "${cmake_options[@]}" >/dev/null
cmake --build "$build" --parallel "$(nproc)" --target "$@"
