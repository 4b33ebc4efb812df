#!/usr/bin/env bash
# Installs the Debian packages the project needs, when any is missing. Run as root on a fresh
# Debian machine (or with sudo available).
#
#   scripts/setup.sh          what the `morabaraba` tool needs (the README's first command)
#   scripts/setup.sh --tests  everything: the tests, benchmarks, morabaraba-mpi, the Python
#                             module, the explorer's browser tests (chromium) and the fuzz build
#
# clang, its runtime libraries (libFuzzer and the sanitizers: libclang-rt-dev, Debian 12's name
# for libclang-rt-14-dev) and its OpenMP (libomp-dev, which the configure step finds) are for the
# fuzz build (scripts/fuzz.sh).
set -euo pipefail
packages=(g++ cmake ninja-build pkg-config libzstd-dev libxxhash-dev libboost-program-options-dev
  libboost-dev nlohmann-json3-dev)
case "${1:-}" in
  "") ;;
  --tests)
    packages+=(googletest libgtest-dev libgmock-dev libbenchmark-dev libopenmpi-dev openmpi-bin
      python3 python3-pip python3-setuptools python3-pytest chromium clang clang-format
      libclang-rt-dev libomp-dev)
    ;;
  *)
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
    ;;
esac
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
