#!/usr/bin/env bash
# Installs the Debian packages the project needs, when any is missing. Run as root on a fresh
# Debian machine (or with sudo available). clang, its runtime libraries (libFuzzer and the
# sanitizers: libclang-rt-dev, Debian 12's name for libclang-rt-14-dev) and its OpenMP
# (libomp-dev, which the configure step finds) are for the fuzz build (scripts/fuzz.sh).
set -euo pipefail
packages=(g++ cmake ninja-build pkg-config libzstd-dev libxxhash-dev libboost-program-options-dev
  googletest libgtest-dev libgmock-dev libbenchmark-dev libopenmpi-dev openmpi-bin
  nlohmann-json3-dev libboost-dev python3 python3-pip python3-setuptools python3-pytest
  chromium clang libclang-rt-dev libomp-dev)
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
