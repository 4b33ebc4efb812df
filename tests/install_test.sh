#!/bin/bash
# After `cmake --install BUILD --prefix P`, a C program built against the installed library runs
# without LD_LIBRARY_PATH and probes a position: built with `pkg-config --cflags --libs
# morabaraba`, and with find_package(morabaraba) in a CMake project installed to its own prefix
# (ctest install). The rpath both carry finds libmorabaraba.so.0 in P.
# Usage: install_test.sh BUILD_DIR DB_FOLDER WORK_DIR
set -euo pipefail
build=$1 db=$2 work=$3
here=$(cd "$(dirname "$0")" && pwd)
fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
pc=$(dirname "$(find "$work/prefix" -name morabaraba.pc)")
start="......../......../........ w 3 3 0"
version=$(sed -n 's/^Version: //p' "$pc/morabaraba.pc")
want="$version wdl 2 distance 9 best a7 pure a7"

# shellcheck disable=SC2046  # pkg-config's flags are separate words
"${CC:-cc}" -o "$work/probe-pc" "$here/install/probe.c" \
  $(PKG_CONFIG_PATH="$pc" pkg-config --cflags --libs morabaraba)
got=$(env -u LD_LIBRARY_PATH "$work/probe-pc" "$db" "$start") || fail "pkg-config build: exit $?"
[ "$got" = "$want" ] || fail "pkg-config build printed '$got', not '$want'"

cmake -S "$here/install" -B "$work/user" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/user" >/dev/null
cmake --install "$work/user" --prefix "$work/user-prefix" >/dev/null
got=$(env -u LD_LIBRARY_PATH "$work/user-prefix/bin/probe" "$db" "$start") ||
  fail "CMake build, installed: exit $?"
[ "$got" = "$want" ] || fail "CMake build printed '$got', not '$want'"
echo "install: pkg-config and CMake programs run from the prefix: $got"
