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

# expect_error DB POSITION MESSAGE [FLAGS...]: probe fails (exit 1) with one line naming the
# position and containing MESSAGE, as text and as JSON.
expect_error() {
  local db=$1 position=$2 message=$3 out status
  shift 3
  status=0
  out=$("$mora" probe --db "$db" "$@" "$position" 2>&1) || status=$?
  [ "$status" -eq 1 ] || fail "'$position' in $db: exit $status, expected 1: $out"
  [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] || fail "'$position': not one line: $out"
  [[ $out == "$position: error: "*"$message"* ]] || fail "'$position': '$out' lacks '$message'"
  status=0
  out=$("$mora" probe --db "$db" --json "$@" "$position" 2>&1) || status=$?
  [ "$status" -eq 1 ] || fail "'$position' --json: exit $status, expected 1"
  [[ $out == *'"error":"'*"$message"* ]] || fail "'$position' --json: '$out' lacks '$message'"
}

# expect_searched DB WHOLE POSITION...: probe --json of each position in DB (which lacks its
# table) answers the value and rule value that WHOLE's tables hold, proved by search, without
# distances; probe --wdl --json too.
expect_searched() {
  local db=$1 whole=$2 out
  shift 2
  out=$(printf '%s\n' "$@" | "$mora" probe --db "$db" --json) || fail "probe --json in $db: exit $?: $out"
  printf '%s\n' "$@" | "$mora" probe --db "$whole" --json | python3 -c '
import json, sys
searched = [json.loads(line) for line in sys.argv[1].splitlines()]
whole = [json.loads(line) for line in sys.stdin]
assert len(searched) == len(whole) == int(sys.argv[2]), (searched, whole)
for s, w in zip(searched, whole):
    assert s["position"] == w["position"] and "error" not in w, (s, w)
    assert (s["value"], s["rule_value"]) == (w["value"], w["rule_value"]), (s, w)
    assert s["proved_by"] == "search" and s["search_nodes"] > 0, s
    assert s["distance"] is s["plies_to_mill"] is s["best_move"] is s["best_move_pure"] is None, s
' "$out" $# || fail "probe --json in $db: not the values of $whole"
  out=$(printf '%s\n' "$@" | "$mora" probe --db "$db" --json --wdl) || fail "probe --wdl in $db: exit $?"
  printf '%s\n' "$@" | "$mora" probe --db "$whole" --json --wdl | python3 -c '
import json, sys
searched = [json.loads(line) for line in sys.argv[1].splitlines()]
for s, w in zip(searched, (json.loads(line) for line in sys.stdin)):
    assert s.pop("proved_by") == "search" and s.pop("search_nodes") > 0, s
    assert s == w, (s, w)
' "$out" || fail "probe --wdl --json in $db: not the values of $whole"
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
  '"distance":9,"game_over":null,"line":\[("[a-g0-9x-]+",){8}"[a-g0-9x-]+"\],"line_end":"Black [^"]* has lost","metric":"rule","moves":\[\{' \
  "$mora" probe --db "$herd3" --json --moves --line "$start"
expect_output "probe of a placing position from stdin" '^W\.{7}/\.{8}/\.{8} b 2 3 0: loss in 8' \
  bash -c "echo 'W......./......../........ b 2 3 0' | '$mora' probe --db '$herd3'"

# Without positions, probe reads them from standard input; at a terminal it says so first (on
# stderr), and from a pipe it says nothing.
python3 - "$mora" "$herd3" "$start" <<'PY' || fail "probe at a terminal gives no hint"
import os, pty, subprocess, sys
mora, db, start = sys.argv[1:]
master, slave = pty.openpty()
p = subprocess.Popen([mora, "probe", "--db", db], stdin=slave, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE)
os.close(slave)
os.write(master, start.encode() + b"\n\x04")
out, err = p.communicate(timeout=60)
os.close(master)
assert p.returncode == 0, (p.returncode, out, err)
assert err == b"reading positions from standard input, one per line; Ctrl-D ends\n", err
assert out.startswith(start.encode() + b": win in 9"), out
PY
out=$(echo "$start" | "$mora" probe --db "$herd3" 2>&1) || fail "probe from a pipe: exit $?"
[ "$(wc -l <<<"$out")" -eq 1 ] || fail "probe from a pipe says more than the answer: $out"

# Tabs and carriage returns separate the fields as spaces do (docs/RULES.md, "Notation").
expect_output "probe of a position with tabs and a CR" \
  $'^\\.{8}/\\.{8}/\\.{8}\tw 3 3\t0\r: win in 9' \
  "$mora" probe --db "$herd3" $'......../......../........\tw 3 3\t0\r'

# A draw has no distance; a line that is not UTF-8 gets its error and the batch goes on.
expect_output "probe --json of a draw" '^\{"best_move":"a7","best_move_pure":"a7","distance":null,' \
  "$mora" probe --db "$msa" --json "$start"
out=$(printf '\xff\xfe\n%s\n' "$start" | "$mora" probe --db "$herd3" --json) && fail "non-UTF-8: exit 0"
[ "$(wc -l <<<"$out")" -eq 2 ] || fail "non-UTF-8 line: not two answers: $out"
grep -q '"error":"the position is not valid UTF-8 (byte 1)"' <<<"$out" || fail "non-UTF-8: $out"
grep -q '"distance":9,' <<<"$out" || fail "non-UTF-8: the next line is not answered: $out"

expect_error "$herd3" '......../......../........ w 4 4 0' 'needs a herd of 4 cows or more'
expect_error "$herd3" 'W......./......../........ w 2 3 0' 'white to move while placing needs'
expect_error "$herd3" 'WWWW..../BBB...../........ w 0 0 0' 'the database has no table for 4 cows against 3 (subspace 4v3)'
# Without the search, a placing position of a moving-only folder is refused saying why.
expect_error "$moving" "$start" 'the database holds the moving phase only' --search-nodes 0
expect_error "$msa" '......../......../........ w 3 3 1' 'the count must be 0 while placing'
# Counts no game reaches (docs/RULES.md, "Notation"): above the ply limit where the count runs;
# while placing, above the plies played, which a database of herd 3 says needs a larger herd,
# as show --herd 3 refuses it, while herd 4's answers it as show --herd 4 shows it.
expect_error "$moving" 'WWW...../.B....B./.....B.. b 0 0 9999' \
  "the count 9999 exceeds the ply limit of rules 'morabaraba', 60: no game reaches it"
expect_error "$moving" 'WWW...../.B....B./.....B.. b 0 0 61' "the count 61 exceeds the ply limit"
expect_output "probe --moves at the ply limit (the rules end the game)" \
  '^WWW\.{5}/\.B\.{4}B\./\.{5}B\.\. b 0 0 60: win in 3, under the ply limit cursed-win; game over: drawn: 60 plies without a mill$' \
  "$mora" probe --db "$moving" --moves 'WWW...../.B....B./.....B.. b 0 0 60'
expect_error "$herd3" '......../......../........ w 3 3 1' \
  'the position needs a herd of 4 cows or more (with 6 cows in hand, its count 1 exceeds the 0 plies a herd of 3 has played)'
status=0
out=$("$mora" show --herd 3 --position '......../......../........ w 3 3 1' 2>&1) || status=$?
[ "$status" -eq 1 ] && grep -q 'the count 1 exceeds the 0 plies played by a herd of 3 with 6 cows in hand' <<<"$out" ||
  fail "show --herd 3 of a count no herd-3 game reaches: exit $status: $out"
expect_output "probe of a count herd 4 reaches" '^\.{8}/\.{8}/\.{8} w 3 3 1: win in 9' \
  "$mora" probe --db "$root/herd4-morabaraba" '......../......../........ w 3 3 1'
expect_output "show --herd 4 of it" '^White to move \(placing\), 1 ply since the last mill$' \
  "$mora" show --herd 4 --position '......../......../........ w 3 3 1'
# Without a ply limit any count stands, and its moves (whose count stays 9999) are answered.
expect_output "probe --moves at count 9999 without a ply limit" '^  a7-g4: win in 3$' \
  "$mora" probe --db "$root/malom" --moves 'WWW...../.B....B./.....B.. w 0 0 9999'

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
# The rule values of info --json by their one spelling (docs/METRICS.md, "Names"), and by the keys
# of before, which scripts/whole_game_results.py reads, with the same counts.
"$mora" info --db "$root/mssa-1" --json | python3 -c '
import json, sys
rule = json.load(sys.stdin)["subspaces"]["3v3"]["rule"]
names = ("win", "cursed-win", "draw", "blessed-loss", "loss")
assert sum(rule[n] for n in names) > 0 and rule["cursed-win"] > 0 and rule["blessed-loss"] > 0, rule
assert (rule["cursed_win"], rule["blessed_loss"]) == (rule["cursed-win"], rule["blessed-loss"]), rule
' || fail "info --json: the rule values by name"
expect_output "check of the herd-3 folder" '^checked 7 files .*: 0 bad, 0 missing$' "$mora" check --db "$herd3"
expect_output "check reads placing tables" '^ok: +.*/0v0\+3\+3\.mtb ' "$mora" check --db "$herd3"

# Best moves by the two metrics (docs/METRICS.md): where they part, the text names both and
# heads each list with the order it follows; --pure orders the lists by pure distance.
max7=$root/max7-morabaraba
parting='.W..B.../.WW....B/W...B... b 0 0 0'
expect_output "probe where the metrics part" \
  'b 0 0 0: loss in 4, under the ply limit loss \(2 plies to the next mill\); best move g1-a7 under the ply limit \(pure loss in 2\), b4-f2xd6 by pure distance$' \
  "$mora" probe --db "$max7" "$parting"
out=$("$mora" probe --db "$max7" --moves "$parting")
[ "$(sed -n 2,3p <<<"$out")" = "  moves, best first under the ply limit:
  g1-a7: loss in 2, under the ply limit loss (2 plies to the next mill)" ] ||
  fail "probe --moves: $(head -3 <<<"$out")"
out=$("$mora" probe --db "$max7" --moves --line --pure "$parting")
[ "$(sed -n 2,3p <<<"$out")" = "  moves, best first by pure distance:
  b4-f2xd6: loss in 4, under the ply limit loss (1 ply to the next mill)" ] ||
  fail "probe --moves --pure: $(head -3 <<<"$out")"
grep -Eq '^  line by pure distance: b4-f2xd6( [a-g0-9x-]+){3} \(Black .* and has lost\)$' <<<"$out" ||
  fail "probe --line --pure: $(tail -1 <<<"$out")"
expect_output "probe --line under the rule" \
  '^  line under the ply limit: g1-a7 [a-g0-9x-]+ \(Black .* and has lost\)$' \
  "$mora" probe --db "$max7" --line "$parting"
expect_output "probe --json names both best moves" \
  '"best_move":"g1-a7","best_move_pure":"b4-f2xd6","distance":4,"game_over":null,"metric":"pure",' \
  "$mora" probe --db "$max7" --json --pure --moves "$parting"
# A finished game, the ply limit too: the reason, and no moves or line by either metric.
at_limit='WWW...../.B....B./.....B.. w 0 0 60'
for flags in "" "--pure --moves --line"; do
  # shellcheck disable=SC2086
  out=$("$mora" probe --db "$max7" $flags "$at_limit") || fail "probe $flags at the limit: exit $?"
  [[ $out =~ ^WWW.*\ w\ 0\ 0\ 60:\ win\ in\ 3.*\;\ game\ over:\ drawn:\ 60\ plies\ without\ a\ mill$ ]] ||
    fail "probe $flags at the limit: $out"
done
expect_output "probe --json at the limit: no best move" \
  '^\{"best_move":null,"best_move_pure":null,"distance":3,"game_over":"drawn: 60 plies without a mill","line":\[\],"line_end":"drawn: 60 plies without a mill","metric":"rule","moves":\[\],' \
  "$mora" probe --db "$max7" --json --moves --line "$at_limit"
expect_output "probe of a side down to two cows" \
  '; game over: Black is down to two cows and has lost$' \
  "$mora" probe --db "$max7" --moves 'WWW...../......../B..B.... b 0 0 0'

expect_output "without a ply limit, one best move and unlabelled lists" \
  '^WWW\.{5}/\.B\.{4}B\./\.{5}B\.\. w 0 0 0: win in 3; best move [a-g0-9x-]+$' \
  "$mora" probe --db "$root/malom" --line 'WWW...../.B....B./.....B.. w 0 0 0'
expect_output "without a ply limit, the line unlabelled" '^  line: ' \
  "$mora" probe --db "$root/malom" --line 'WWW...../.B....B./.....B.. w 0 0 0'
status=0
out=$("$mora" probe --db "$max7" --pure "$parting" 2>&1) || status=$?
[ "$status" -ne 0 ] && grep -q -- '--pure goes with --moves or --line' <<<"$out" ||
  fail "probe --pure alone: exit $status: $out"
# The WDL-only export of herd3-morabaraba (the fixture's, `export --streams wdl`): probe --wdl
# answers as the source does, text and JSON; a full probe is refused saying why.
wdl=$root/herd3-morabaraba-wdl
positions=$(printf '%s\n' "$start" 'W......./......../........ b 2 3 0' 'WWW...../.B....B./.....B.. w 0 0 0' \
  'WW.W..../BBB...../........ w 0 0 0' '.W....B./W......./B....... b 1 2 0')
[ "$("$mora" probe --db "$wdl" --wdl <<<"$positions")" = "$("$mora" probe --db "$herd3" --wdl <<<"$positions")" ] ||
  fail "probe --wdl of the export differs from the source's"
[ "$("$mora" probe --db "$wdl" --wdl --json <<<"$positions")" = \
  "$("$mora" probe --db "$herd3" --json <<<"$positions" | python3 -c '
import json, sys
for line in sys.stdin:
    a = json.loads(line)
    if "error" not in a:
        a = {k: a[k] for k in ("position", "rule_value", "value")}
    print(json.dumps(a, separators=(",", ":")))')" ] ||
  fail "probe --wdl --json of the export is not the source's values"
# The value under the ply limit at a count above 0: a rule win needs its plies to the next mill,
# which the export does not hold (the pure value still answers, exit 0).
counted='WWW...../.B....B./.....B.. w 0 0 30'
expect_output "probe --wdl of a rule win at count 30" \
  '^WWW\.{5}/\.B\.{4}B\./\.{5}B\.\. w 0 0 30: win, under the ply limit win$' \
  "$mora" probe --db "$herd3" --wdl "$counted"
expect_output "probe --wdl of the export at count 30" \
  ' w 0 0 30: win, under the ply limit not known here: .*3v3\.mtb: the value under the ply limit at count 30 needs the plies to the next mill \(at count 0 it is win\)' \
  "$mora" probe --db "$wdl" --wdl "$counted"
expect_output "probe --wdl --json of the export at count 30" \
  '^\{"position":"[^"]+ w 0 0 30","rule_value":null,"rule_value_error":"[^"]+needs the plies to the next mill[^"]+","value":"win"\}$' \
  "$mora" probe --db "$wdl" --wdl --json "$counted"
expect_output "probe --wdl of the export at count 0" \
  ' w 0 0 0: win, under the ply limit win$' "$mora" probe --db "$wdl" --wdl "${counted% 30} 0"
expect_output "probe --wdl without a ply limit: the value alone" \
  '^WWW\.{5}/\.B\.{4}B\./\.{5}B\.\. w 0 0 0: win$' \
  "$mora" probe --db "$root/malom" --wdl 'WWW...../.B....B./.....B.. w 0 0 0'
expect_error "$wdl" "$start" 'distances are not in this folder'
expect_output "check of the export" '^checked 7 files .*: 0 bad, 0 missing$' "$mora" check --db "$wdl"
# verify recomputes the export's win/draw/loss (all it can) and says so.
out=$("$mora" verify --db "$wdl" -q 2>&1) || fail "verify of the export: exit $?: $out"
[ "$out" = "WDL-only tables (export --streams wdl): the win/draw/loss alone is verified; the distances are not in the folder, and the values under the ply limit, though stored, cannot be recomputed without the plies to the next mill
verified the win/draw/loss of 201403 positions in 7 tables: 0 errors, 0 bad tables" ] ||
  fail "verify of the export: $out"
# info counts the export by value as it counts its source, and says the distances are not there.
out=$("$mora" info --db "$wdl" 2>&1) || fail "info of the export: exit $?: $out"
grep -Eq '^3v3 +- +2691920 +169626 +2240880 +0 +451040 +- +- ' <<<"$out" || fail "info of the export: $out"
grep -q '^every table is WDL-only (export --streams wdl): .* the longest win and loss are not known (-)$' \
  <<<"$out" || fail "info of the export does not say what it lacks: $out"
python3 -c '
import json, sys
wdl, full = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert wdl["herd"] == full["herd"] == 3 and sorted(wdl["subspaces"]) == sorted(full["subspaces"])
for name, w in wdl["subspaces"].items():
    f = full["subspaces"][name]
    for key in ("positions", "canonical_positions", "win", "draw", "loss"):
        assert w[key] == f[key], (name, key, w, f)
    f["rule"].pop("plies_to_mill_histogram")
    assert w["rule"] == f["rule"], (name, w, f)
    assert w["wdl_only"] and not f["wdl_only"], (name, w)
    assert w["max_win_distance"] is w["max_loss_distance"] is None, (name, w)
    assert not any(k.endswith("histogram") or k.startswith("longest") for k in w), (name, w)
' "$("$mora" info --db "$wdl" --json)" "$("$mora" info --db "$herd3" --json)" ||
  fail "info --json of the export: not the source's counts"

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
expect_output "check of the Koti folder" '^checked 7 files .*: 0 bad, 0 missing$' "$mora" check --db "$koti"
expect_output "verify of the Koti folder" '^verified 523894 positions in 7 tables: 0 errors' \
  "$mora" verify --db "$koti" -q
expect_output "show of a Koti position" '^4  W - \. - \. --- B --- \. - \. - \.$' \
  "$mora" show --rules koti --position 'W......W/BB....../W......./B w 0 0 0'
expect_output "perft of the Koti start" '^perft 2 600$' "$mora" perft --rules koti --depth 2

# Damaged and missing tables, in copies of the herd-3 folder (3v3 and six placing tables): only
# the probes that read a bad table fail, each naming it; check and verify report every one.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
placing='W......./......../........ b 2 3 0'  # 0v1+3+2, a successor of the start
late='WWW...../BB....../........ b 0 1 0'      # 2v3+1+0, whose successors are of 3v3
cp -r "$herd3" "$work/truncated"
truncate -s 1000 "$work/truncated/0v1+3+2.mtb"
expect_output "probe beside a truncated table" '^WWW\.{5}/BBB\.{5}/\.{8} w 0 0 0: ' \
  "$mora" probe --db "$work/truncated" 'WWW...../BBB...../........ w 0 0 0'
expect_output "probe of another placing subspace beside it" '^WWW\.{5}/BB\.{6}/\.{8} b 0 1 0: win' \
  "$mora" probe --db "$work/truncated" "$late"
expect_error "$work/truncated" "$placing" "/truncated/0v1+3+2.mtb: "
expect_error "$work/truncated" "$start" "/truncated/0v1+3+2.mtb: "  # its moves lead there
# info lists it in its place, marked bad as check marks it, beside every other table, and
# exits 1.
status=0
out=$("$mora" info --db "$work/truncated" 2>&1) || status=$?
[ "$status" -eq 1 ] || fail "info beside a truncated table: exit $status, expected 1: $out"
grep -q '^whole game: none' <<<"$out" || fail "info beside a truncated table: $out"
listed=$(sed -nE 's/^bad: .*\/truncated\/([^/]+)\.mtb: .*/bad \1/p
  s/^([0-9]+v[0-9]+(\+[0-9]+\+[0-9]+)?) .*/\1/p' <<<"$out" | tr '\n' ' ')
[ "$listed" = "0v0+3+3 bad 0v1+3+2 1v1+2+2 1v2+2+1 2v2+1+1 2v3+1+0 3v3 " ] ||
  fail "info beside a truncated table lists '$listed': $out"
grep -q '^1 bad table$' <<<"$out" || fail "info beside a truncated table: no count: $out"
cp -r "$herd3" "$work/deleted"
rm "$work/deleted/0v0+3+3.mtb" "$work/deleted/2v3+1+0.mtb"
expect_error "$work/deleted" "$start" \
  'the database holds the whole game for no herd (herd 3: of its placing tables, 2v3+1+0.mtb and 0v0+3+3.mtb are missing)' \
  --search-nodes 0
# A herd that was never solved there is said so, without the files it would take.
expect_error "$herd3" '......../......../........ w 4 4 0' \
  'the position needs a herd of 4 cows or more; the database holds the whole game for herds up to 3 (herd 4: not solved in this folder)' \
  --search-nodes 0
# With it, the search answers them through the placing tables that are left.
expect_searched "$work/deleted" "$herd3" "$start" 'WWW...../BB....../........ b 0 1 0'
out=$("$mora" check --db "$work/deleted" 2>&1) && fail "check of a folder with deleted tables: exit 0"
grep -q '^missing: 0v0+3+3.mtb (subspace 0v0+3+3)$' <<<"$out" || fail "check: $out"
grep -q '^missing: 2v3+1+0.mtb (subspace 2v3+1+0)$' <<<"$out" || fail "check: $out"
grep -q ': 0 bad, 2 missing$' <<<"$out" || fail "check: $out"
cp -r "$moving" "$work/up-to-8"
out=$("$mora" check --db "$work/up-to-8" --max-total 7 2>&1) && fail "check --max-total 7: exit 0"
grep -q '^missing: 4v3.mtb (subspace 4v3)$' <<<"$out" || fail "check --max-total: $out"

# A FIFO named like a table: nothing waits on it.
cp -r "$herd3" "$work/fifo"
mkfifo "$work/fifo/4v4.mtb"
expect_output "probe beside a FIFO" '^W\.{7}/\.{8}/\.{8} b 2 3 0: loss in 8'   timeout 20 "$mora" probe --db "$work/fifo" "$placing"
out=$(timeout 20 "$mora" check --db "$work/fifo" 2>&1) && fail "check beside a FIFO: exit 0"
grep -q '^bad: .*/fifo/4v4.mtb: not a regular file$' <<<"$out" || fail "check of a FIFO: $out"

# A file given as the database folder is said to be no folder (not to be missing).
printf 'not a table\n' >"$work/not-a-folder"
status=0
out=$("$mora" probe --db "$work/not-a-folder" "$start" 2>&1) || status=$?
[ "$status" -eq 1 ] && grep -q "database folder '.*/not-a-folder' is not a folder" <<<"$out" ||
  fail "probe --db of a file: exit $status: $out"

# A folder that holds no table is no database that checks out: check fails saying so.
mkdir "$work/empty"
status=0
out=$("$mora" check --db "$work/empty" 2>&1) || status=$?
[ "$status" -eq 1 ] && grep -q "^bad: database folder '.*/empty' holds no table (no \*\.mtb file)$" <<<"$out" &&
  grep -q '^checked 0 files .*: 0 bad, 0 missing, 1 bad folder$' <<<"$out" ||
  fail "check of an empty folder: exit $status: $out"
status=0
out=$("$mora" check --db "$herd3" --db "$work/empty" 2>&1) || status=$?
[ "$status" -eq 1 ] && grep -q '^checked 7 files .*: 0 bad, 0 missing, 1 bad folder$' <<<"$out" ||
  fail "check of a folder beside an empty one: exit $status: $out"

# Tables of two rule sets (or boards) are no database: check says so, as probe does.
cp -r "$herd3" "$work/mixed"
cp "$koti/3v3.mtb" "$work/mixed/3v3.mtb"
out=$("$mora" check --db "$work/mixed" 2>&1) && fail "check of mixed rules: exit 0"
grep -q "^foreign: .*/mixed/3v3.mtb holds rules 'koti' on the koti board, " <<<"$out" ||
  fail "check of mixed rules: $out"
cp "$msa/3v3.mtb" "$work/mixed/3v3.mtb"
out=$("$mora" check --db "$work/mixed" 2>&1) && fail "check of mixed rules: exit 0"
grep -q "^foreign: .*/mixed/3v3.mtb holds rules 'msa-tournament' on" <<<"$out" ||
  fail "check of mixed rules: $out"

# compare: two presets of one board, per subspace; boards that differ and a subspace that one
# database lacks are refused.
expect_output "compare of two presets" '^3v3 +2691920 +[1-9][0-9]* ' \
  "$mora" compare --db "$root/max7-msa-tournament" --with "$max7"
expect_output "compare --json gives an example" '"pure_example": "[WB.]{8}/' \
  "$mora" compare --db "$root/max7-msa-tournament" --with "$max7" --json
expect_output "compare of a folder with itself" '^total +26919200 +0 ' \
  "$mora" compare --db "$max7" --with "$max7"
# compare reads values only: a WDL-only export compares with its source, pure and rule values.
expect_output "compare of a WDL-only export with its source" '^total +2691920 +0 +0\.000( +0){6} +0 +0\.000$' \
  "$mora" compare --db "$root/morabaraba-wdl" --with "$moving"
expect_output "compare of a WDL-only export with another preset" '^3v3 +2691920 +[1-9][0-9]* ' \
  "$mora" compare --db "$root/herd3-morabaraba-wdl" --with "$root/max7-msa-tournament"
out=$("$mora" compare --db "$root/max7-koti" --with "$max7" 2>&1) && fail "compare of two boards: exit 0"
grep -q 'only databases of one board can be compared' <<<"$out" || fail "compare of two boards: $out"
out=$("$mora" compare --db "$max7" --with "$moving" --subspace 3v4 2>&1) &&
  fail "compare of a subspace one lacks: exit 0"
grep -q 'subspace 3v4 is not in both databases' <<<"$out" || fail "compare --subspace: $out"

# verify lists every bad table and still verifies the others.
cp -r "$herd3" "$work/two-bad"
truncate -s 2000 "$work/two-bad/2v3+1+0.mtb"
size=$(stat -c %s "$work/two-bad/2v2+1+1.mtb")
printf '\x55' | dd of="$work/two-bad/2v2+1+1.mtb" bs=1 seek=$((size - 10)) conv=notrunc status=none
out=$("$mora" verify --db "$work/two-bad" -q 2>&1) && fail "verify of two bad tables: exit 0"
grep -q '^bad: .*/two-bad/2v3+1+0.mtb: ' <<<"$out" || fail "verify: $out"
grep -q '^bad: 2v2+1+1: .*/two-bad/2v2+1+1.mtb: checksum mismatch' <<<"$out" || fail "verify: $out"
grep -Eq '^verified [1-9][0-9]* positions in [1-9] tables: 0 errors, 2 bad tables, [1-9][0-9]* not verified \(they read a bad or missing table\)$' <<<"$out" ||
  fail "verify: $out"
grep -Eq '^not verified: [0-9v+]+: .*/two-bad/(2v3\+1\+0|2v2\+1\+1)\.mtb' <<<"$out" ||
  fail "verify: the tables that read a bad one: $out"
# So does info: every table in its place, the one that does not open and the one whose block
# is damaged marked bad (the tables after them listed too), exit 1; --json lists them apart.
status=0
out=$("$mora" info --db "$work/two-bad" 2>&1) || status=$?
[ "$status" -eq 1 ] || fail "info of two bad tables: exit $status, expected 1: $out"
listed=$(sed -nE 's/^bad: .*\/two-bad\/([^/]+)\.mtb: .*/bad \1/p
  s/^([0-9]+v[0-9]+(\+[0-9]+\+[0-9]+)?) .*/\1/p' <<<"$out" | tr '\n' ' ')
[ "$listed" = "0v0+3+3 0v1+3+2 1v1+2+2 1v2+2+1 bad 2v2+1+1 bad 2v3+1+0 3v3 " ] ||
  fail "info of two bad tables lists '$listed': $out"
grep -q '^bad: .*/two-bad/2v2+1+1.mtb: .*checksum mismatch' <<<"$out" || fail "info: $out"
grep -q '^2 bad tables$' <<<"$out" || fail "info of two bad tables: no count: $out"
status=0
out=$("$mora" info --db "$work/two-bad" --json 2>&1) || status=$?
[ "$status" -eq 1 ] || fail "info --json of two bad tables: exit $status, expected 1"
python3 -c '
import json, os, sys
info = json.loads(sys.argv[1])
assert sorted(info["subspaces"]) == ["0v0+3+3", "0v1+3+2", "1v1+2+2", "1v2+2+1", "3v3"], info
bad = [(os.path.basename(b["file"]), b["error"]) for b in info["bad_tables"]]
assert [name for name, _ in bad] == ["2v2+1+1.mtb", "2v3+1+0.mtb"], bad
assert "checksum mismatch" in bad[0][1], bad
' "$out" || fail "info --json of two bad tables: $out"

# A table copied over another's name holds what its header says, not what its name says: check
# names the mismatch, as solve does, instead of passing it.
cp -r "$max7" "$work/renamed"
cp "$work/renamed/4v3.mtb" "$work/renamed/4v4.mtb"
out=$("$mora" check --db "$work/renamed" 2>&1) && fail "check of a 4v4.mtb holding 4v3: exit 0"
grep -q '^bad: .*/renamed/4v4.mtb: holds subspace 4v3, not 4v4$' <<<"$out" ||
  fail "check of a 4v4.mtb holding 4v3: $out"
grep -q '^ok:  .*/renamed/4v3.mtb ' <<<"$out" || fail "check of the 4v3.mtb beside it: $out"
grep -q ': 1 bad, 0 missing$' <<<"$out" || fail "check of a 4v4.mtb holding 4v3: $out"

# Placing positions of a folder of the moving phase only (herd 4's moving tables, linked) are
# proved by search: the values of the whole game's tables, marked so, and never a guess.
herd4=$root/herd4-morabaraba
mkdir "$work/herd4-moving"
for table in "$herd4"/*.mtb; do
  [[ $(basename "$table") == *+* ]] || ln -s "$(realpath "$table")" "$work/herd4-moving/"
done
start4='......../......../........ w 4 4 0'
expect_searched "$work/herd4-moving" "$herd4" "$start4" 'W......./......../........ b 3 4 0' \
  'W.....B./W......B/........ w 2 2 0' 'WW.B..../B.W..B../........ b 0 1 0' \
  'W.W...../B.B...../...B.... w 1 1 3'
expect_searched "$moving" "$herd3" "$start" 'W......./......../........ b 2 3 0'
expect_output "probe of the herd-4 start by search" \
  '^\.{8}/\.{8}/\.{8} w 4 4 0: draw, under the ply limit draw \(proved by search, [0-9]+ nodes\)$' \
  "$mora" probe --db "$work/herd4-moving" "$start4"
expect_output "probe --moves by search" '^  \(no moves or line: a search proves the value' \
  "$mora" probe --db "$work/herd4-moving" --moves "$start4"
expect_output "probe --json --moves --line by search: null" '"line":null,.*"moves":null,' \
  "$mora" probe --db "$work/herd4-moving" --json --moves --line "$start4"
expect_error "$work/herd4-moving" "$start4" 'unknown within the limit of 1 node' --search-nodes 1
expect_output "probe --json at the limit: value null" \
  '"error":"unknown within the limit of 1 node",.*"proved_by":"search","rule_value":null,"search_nodes":[0-9]+,"value":null\}$' \
  bash -c "'$mora' probe --db '$work/herd4-moving' --json --search-nodes 1 '$start4' || true"
status=0
out=$("$mora" probe --db "$work/herd4-moving" --wdl --search-nodes 1 "$start4") || status=$?
[ "$status" -eq 1 ] && [[ $out == *": error: unknown within the limit of 1 node" ]] ||
  fail "probe --wdl at the limit: exit $status: $out"
expect_error "$work/herd4-moving" "$start4" 'the database holds the moving phase only' --search-nodes 0
# A folder that lacks the moving tables the games reach is not searched.
expect_error "$moving" "$start4" 'the database holds the moving phase only'
# What prove proved (the folder's proofs.mpf) answers at once, within any limit.
"$mora" prove --db "$work/herd4-moving" -q "$start4" >/dev/null || fail "prove of the herd-4 start"
[ -f "$work/herd4-moving/proofs.mpf" ] || fail "prove wrote no proofs.mpf"
expect_output "probe by the proof file" \
  ' w 4 4 0: draw, under the ply limit draw \(proved by search, [1-9] nodes?\)$' \
  "$mora" probe --db "$work/herd4-moving" --search-nodes 1 "$start4"
printf 'damaged' >"$work/herd4-moving/proofs.mpf"
expect_error "$work/herd4-moving" "$start4" "herd4-moving/proofs.mpf"
expect_output "a damaged proof file fails only the searches" '^WWW\.{5}/BBB\.{5}/\.{8} w 0 0 0: ' \
  "$mora" probe --db "$work/herd4-moving" 'WWW...../BBB...../........ w 0 0 0'

[ "$failures" -eq 0 ] || exit 1
echo "probe_cli: all passed"
