#!/usr/bin/env bash
# Solves one moving-phase unit alone from the finished tables of a bigger database, and prints
# its line of the solve log (time, CPU seconds, peak RSS, table bytes).
#   bench/unit_bench.sh BIN TABLES UNIT THREADS [solve options...]
# TABLES is a database folder holding the unit's exits; the unit is solved in a scratch folder
# of links to them, so TABLES is never written. PERF="perf record -o F" profiles the solve.
set -euo pipefail
bin=$(realpath "$1") tables=$(realpath "$2") unit=$3 threads=$4
shift 4
mover=${unit%v*} other=${unit#*v}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for f in "$tables"/*.mtb; do
  name=$(basename "$f" .mtb)
  [[ $name == "$unit" || $name == "${other}v${mover}" ]] || ln -s "$f" "$scratch/"
done
# shellcheck disable=SC2086  # PERF is a command prefix
OMP_WAIT_POLICY=passive ${PERF:-} "$bin" solve --db "$scratch" --subspace "$unit" \
  --threads "$threads" "$@" 2>&1 | grep -E "^\[[0-9]+/[0-9]+\] $unit:"
