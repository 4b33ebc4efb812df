#!/usr/bin/env bash
# docs/RESULTS.md against its data (ctest results_data): every table line of the page's summary
# (scripts/results_data.py summary docs/data) is in the page, every data file's rows add up, and
# each file renders through the scripts that write such rows (--data). A figure changed in a data
# file, or in the page, fails the check.
#   results_data_test.sh SOURCE_DIR
set -euo pipefail
src=$1
scripts=$src/scripts data=$src/docs/data page=$src/docs/RESULTS.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
fail() {
  echo "results_data: $*" >&2
  failures=$((failures + 1))
}

python3 "$scripts/results_data.py" check "$data" "$page" || fail "the page and docs/data disagree"

# Every data file renders, each part through the script that writes it.
for f in "$data"/*.json; do
  python3 "$scripts/results_data.py" render "$f" >"$work/all.md" || fail "render $f"
  if grep -q '"subspaces": \[' "$f"; then
    python3 "$scripts/moving_results.py" --data "$f" >"$work/moving.md" || fail "moving_results.py --data $f"
    grep -q '^Totals over [0-9]* subspaces' "$work/moving.md" || fail "$f: no totals"
  fi
  if grep -q '"units": \[' "$f"; then
    python3 "$scripts/unit_results.py" --data "$f" >/dev/null || fail "unit_results.py --data $f"
  fi
  if grep -q '"layers": \[' "$f"; then
    python3 "$scripts/whole_game_results.py" --data "$f" >/dev/null || fail "whole_game_results.py --data $f"
  fi
done

# The whole moving phases hold a row for each of their 100 subspaces, and the page's rule sets
# are all there.
for rules in morabaraba online msa-tournament; do
  rows=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["subspaces"]))' \
    "$data/$rules-moving-24.json")
  [ "$rows" -eq 100 ] || fail "$rules-moving-24.json: $rows subspace rows"
done

# A figure changed on either side is caught: one in a data file (the house rules' 6v6 wins),
# one in the page (the online totals' row).
cp -r "$data" "$work/data"
sed -i 's/"subspace": "6v6", "positions": 2498640144, "canonical": 156229360, "win": 1305716936/&1/' \
  "$work/data/morabaraba-moving-24.json"
cmp -s "$data/morabaraba-moving-24.json" "$work/data/morabaraba-moving-24.json" &&
  fail "the tampering of the data file changed nothing"
python3 "$scripts/results_data.py" check "$work/data" "$page" 2>/dev/null &&
  fail "a changed data file passed the check"
sed 's/^| `online` | 24 points | 100 (m + o <= 24) | 264,369,400,848 | 54.06/& /' "$page" >"$work/page.md"
cmp -s "$page" "$work/page.md" && fail "the tampering of the page changed nothing"
python3 "$scripts/results_data.py" check "$data" "$work/page.md" 2>/dev/null &&
  fail "a changed page passed the check"

[ "$failures" -eq 0 ] || exit 1
echo "results_data: all passed"
