#!/usr/bin/env bash
# mssa-1 up to 8 cows on the board, solved afresh, against the checksums of the tables that
# the solver wrote when it kept its barred nodes' moves as stored edges (714f8fa): finding the
# barred predecessors by unmove generation (docs/HISTORY.md) changes no byte. 5v3 and 3v5
# store barred nodes; the others check the units below them. Since its barred section is
# compressed as it is written (a stream, not one call), 5v3's frame has other bytes: its sum is
# that of the first such table, whose every entry and barred record bench/table_compare found
# equal to 714f8fa's (docs/HISTORY.md, "Cost").
#   mssa1_tables_test.sh MORABARABA FOLDER SUMS
set -euo pipefail
mora=$1 db=$2 sums=$3
rm -rf "$db"
"$mora" solve --db "$db" --rules mssa-1 --max-total 8 -q
cd "$db"
sha256sum --check --strict "$sums"
