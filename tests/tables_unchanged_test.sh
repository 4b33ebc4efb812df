#!/usr/bin/env bash
# Every table the probe_db fixture solves (the moving phase of every preset to m+o = 6, 7 or 8,
# the whole game of herds 3 and 4, two WDL-only exports) is byte for byte the table of
# tests/data/probe-db.sha256, and the fixture holds no table the list lacks: a change of the
# code that is not meant to change a value (a refactoring, a faster solver) changes no byte.
# A change that is meant to, a new format version or a new zstd, writes the list again:
#   (cd DB_ROOT && find . -name '*.mtb' | sort | sed 's|^\./||' | xargs sha256sum) > SUMS
#   tables_unchanged_test.sh DB_ROOT SUMS
set -euo pipefail
root=$1 sums=$(realpath "$2")
cd "$root"
sha256sum --check --strict --quiet "$sums"
extra=$(comm -13 <(awk '{ print $2 }' "$sums" | sort) <(find . -name '*.mtb' | sed 's|^\./||' | sort))
[ -z "$extra" ] || { echo "tables the list lacks: $extra" >&2; exit 1; }
echo "$(wc -l < "$sums") tables as listed"
