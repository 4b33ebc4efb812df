#!/usr/bin/env python3
"""Renders docs/RESULTS.md's tables of a whole-game database folder.

    python3 scripts/whole_game_results.py MORABARABA DB [--log RUN_LOG ...] [--json]
    python3 scripts/whole_game_results.py --data docs/data/FILE.json

Prints, in Markdown: the start of every herd the folder holds (pure value and distance, value
under the rules, best first placement by each metric), then one row per layer (cows in hand,
0 for the moving phase): positions, win/draw/loss over all positions (weighted by orbits),
cursed wins and blessed losses, the longest win with its position, and, from the solve logs
given, the layer's seconds, CPU seconds and the largest peak RSS of its units. --json prints
the rows (`starts`, `layers`) as a data file of docs/data holds them (scripts/results_data.py);
--data renders such a file's rows.
"""

import argparse
import json
import re
import subprocess
import sys
from collections import defaultdict

import results_data

UNIT_LINE = re.compile(r"^\[\d+/\d+\] (\S+): (\d+) positions in ([\d.e+-]+) s .*?cpu ([\d.e+-]+) s,"
                       r" peak RSS (\d+) MiB")


def layer(name):
    parts = name.split("+")
    return 0 if len(parts) == 1 else int(parts[1]) + int(parts[2])


def run_json(mora, *args, stdin=None):
    out = subprocess.run([mora, *args], input=stdin, check=True, capture_output=True, text=True)
    return out.stdout


def unit_costs(logs):
    """Per subspace: seconds, CPU seconds, peak RSS in MiB (the last line of each wins)."""
    costs = {}
    for path in logs:
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = UNIT_LINE.match(line)
                if m:
                    costs[m.group(1)] = (float(m.group(3)), float(m.group(4)), int(m.group(5)))
    return costs


def starts(mora, db, herd):
    lines = "".join(f"......../......../........ w {n} {n} 0\n" for n in range(3, herd + 1))
    answers = [json.loads(l) for l in run_json(mora, "probe", "--db", db, "--json",
                                               stdin=lines).splitlines()]
    return [{"herd": n, "value": a["value"], "distance": a["distance"],
             "rule_value": a.get("rule_value", a["value"]), "best_move": a.get("best_move"),
             "best_move_pure": a.get("best_move_pure", a.get("best_move"))}
            for n, a in zip(range(3, herd + 1), answers)]


def layers(info, costs):
    rows = defaultdict(lambda: defaultdict(int))
    longest = {}
    costed = set()
    for name, s in info["subspaces"].items():
        k = layer(name)
        r = rows[k]
        for key in ("positions", "canonical_positions", "win", "draw", "loss"):
            r[key] += s[key]
        for key in ("cursed_win", "blessed_loss"):
            r[key] += s.get("rule", {}).get(key, 0)
        best = longest.get(k)
        if best is None or s["max_win_distance"] > best[0]:
            longest[k] = (s["max_win_distance"], s.get("longest_win_position"))
        if name in costs:
            seconds, cpu, peak = costs[name]
            costed.add(k)
            r["seconds"] += seconds
            r["cpu"] += cpu
            r["peak"] = max(r["peak"], peak)
    out = []
    for k in sorted(rows):
        r = rows[k]
        n = r["positions"]
        share = lambda part: round(100.0 * part / n, 2) if n else 0.0
        out.append({"cows_in_hand": k, "positions": n, "canonical": r["canonical_positions"],
                    "win": r["win"], "draw": r["draw"], "loss": r["loss"],
                    "win_pct": share(r["win"]), "draw_pct": share(r["draw"]), "loss_pct": share(r["loss"]),
                    "cursed_win": r["cursed_win"], "blessed_loss": r["blessed_loss"],
                    "longest_win": longest[k][0], "longest_win_position": longest[k][1],
                    "seconds": round(r["seconds"], 6) if k in costed else None,
                    "cpu_seconds": round(r["cpu"], 6) if k in costed else None,
                    "peak_rss_mib": r["peak"] if k in costed else None})
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("morabaraba", nargs="?")
    parser.add_argument("db", nargs="?")
    parser.add_argument("--log", action="append", default=[], help="a solve log of the folder")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--data", help="render a data file (docs/data) instead of a folder")
    args = parser.parse_args()
    if args.data:
        data = results_data.load(args.data)
    elif args.morabaraba and args.db:
        info = json.loads(run_json(args.morabaraba, "info", "--db", args.db, "--json"))
        data = {"rules": info.get("rules"), "herd": info["herd"],
                "starts": starts(args.morabaraba, args.db, info["herd"]),
                "layers": layers(info, unit_costs(args.log))}
    else:
        parser.error("give MORABARABA and DB, or --data FILE")
    if args.json:
        sys.stdout.write(results_data.dumps(data))
        return
    out = []
    if "starts" in data:
        out += results_data.render_starts(data["starts"]) + [""]
    out += results_data.render_layers(data["layers"])
    print("\n".join(out))


if __name__ == "__main__":
    main()
