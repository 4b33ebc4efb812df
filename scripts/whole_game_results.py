#!/usr/bin/env python3
"""Renders docs/RESULTS.md's tables of a whole-game database folder.

    python3 scripts/whole_game_results.py MORABARABA DB [--log RUN_LOG ...]

Prints, in Markdown: the start of every herd the folder holds (pure value and distance, value
under the rules, best first placement by each metric), then one row per layer (cows in hand,
0 for the moving phase): positions, win/draw/loss over all positions (weighted by orbits),
cursed wins and blessed losses, the longest win with its position, and, from the solve logs
given, the layer's seconds, CPU seconds and the largest peak RSS of its units.
"""

import argparse
import json
import re
import subprocess
from collections import defaultdict

UNIT_LINE = re.compile(r"^\[\d+/\d+\] (\S+): (\d+) positions in ([\d.e+-]+) s .*?cpu ([\d.e+-]+) s,"
                       r" peak RSS (\d+) MiB")


def layer(name):
    parts = name.split("+")
    return 0 if len(parts) == 1 else int(parts[1]) + int(parts[2])


def num(n):
    return f"{n:,}"


def pct(part, whole):
    return f"{100.0 * part / whole:.2f}" if whole else "0"


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
    print("| herd | pure value | pure distance | under the rules | best first placement"
          " (rules) | best first placement (pure) |")
    print("|---:|---|---:|---|---|---|")
    for n, a in zip(range(3, herd + 1), answers):
        rule = a.get("rule_value", a["value"])
        print(f"| {n} | {a['value']} | {a['distance'] if a['distance'] is not None else '-'} |"
              f" {rule} | {a.get('best_move')} | {a.get('best_move_pure', a.get('best_move'))} |")


def layers(info, costs):
    rows = defaultdict(lambda: defaultdict(int))
    longest = {}
    for name, s in info["subspaces"].items():
        r = rows[layer(name)]
        for key in ("positions", "canonical_positions", "win", "draw", "loss"):
            r[key] += s[key]
        for key in ("cursed_win", "blessed_loss"):
            r[key] += s.get("rule", {}).get(key, 0)
        best = longest.get(layer(name))
        if best is None or s["max_win_distance"] > best[0]:
            longest[layer(name)] = (s["max_win_distance"], s.get("longest_win_position"))
        if name in costs:
            seconds, cpu, peak = costs[name]
            r["seconds"] += seconds
            r["cpu"] += cpu
            r["peak"] = max(r["peak"], peak)
    print("\n| cows in hand | positions | canonical | win % | draw % | loss % | cursed wins |"
          " blessed losses | longest win | seconds | CPU s | peak RSS |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|")
    for k in sorted(rows):
        r = rows[k]
        far, where = longest[k]
        far = f"{far} (`{where}`)" if where else "-"
        cost = (f"{r['seconds']:,.0f} | {r['cpu']:,.0f} | {num(r['peak'])} MiB" if r["seconds"]
                else "- | - | -")
        print(f"| {k} | {num(r['positions'])} | {num(r['canonical_positions'])} |"
              f" {pct(r['win'], r['positions'])} | {pct(r['draw'], r['positions'])} |"
              f" {pct(r['loss'], r['positions'])} | {num(r['cursed_win'])} |"
              f" {num(r['blessed_loss'])} | {far} | {cost} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("morabaraba")
    parser.add_argument("db")
    parser.add_argument("--log", action="append", default=[], help="a solve log of the folder")
    args = parser.parse_args()
    info = json.loads(run_json(args.morabaraba, "info", "--db", args.db, "--json"))
    starts(args.morabaraba, args.db, info["herd"])
    layers(info, unit_costs(args.log))


if __name__ == "__main__":
    main()
