#!/usr/bin/env bash
# Writers never follow a symbolic link planted in a database folder (issue 55): solve, export, a
# checkpoint and the folder's lock each refuse a link at a name they write, exit non-zero and
# leave the file it points to as it was; a second job on a folder being solved is refused.
#   planted_links_test.sh MORABARABA WORKDIR
set -uo pipefail
mora=$1 work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
echo secret > victim.txt
expect_refused() {  # expect_refused WHAT COMMAND...: non-zero exit, the victim unchanged
  local what=$1
  shift
  if "$@" > out.txt 2>&1; then cat out.txt; fail "$what: exit 0"; fi
  grep -q "symbolic link" out.txt || { cat out.txt; fail "$what: no word of the link"; }
  [ "$(cat victim.txt)" = secret ] || fail "$what: the victim was written"
  echo "ok: $what refused: $(head -1 out.txt)"
}
"$mora" solve --db db --max-total 7 -q > /dev/null || fail "the first solve"

rm db/4v3.mtb && ln -s "$PWD/victim.txt" db/4v3.mtb.tmp
expect_refused "a table's temporary file" "$mora" solve --db db --max-total 7 -q
rm db/4v3.mtb.tmp

ln -s "$PWD/victim.txt" db/4v3.checkpoint.tmp
expect_refused "a checkpoint's temporary file" \
  "$mora" solve --db db --max-total 7 --checkpoint-minutes 0 -q
rm db/4v3.checkpoint.tmp

rm db/.morabaraba.lock && ln -s "$PWD/victim.txt" db/.morabaraba.lock
expect_refused "the folder's lock" "$mora" solve --db db --max-total 7 -q
rm db/.morabaraba.lock

"$mora" solve --db db --max-total 7 -q > /dev/null || fail "the solve after the links went"
mkdir exported && ln -s "$PWD/victim.txt" exported/3v3.mtb.tmp
expect_refused "an export's temporary file" "$mora" export --db db --to exported --streams wdl -q
rm exported/3v3.mtb.tmp
"$mora" export --db db --to exported --streams wdl -q > /dev/null || fail "the export"

# A link that leads nowhere at an input table's name (a loop): warned about, solved again, the
# link replaced by the table.
sums=$(cd db && sha256sum 3v3.mtb 4v3.mtb)
rm db/3v3.mtb && ln -s 3v3.mtb db/3v3.mtb
"$mora" solve --db db --max-total 7 -q > loop.txt 2>&1 || { cat loop.txt; fail "a link loop at 3v3.mtb: exit $?"; }
grep -q "^warning: .*3v3.mtb: cannot open: Too many levels of symbolic links; solving it again" loop.txt ||
  { cat loop.txt; fail "a link loop at 3v3.mtb: no warning"; }
[ ! -L db/3v3.mtb ] && [ "$(cd db && sha256sum 3v3.mtb 4v3.mtb)" = "$sums" ] ||
  fail "a link loop at 3v3.mtb: not solved again"
echo "ok: a link loop at an input table: $(grep -m1 warning loop.txt)"

# A second job on a folder that a solve holds.
"$mora" solve --db busy --max-total 8 -q > first.txt 2>&1 &
first=$!
for _ in $(seq 100); do [ -e busy/.morabaraba.lock ] && break; sleep 0.05; done
if "$mora" solve --db busy --max-total 8 -q > second.txt 2>&1; then
  fail "a second solve of a busy folder ran"
fi
grep -q "is in use by solve (process $first)" second.txt || { cat second.txt; fail "the refusal"; }
wait "$first" || fail "the first solve failed"
echo "ok: a second solve refused: $(cat second.txt)"
cmp <(cd db && sha256sum 3v3.mtb 4v3.mtb) <(cd busy && sha256sum 3v3.mtb 4v3.mtb) \
  || fail "the tables differ"
echo "planted links: all refused"
