#!/usr/bin/env bash
# The command line on the probe_db fixture's databases (ctest probe_cli): placing positions
# probe, bad ones fail with a one-line message and a non-zero exit, info reports the placing
# subspaces and the folder's herd, check covers the placing tables.
#   probe_cli_test.sh MORABARABA DB_ROOT
set -euo pipefail
mora=$1 root=$2
herd3=$root/herd3-morabaraba moving=$root/morabaraba msa=$root/herd3-msa-tournament
koti=$root/herd3-koti
start='......../......../........ w 3 3 0'
failures=0

fail() {
  echo "probe_cli: $*" >&2
  failures=$((failures + 1))
}

# expect_error DB POSITION MESSAGE: probe fails (exit 1) with one line naming the position and
# containing MESSAGE, as text and as JSON.
expect_error() {
  local db=$1 position=$2 message=$3 out status
  status=0
  out=$("$mora" probe --db "$db" "$position" 2>&1) || status=$?
  [ "$status" -eq 1 ] || fail "'$position' in $db: exit $status, expected 1: $out"
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "'$position': not one line: $out"
  [[ $out == "$position: error: "*"$message"* ]] || fail "'$position': '$out' lacks '$message'"
  status=0
  out=$("$mora" probe --db "$db" --json "$position" 2>&1) || status=$?
  [ "$status" -eq 1 ] || fail "'$position' --json: exit $status, expected 1"
  [[ $out == *'"error":"'*"$message"* ]] || fail "'$position' --json: '$out' lacks '$message'"
}

# expect_output DESCRIPTION PATTERN COMMAND...: the command succeeds and prints PATTERN (grep -E).
expect_output() {
  local what=$1 pattern=$2 out
  shift 2
  out=$("$@" 2>&1) || fail "$what: exit $?: $out"
  grep -Eq -- "$pattern" <<<"$out" || fail "$what: no '$pattern' in: $(head -20 <<<"$out")"
}

expect_output "probe of the herd-3 start" \
  'w 3 3 0: win in 9, under the ply limit win \(9 plies to the next mill\); best move [a-g][1-7]$' \
  "$mora" probe --db "$herd3" "$start"
expect_output "probe --json --moves --line of the herd-3 start" \
  '"distance":9,"line":\[("[a-g0-9x-]+",){8}"[a-g0-9x-]+"\],"moves":\[\{' \
  "$mora" probe --db "$herd3" --json --moves --line "$start"
expect_output "probe of a placing position from stdin" '^W\.{7}/\.{8}/\.{8} b 2 3 0: loss in 8' \
  bash -c "echo 'W......./......../........ b 2 3 0' | '$mora' probe --db '$herd3'"

# A draw has no distance; a line that is not UTF-8 gets its error and the batch goes on.
expect_output "probe --json of a draw" '^\{"best_move":"a7","distance":null,' \
  "$mora" probe --db "$msa" --json "$start"
out=$(printf '\xff\xfe\n%s\n' "$start" | "$mora" probe --db "$herd3" --json) && fail "non-UTF-8: exit 0"
[ "$(wc -l <<<"$out")" -eq 2 ] || fail "non-UTF-8 line: not two answers: $out"
grep -q '"error":"the position is not valid UTF-8 (byte 1)"' <<<"$out" || fail "non-UTF-8: $out"
grep -q '"distance":9,' <<<"$out" || fail "non-UTF-8: the next line is not answered: $out"

expect_error "$herd3" '......../......../........ w 4 4 0' 'needs a herd of 4 cows or more'
expect_error "$herd3" 'W......./......../........ w 2 3 0' 'white to move while placing needs'
expect_error "$herd3" 'WWWW..../BBB...../........ w 0 0 0' 'subspace 4v3 is not in the database'
expect_error "$moving" "$start" 'the database holds the moving phase only'
expect_error "$msa" '......../......../........ w 3 3 1' 'the count must be 0 while placing'

# A field too many: bars are mentioned only under presets that have them.
expect_error "$moving" 'W.W...../B.B...../........ w 0 0 0 zz' "<count>), got 6 in"
expect_error "$moving" 'W.W...../B.B...../........ w 0 0 0 bar:w:a7-d7-g7' \
  "rules 'morabaraba' have no bars, got 'bar:w:a7-d7-g7'"
