#!/usr/bin/env bash
# The scripts that render docs/RESULTS.md's tables (ctest results_scripts): moving_results.py on
# the probe_db fixture against `morabaraba info` and `morabaraba compare` read directly, and
# unit_results.py against the unit lines of a small solve, and moving_run.sh, which runs them;
# the rows each writes as a data file of docs/data (--json) render the same tables (--data).
#   results_scripts_test.sh MORABARABA SCRIPTS_DIR DB_ROOT
set -euo pipefail
mora=$1 scripts=$2 root=$3
a=$root/max7-msa-tournament b=$root/max7-morabaraba
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0
# 1234567 -> 1,234,567, as the script writes counts.
num() { sed ':a;s/\B[0-9]\{3\}\>/,&/;ta' <<<"$1"; }
fail() {
  echo "results_scripts: $*" >&2
  failures=$((failures + 1))
}

"$mora" compare --db "$a" --with "$b" --json >"$work/compare.json"
out=$("$mora" info --db "$a" --json | python3 "$scripts/moving_results.py" --against "$work/compare.json")

# The pure row of 3v3 carries info's counts (text columns: positions, canonical, win, draw, loss).
read -r _ _ positions canonical win draw loss _ < <("$mora" info --db "$a" | grep '^3v3 ')
row="| 3v3 | $(num "$positions") | $(num "$canonical") | $(num "$win") | $(num "$draw") | $(num "$loss") |"
grep -qF "$row" <<<"$out" ||
  fail "3v3's pure row lacks info's counts: $(grep '^| 3v3 ' <<<"$out" | head -1)"

# The differences' total row sums the subspaces as compare's own total does.
read -r _ _ differ _ w_d w_l d_w d_l l_w l_d rule_differ _ < <("$mora" compare --db "$a" --with "$b" | grep '^total ')
row="| total | $(num "$differ") |"
grep -qF "$row" <<<"$out" || fail "no '$row' in: $(grep '^| total' <<<"$out")"
for n in "$w_d" "$w_l" "$d_w" "$d_l" "$l_w" "$l_d" "$rule_differ"; do
  grep '^| total' <<<"$out" | grep -qF "| $(num "$n") |" || fail "total row lacks $n"
done
[ "$differ" -gt 0 ] || fail "no differences between $a and $b"

# The same tables from the rows as docs/data holds them: --json, then --data.
"$mora" info --db "$a" --json | python3 "$scripts/moving_results.py" --against "$work/compare.json" --json >"$work/rows.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d["subspaces"]) > 1 and "differ_pure" in d["subspaces"][0]' \
  "$work/rows.json" || fail "moving_results.py --json: no rows with their differences"
[ "$(python3 "$scripts/moving_results.py" --data "$work/rows.json")" = "$out" ] ||
  fail "moving_results.py --data renders other tables than from info and compare"
# A folder without a ply limit has no rule part.
"$mora" info --db "$root/malom" --json | python3 "$scripts/moving_results.py" >"$work/malom.md" ||
  fail "moving_results.py fails on malom's folder"
grep -q '^Rule part' "$work/malom.md" && fail "moving_results.py: a rule part for malom"
whole=$(python3 "$scripts/whole_game_results.py" "$mora" "$root/herd3-morabaraba")
grep -qF '| 3 | win | 9 | win | a7 | a7 |' <<<"$whole" || fail "whole_game_results.py: herd 3's start: $whole"
python3 "$scripts/whole_game_results.py" "$mora" "$root/herd3-morabaraba" --json >"$work/whole.json"
[ "$(python3 "$scripts/whole_game_results.py" --data "$work/whole.json")" = "$whole" ] ||
  fail "whole_game_results.py --data renders other tables than from the folder"

# unit_results.py: one row a unit, with the unit line's positions, and their sum.
"$mora" solve --db "$work/db" --rules online --max-total 7 --threads 1 >"$work/solve.log" 2>&1
units=$(python3 "$scripts/unit_results.py" "$work/solve.log")
grep -qF "| 3v3 | 169,626 | " <<<"$units" || fail "unit_results: no 3v3 row: $units"
grep -qF "| 4v3 | 1,520,796 | " <<<"$units" || fail "unit_results: no 4v3 row: $units"
grep -qF "| all 2 | 1,690,422 | " <<<"$units" || fail "unit_results: no total row: $units"
python3 "$scripts/unit_results.py" --json "$work/solve.log" >"$work/units.json"
[ "$(python3 "$scripts/unit_results.py" --data "$work/units.json")" = "$units" ] ||
  fail "unit_results.py --data renders another table than from the log"
python3 "$scripts/results_data.py" merge "$work/run.json" "$work/rows.json" "$work/units.json"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["subspaces"] and len(d["units"]) == 2' \
  "$work/run.json" || fail "results_data.py merge: not both parts in one file"

# moving_run.sh end to end, to 7 cows on the board against the house rules' folder.
MAX_TOTAL=7 "$scripts/moving_run.sh" "$work/run" "$mora" online "$b"
for f in info.json units.md compare.json results.md check.txt verify.txt; do
  [ -s "$work/run/after/$f" ] || fail "moving_run.sh wrote no after/$f: $(tail -5 "$work/run/run.log")"
done
grep -qF "| all 2 | 1,690,422 | " "$work/run/after/units.md" || fail "moving_run.sh: units.md"
grep -q '^Against `morabaraba`' "$work/run/after/results.md" || fail "moving_run.sh: results.md"
grep -q ': 0 errors, 0 bad tables$' "$work/run/after/verify.txt" || fail "moving_run.sh: $(cat "$work/run/after/verify.txt")"

[ "$failures" -eq 0 ] || exit 1
echo "results_scripts: all passed"
