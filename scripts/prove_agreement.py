#!/usr/bin/env python3
"""The proof search against the whole-game tables, position by position (issue 52).

    scripts/prove_agreement.py MORABARABA WHOLE_GAME_DB MOVING_DB HERD PER_LAYER [SEED]

Draws PER_LAYER placing positions from every layer of HERD's whole game with `sample` (their
values read from WHOLE_GAME_DB's tables), proves each with `prove --json` from MOVING_DB (a
folder of the same rules that holds the moving phase only), and prints one JSON object: the
positions compared, per layer, and every one whose value or value under the rules differs.
Exit status 1 when any differs or is not proved.
"""
import json
import subprocess
import sys
import time


def main():
    if len(sys.argv) not in (6, 7):
        sys.exit(__doc__)
    mora, whole, moving, herd, per_layer = sys.argv[1:6]
    seed = sys.argv[6] if len(sys.argv) == 7 else "1"
    sampled = subprocess.run(
        [mora, "sample", "--db", whole, "--herd", herd, "--per-layer", per_layer, "--seed", seed],
        check=True, capture_output=True, text=True).stdout.splitlines()
    want = [json.loads(line) for line in sampled]
    want = [w for w in want if w["layer"] > 0]  # placing positions: cows in hand
    start = time.monotonic()
    proved = subprocess.run(
        [mora, "prove", "--db", moving, "--json", "--no-save", "-q", "--memory", "0.25"],
        input="".join(w["position"] + "\n" for w in want), capture_output=True, text=True)
    seconds = time.monotonic() - start
    got = [json.loads(line) for line in proved.stdout.splitlines()]
    if len(got) != len(want):
        sys.exit(f"prove answered {len(got)} of {len(want)} positions: {proved.stderr}")
    layers, differ = {}, []
    for w, g in zip(want, got):
        layers[w["layer"]] = layers.get(w["layer"], 0) + 1
        if (g.get("value"), g.get("rule_value")) != (w["value"], w["rule_value"]):
            differ.append({"position": w["position"], "tables": [w["value"], w["rule_value"]],
                           "search": [g.get("value"), g.get("rule_value"), g.get("error")]})
    print(json.dumps({"herd": int(herd), "positions": len(want), "per_layer": layers,
                      "nodes": sum(g.get("nodes", 0) for g in got),
                      "seconds": round(seconds, 1), "differ": differ}))
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
