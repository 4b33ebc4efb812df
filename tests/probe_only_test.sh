#!/usr/bin/env bash
# The build for app authors (README, "Probing from C and Python"): in a clean folder, configure
# with MORABARABA_PROBE_ONLY=ON, build, install into a temporary prefix, then compile a C
# program against the installed library through pkg-config and probe a committed table
# (tests/data/v2, house rules, m+o <= 8), and build a C++ program that takes the source tree in
# with add_subdirectory and probes the same position. The configure must look for nothing but
# pkg-config, zstd and xxHash: the other packages are disabled (a REQUIRED search for one of them
# would fail), and its trace must show no other find_package or pkg_check_modules.
# Usage: probe_only_test.sh [WORK_DIR]   (default: a temporary folder, removed afterwards)
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
work=${1:-$(mktemp -d)}
[ $# -ge 1 ] || trap 'rm -rf "$work"' EXIT
rm -rf "$work/build" "$work/prefix" && mkdir -p "$work"

# Unoptimised and without debug information (a third less compile time): these builds check
# what is installed and how it links; the Release build of the whole tree checks the code.
# Unity builds (a target's files compiled together) halve the two builds' time.
build_options=(-DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0 -DCMAKE_UNITY_BUILD=ON)
if command -v ninja >/dev/null; then build_options+=(-G Ninja); fi  # else cmake's default, make
if command -v ccache >/dev/null; then
  build_options+=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
disabled=()
for pkg in OpenMP Threads Boost nlohmann_json GTest benchmark MPI; do
  disabled+=(-DCMAKE_DISABLE_FIND_PACKAGE_$pkg=ON)
done
cmake -S "$src" -B "$work/build" -DMORABARABA_PROBE_ONLY=ON \
  -DMORABARABA_WERROR=ON "${build_options[@]}" "${disabled[@]}" \
  --no-warn-unused-cli --trace-expand --trace-redirect="$work/trace.txt" >"$work/configure.log"

# The searches the project's own CMake files make (lines of the trace that name a file of
# the source tree), normalised to "find_package(Name" and "pkg_check_modules(... module".
searches=$(grep -E "^$src/[^(]*\([0-9]+\):  *(find_package|pkg_check_modules)\(" "$work/trace.txt" |
  sed -E 's/^[^:]*:  *//; s/ +/ /g; s/ REQUIRED//; s/ IMPORTED_TARGET//; s/ GLOBAL//; s/ *\)$//' |
  sort -u)
expected=$'find_package(PkgConfig\npkg_check_modules(XXHASH libxxhash\npkg_check_modules(ZSTD libzstd'
if [ "$searches" != "$expected" ]; then
  echo "probe-only configure searches for more than pkg-config, zstd and xxHash:" >&2
  echo "$searches" >&2
  exit 1
fi

cmake --build "$work/build" --parallel "$(nproc)" >"$work/build.log"
cmake --install "$work/build" --prefix "$work/prefix" >"$work/install.log"
# Nothing but the probe library: no tools were built.
if [ -e "$work/prefix/bin" ]; then
  echo "the probe-only install has programs: $(ls "$work/prefix/bin")" >&2
  exit 1
fi

pc_dir=$(dirname "$(find "$work/prefix" -name morabaraba.pc)")
if [ -z "$(find "$work/prefix" -name morabarabaConfig.cmake)" ]; then
  echo "the probe-only install has no CMake package (morabarabaConfig.cmake)" >&2
  exit 1
fi
cc -std=c11 -Wall -Wextra -Werror "$src/tests/probe_only/probe.c" -o "$work/probe" \
  $(PKG_CONFIG_PATH="$pc_dir" pkg-config --cflags --libs morabaraba)
# The installed library is found through LD_LIBRARY_PATH: neither the .pc file nor the CMake
# package sets a run path, as is usual for a library installed under a prefix of one's own.
got=$(LD_LIBRARY_PATH="$work/prefix/$(basename "$(dirname "$pc_dir")")" "$work/probe" \
  "$src/tests/data/v2" "WWW...../.B....B./.....B.. w 0 0 0")
if [ "$got" != "win 3 a7-g4" ]; then
  echo "probe through the installed library: expected 'win 3 a7-g4', got '$got'" >&2
  exit 1
fi

# The C++ interface, through add_subdirectory of the source tree (no install).
cmake -S "$src/tests/probe_only" -B "$work/cxx" \
  -DMORABARABA_SOURCE_DIR="$src" "${build_options[@]}" "${disabled[@]}" --no-warn-unused-cli \
  >"$work/cxx-configure.log"
cmake --build "$work/cxx" --parallel "$(nproc)" >"$work/cxx-build.log"
got_cxx=$("$work/cxx/probe_cxx" "$src/tests/data/v2" "WWW...../.B....B./.....B.. w 0 0 0")
if [ "$got_cxx" != "$got" ]; then
  echo "probe through the C++ interface: expected '$got', got '$got_cxx'" >&2
  exit 1
fi
echo "probe-only build installed; the C program (pkg-config) and the C++ one (add_subdirectory)" \
  "probed $got"