expect_error "$root/mssa-1" 'W.W...../B.B...../........ w 0 0 0 zz' \
  '<count>) and then a bar field for each player with a bar'

expect_output "info of the herd-3 folder" '^whole game: herd 3 ' "$mora" info --db "$herd3"
out=$("$mora" info --db "$herd3") || fail "info: exit $?"
grep -q 'cows per player' <<<"$out" && fail "info names the preset's cows per player beside the herd"
grep -q "^whole game: herd 3 (placing positions of every herd up to 3; the preset's is 12)$" \
  <<<"$out" || fail "info: no one true line on the herd: $out"
expect_output "info lists placing subspaces" '^2v3\+1\+0 +1\+0 +425040 ' "$mora" info --db "$herd3"
expect_output "info lists moving subspaces" '^3v3 +- +2691920 ' "$mora" info --db "$herd3"
expect_output "info of a moving-only folder" '^whole game: none' "$mora" info --db "$moving"
expect_output "info --json" '^  "herd": 3,$' "$mora" info --db "$herd3" --json
expect_output "info --json marks placing" '"phase": "placing"' "$mora" info --db "$herd3" --json
expect_output "check of the herd-3 folder" '^checked 7 files .*: 0 bad$' "$mora" check --db "$herd3"
expect_output "check reads placing tables" '^ok: +.*/0v0\+3\+3\.mtb ' "$mora" check --db "$herd3"

# The WDL-only export of herd3-morabaraba (the fixture's, `export --streams wdl`): probe --wdl
# answers as the source does, text and JSON; a full probe is refused saying why.
wdl=$root/herd3-morabaraba-wdl
positions=$(printf '%s\n' "$start" 'W......./......../........ b 2 3 0' 'WWW...../.B....B./.....B.. w 0 0 0' \
  'WW.W..../BBB...../........ w 0 0 0' '.W....B./W......./B....... b 1 2 0')
[ "$("$mora" probe --db "$wdl" --wdl <<<"$positions")" = "$("$mora" probe --db "$herd3" --wdl <<<"$positions")" ] ||
  fail "probe --wdl of the export differs from the source's"
[ "$("$mora" probe --db "$wdl" --wdl --json <<<"$positions")" = \
  "$("$mora" probe --db "$herd3" --json <<<"$positions" | sed -E 's/^\{.*"position":("[^"]*").*"value":("[a-z]+").*$/{"position":\1,"value":\2}/')" ] ||
  fail "probe --wdl --json of the export is not the source's value"
expect_error "$wdl" "$start" 'distances are not in this folder'
expect_output "check of the export" '^checked 7 files .*: 0 bad$' "$mora" check --db "$wdl"

# The Koti board: the centre is a fourth part of the board field; a string of the other board
# is refused with a message that says which board it is for.
koti_start='......../......../......../. w 3 3 0'
expect_output "probe of the Koti herd-3 start" \
  '/\. w 3 3 0: win in 5, under the ply limit win \(5 plies to the next mill\); best move d4$' \
  "$mora" probe --db "$koti" "$koti_start"
expect_error "$koti" "$start" 'a position of the 24-point board, which has no centre'
expect_error "$herd3" "$koti_start" 'the centre, is only on the 25-point Koti board'
expect_output "info of the Koti folder" '^  board: Koti, 25 points' "$mora" info --db "$koti"
expect_output "info lists Koti's 3v3" '^3v3 +- +3542000 +445592 ' "$mora" info --db "$koti"
expect_output "check of the Koti folder" '^checked 7 files .*: 0 bad$' "$mora" check --db "$koti"
expect_output "verify of the Koti folder" '^verified 523894 positions in 7 tables: 0 errors' \
  "$mora" verify --db "$koti" -q
expect_output "show of a Koti position" '^4  W - \. - \. --- B --- \. - \. - \.$' \
  "$mora" show --rules koti --position 'W......W/BB....../W......./B w 0 0 0'
expect_output "perft of the Koti start" '^perft 2 600$' "$mora" perft --rules koti --depth 2

[ "$failures" -eq 0 ] || exit 1
echo "probe_cli: all passed"
