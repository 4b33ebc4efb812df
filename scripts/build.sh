#!/usr/bin/env bash
# Configures and builds into build/ (Release).
#
#   scripts/build.sh [-DOPTION=VALUE]... [TARGET]...
#
# Arguments starting with -D go to cmake's configure step (-DMORABARABA_BMI2=OFF, ...); the
# others name the targets to build (`morabaraba` alone for the tool: about two and a half
# minutes on two cores, against about nine for all of them). No target: every target.
set -euo pipefail
cd "$(dirname "$0")/.."
configure=()
targets=()
for argument in "$@"; do
  case "$argument" in
    -D*) configure+=("$argument") ;;
    -*)
      sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2
      exit 2
      ;;
    *) targets+=(--target "$argument") ;;
  esac
done
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${configure[@]}" >/dev/null
cmake --build build --parallel "$(nproc)" "${targets[@]}"
