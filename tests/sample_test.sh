#!/usr/bin/env bash
# `morabaraba sample` on the fixture's whole game of herd 3: the same seed draws the same
# positions, every layer of the folder gets --per-layer of them, each lies in the subspace and
# layer it names, and its values are what `probe --json` answers for its position string; and
# on a folder of the moving phase alone, its one layer.
#   sample_test.sh MORABARABA DB_ROOT
set -euo pipefail
mora=$1 db=$2/herd3-morabaraba
fail() {
  echo "sample_test: $*" >&2
  exit 1
}
a=$("$mora" sample --db "$db" --herd 3 --per-layer 5 --seed 3)
[ "$a" = "$("$mora" sample --db "$db" --herd 3 --per-layer 5 --seed 3)" ] || fail "same seed, other draw"
[ "$a" != "$("$mora" sample --db "$db" --herd 3 --per-layer 5 --seed 4)" ] || fail "other seed, same draw"
# The herd is the folder's by default; a larger one is refused naming what the folder holds.
[ "$a" = "$("$mora" sample --db "$db" --per-layer 5 --seed 3)" ] || fail "the default herd is not the folder's 3"
status=0
out=$("$mora" sample --db "$db" --herd 4 2>&1) || status=$?
[ "$status" -eq 1 ] && grep -q -- '--herd 4: the folder holds the whole game of herds up to 3 only' <<<"$out" ||
  fail "a herd the folder does not hold: exit $status: $out"
# A folder of the moving phase alone: one layer, from every subspace it holds, each drawn
# position's values those of probe.
moving=$2/max7-morabaraba
out=$("$mora" sample --db "$moving" --per-layer 50 --seed 5) || fail "sample of a moving-phase folder: exit $?"
[ "$(wc -l <<<"$out")" -eq 50 ] || fail "a moving-phase folder: not 50 positions: $(head -3 <<<"$out")"
python3 -c '
import json, subprocess, sys
lines = [json.loads(l) for l in sys.argv[3].splitlines()]
assert {l["layer"] for l in lines} == {0}, lines[:3]
held = set(json.loads(subprocess.run([sys.argv[1], "info", "--db", sys.argv[2], "--json"],
                                     check=True, capture_output=True, text=True).stdout)["subspaces"])
assert {l["subspace"] for l in lines} <= held and len({l["subspace"] for l in lines}) > 1, lines[:3]
probe = subprocess.run([sys.argv[1], "probe", "--db", sys.argv[2], "--json"], input="\n".join(
    l["position"] for l in lines) + "\n", check=True, capture_output=True, text=True).stdout
for l, p in zip(lines, map(json.loads, probe.splitlines())):
    assert all(l[f] == p[f] for f in ("value", "distance", "rule_value", "plies_to_mill")), (l, p)
' "$mora" "$moving" "$out" || fail "the draw of a moving-phase folder does not match probe"
status=0
out=$("$mora" sample --db "$moving" --herd 3 2>&1) || status=$?
[ "$status" -eq 1 ] && grep -q -- '--herd 3: the folder holds the moving phase only' <<<"$out" ||
  fail "--herd on a moving-phase folder: exit $status: $out"
# A negative or absurd number of draws is a bad option (exit 2), not a draw without end.
for k in -1 0 1000001 18446744073709551615; do
  status=0
  out=$(timeout 20 "$mora" sample --db "$db" --per-layer "$k" 2>&1 | head -3) || true
  timeout 20 "$mora" sample --db "$db" --per-layer "$k" >/dev/null 2>&1 || status=$?
  [ "$status" -eq 2 ] && grep -Eq -- "--per-layer must be from 1 to 1000000|'--per-layer' is invalid" <<<"$out" ||
    fail "--per-layer $k: exit $status: $out"
done
python3 - "$mora" "$db" "$a" <<'PY' || fail "the draw does not match the folder"
import json, subprocess, sys
from collections import Counter
mora, db, text = sys.argv[1], sys.argv[2], sys.argv[3]
lines = [json.loads(l) for l in text.splitlines()]
info = json.loads(subprocess.run([mora, "info", "--db", db, "--json"], check=True,
                                 capture_output=True, text=True).stdout)
def layer(name):
    parts = name.split("+")
    return 0 if len(parts) == 1 else int(parts[1]) + int(parts[2])
layers = Counter(layer(name) for name in info["subspaces"])
drawn = Counter(l["layer"] for l in lines)
assert set(drawn) == set(layers), (drawn, layers)
assert all(n == 5 for n in drawn.values()), drawn
probe = subprocess.run([mora, "probe", "--db", db, "--json"], input="\n".join(
    l["position"] for l in lines) + "\n", check=True, capture_output=True, text=True).stdout
for l, p in zip(lines, (json.loads(x) for x in probe.splitlines())):
    assert layer(l["subspace"]) == l["layer"], l
    for field in ("value", "distance", "rule_value", "plies_to_mill"):
        assert l[field] == p[field], (l, p)
PY
echo "sample_test: ok"
