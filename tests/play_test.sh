#!/usr/bin/env bash
# `morabaraba play` driven through stdin on the herd-3 fixture (ctest play): the player follows
# the best line that `probe --json --line` gives, so the database's replies must be the line's
# other moves and the game must end as the probe says; illegal moves are explained (once), the
# value is shown on request, a move is taken back, during the game and after it.
#   play_test.sh MORABARABA DB_ROOT
set -euo pipefail
mora=$1 db=$2/herd3-morabaraba
start='......../......../........ w 3 3 0'
failures=0
fail() {
  echo "play: $*" >&2
  failures=$((failures + 1))
}
# The best line's moves, one per line.
mapfile -t line < <("$mora" probe --db "$db" --json --line "$start" |
  python3 -c 'import json, sys; print("\n".join(json.load(sys.stdin)["line"]))')
[ "${#line[@]}" -eq 9 ] || fail "the best line of the herd-3 start has ${#line[@]} moves, not 9"

# play_line SIDE FIRST COMMANDS...: plays the line's moves FIRST, FIRST+2, ... as SIDE after the
# given commands; prints the transcript.
play_line() {
  local side=$1 first=$2
  shift 2
  {
    printf '%s\n' "$@"
    for ((i = first; i < ${#line[@]}; i += 2)); do echo "${line[i]}"; done
  } | "$mora" play --db "$db" --side "$side"
}

out=$(play_line white 0 help value hint moves zz a1-a4 "${line[0]}" back) || fail "play exit $?"
grep -q "^You play White" <<<"$out" || fail "no greeting"
grep -q "value for you: win in 9" <<<"$out" || fail "value on request: $out"
grep -q "best move: ${line[0]}: win in 9, under the ply limit win (9 plies to the next mill)\$" <<<"$out" ||
  fail "hint is not the line's first move ${line[0]} with its value"
# moves: every point with its value for the player, best first (the line's first move heads it).
grep -q "> legal moves, best first under the ply limit (each with its value for you):\$" <<<"$out" ||
  fail "moves: no heading: $out"
[ "$(grep -A24 '> legal moves, best first' <<<"$out" |
  grep -Ec '^  [a-g][1-7]: win in (9|15), under the ply limit win \((9|15) plies to the next mill\)$')" -eq 24 ] ||
  fail "moves: not the 24 points each with its value: $out"
grep -A1 '> legal moves, best first' <<<"$out" | grep -q "^  ${line[0]}: win in 9" ||
  fail "moves: the best move ${line[0]} does not come first"
grep -q "illegal: unknown point 'zz'" <<<"$out" || fail "zz not explained"
grep -q "illegal: 'a1-a4' is not a legal move .*you still have cows in hand" <<<"$out" ||
  fail "a1-a4 while placing not explained"
grep -A1 "illegal: unknown point 'zz'" <<<"$out" | grep -q "^legal moves: a7 " ||
  fail "no list of legal moves after an illegal one"
for ((i = 1; i < ${#line[@]}; i += 2)); do
  grep -q "I play ${line[i]}\$" <<<"$out" || fail "the reply ${line[i]} is not played"
done
grep -q "^game over: Black is down to two cows and has lost" <<<"$out" || fail "no game over"
grep -A1 "^You win.$" <<<"$out" | grep -q "^Type 'back' to take your last move back, or 'quit'" ||
  fail "no 'You win.' and how to go on after the game"
[ "$(grep -c '^I play' <<<"$out")" -eq 5 ] || fail "not 5 replies (one taken back and replayed)"

out=$(play_line black 1) || fail "play --side black: exit $?"
grep -q "I play ${line[0]}\$" <<<"$out" || fail "as white, the database does not open ${line[0]}"
grep -q "^I win.$" <<<"$out" || fail "--side black: no 'I win.'"

# After the game is over, 'back' takes the last move back and the game goes on: the last move
# played again ends it a second time; 'quit' then leaves.
out=$({
  for ((i = 0; i < ${#line[@]}; i += 2)); do echo "${line[i]}"; done
  printf '%s\n' e4 back "${line[8]}" quit
} | "$mora" play --db "$db" --side white) || fail "back after the game: exit $?"
[ "$(grep -c '^game over: Black is down to two cows' <<<"$out")" -eq 2 ] ||
  fail "back after the game over did not take the move back: $out"
grep -q "the game is over: 'back' or 'quit'" <<<"$out" || fail "a move after the game not refused"

# A point that is taken, and a cow that is not there, are said to be so.
out=$(printf '%s\n' "${line[0]}" "${line[0]}" "${line[1]}" quit | "$mora" play --db "$db" --side white)
grep -q "illegal: '${line[0]}' is not a legal move in this position; ${line[0]} is taken (by a white cow)" <<<"$out" ||
  fail "a placement on your own cow is not explained: $out"
grep -q "illegal: '${line[1]}' is not a legal move in this position; ${line[1]} is taken (by a black cow)" <<<"$out" ||
  fail "a placement on the other's cow (the reply ${line[1]}) is not explained: $out"
out=$(printf 'c5-d5\ng4-b6\nquit\n' | "$mora" play --db "$db" --position 'WW.W..../BBB...../........ w 0 0 0')
grep -q "illegal: 'c5-d5' is not a legal move in this position; you have no cow on c5" <<<"$out" ||
  fail "a move from an empty point is not explained: $out"
grep -q "illegal: 'g4-b6' is not a legal move in this position; b6 is taken (by a black cow)" <<<"$out" ||
  fail "a move to a taken point is not explained: $out"
# A side with three cows is shown flying (each side, whoever is to move); without flying
# (msa-tournament) it is not.
grep -q '^White has 3 cows and flies: moves a cow to any empty point$' <<<"$out" &&
  grep -q '^Black has 3 cows and flies: ' <<<"$out" || fail "three cows not shown flying: $out"
out=$(printf 'quit\n' | "$mora" play --db "$2/herd3-msa-tournament" --position 'WW.W..../BBB...../........ w 0 0 0')
! grep -q 'flies' <<<"$out" || fail "msa-tournament's three cows shown flying: $out"

# A move that closes a mill without its shot is explained.
out=$(printf 'g4-g7\nquit\n' | "$mora" play --db "$db" --position 'WW.W..../BBB...../........ w 0 0 0')
[ "$(grep -Ec "(forms|closes) a mill" <<<"$out")" -eq 1 ] &&
  grep -q "illegal: 'g4-g7' forms a mill: write its shot, as in 'g4-g7x" <<<"$out" ||
  fail "a mill without its shot not explained once: $out"
# The metric the database plays by (docs/METRICS.md): in this max7 position Black's best move
# under the ply limit is g1-a7, by pure distance b4-f2xd6 (as `probe` says, tests/probe_cli_test.sh).
parting='.W..B.../.WW....B/W...B... b 0 0 0'
out=$(printf 'hint\nquit\n' | "$mora" play --db "$2/max7-morabaraba" --position "$parting")
grep -q "^I choose my moves under the ply limit;" <<<"$out" &&
  grep -q "^I play g1-a7\$" <<<"$out" || fail "play under the rule: $out"
out=$(printf 'hint\nquit\n' | "$mora" play --db "$2/max7-morabaraba" --position "$parting" --pure)
grep -q "^I choose my moves by pure distance" <<<"$out" &&
  grep -q "^I play b4-f2xd6\$" <<<"$out" || fail "play --pure: $out"
# As White, the hint follows the metric too (the colours of the position swapped).
swapped='.B..W.../.BB....W/B...W... w 0 0 0'
out=$(printf 'hint\nquit\n' | "$mora" play --db "$2/max7-morabaraba" --position "$swapped")
grep -q "> best move: g1-a7: loss in 2, under the ply limit loss (2 plies to the next mill)\$" <<<"$out" ||
  fail "hint under the rule: $out"
out=$(printf 'hint\nquit\n' | "$mora" play --db "$2/max7-morabaraba" --position "$swapped" --pure)
grep -q "> best move: b4-f2xd6: loss in 4, " <<<"$out" || fail "hint --pure: $out"
status=0
out=$("$mora" play --db "$db" --side purple 2>&1) || status=$?
[ "$status" -eq 2 ] && grep -q "white or black" <<<"$out" || fail "--side purple: $status $out"
status=0
out=$("$mora" play --db "$2/morabaraba" </dev/null 2>&1) || status=$?
[ "$status" -eq 2 ] && grep -q "give --position" <<<"$out" || fail "moving-only without --position"

[ "$failures" -eq 0 ] || exit 1
echo "play: all passed"
