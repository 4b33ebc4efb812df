#!/usr/bin/env python3
"""Renders docs/RESULTS.md's tables of a moving-phase database from `morabaraba info --json`.

    morabaraba info --db DIR --json | python3 scripts/moving_results.py [--against FILE]

Prints, in Markdown: the pure part per subspace, the rule part per subspace, the totals and
the longest win and loss of the whole folder (with a position of each, for `probe --line`).
With --against, the output of `morabaraba compare --db DIR --with OTHER --json` (another
preset's folder of the same board): per subspace, the positions whose value differs.
Counts are positions weighted by their orbits (every position, not only canonical ones).
"""

import argparse
import json
import sys

CHANGES = ("win-draw", "win-loss", "draw-win", "draw-loss", "loss-win", "loss-draw")


def order(name):
    mover, other = (int(n) for n in name.split("v"))
    return (mover + other, -mover)


def num(n):
    return f"{n:,}"


def pct(part, whole):
    return f"{100.0 * part / whole:.2f}" if whole else "0"


def longest_ply_to_mill(rule):
    return max((int(k) for k in rule.get("plies_to_mill_histogram", {})), default=0)


def print_differences(compare, names):
    a, b = compare["a"]["rules"], compare["b"]["rules"]
    print(f"\nAgainst `{b}` (`morabaraba compare`; W>D: a win under `{a}`, a draw under `{b}`;"
          " under the ply limit, outcomes, cursed wins and blessed losses counting as draws):\n")
    print("| subspace | pure differ | % | W>D | W>L | D>W | D>L | L>W | L>D | rule differ | % |"
          " example (pure) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    totals = dict.fromkeys(("positions", "pure_differing", "rule_differing") + CHANGES, 0)
    for name in (n for n in names if n in compare["subspaces"]):
        d = compare["subspaces"][name]
        for key in ("positions", "pure_differing", "rule_differing"):
            totals[key] += d.get(key, 0)
        for key in CHANGES:
            totals[key] += d["pure"][key]
        example = f"`{d['pure_example']}`" if d["pure_example"] else ""
        print(f"| {name} | {num(d['pure_differing'])} | {pct(d['pure_differing'], d['positions'])} |"
              + "".join(f" {num(d['pure'][k])} |" for k in CHANGES)
              + f" {num(d.get('rule_differing', 0))} | {pct(d.get('rule_differing', 0), d['positions'])} |"
              f" {example} |")
    print(f"| total | {num(totals['pure_differing'])} |"
          f" {pct(totals['pure_differing'], totals['positions'])} |"
          + "".join(f" {num(totals[k])} |" for k in CHANGES)
          + f" {num(totals['rule_differing'])} | {pct(totals['rule_differing'], totals['positions'])} | |")
    missing = [n for n in names if n not in compare["subspaces"]]
    if missing:
        print(f"\nNot in `{b}`'s folder: {', '.join(missing)}.")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", help="`morabaraba compare --json` output to add")
    args = parser.parse_args()
    info = json.load(sys.stdin)
    moving = {name: s for name, s in info["subspaces"].items() if s["phase"] == "moving"}
    names = sorted(moving, key=order)

    print("Pure part (the game without the ply limit; distances in plies to the end):\n")
    print("| subspace | positions | canonical | win | draw | loss | win % | draw % | loss % |"
          " longest win | longest loss | bits/pos |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name in names:
        s = moving[name]
        print(f"| {name} | {num(s['positions'])} | {num(s['canonical_positions'])} |"
              f" {num(s['win'])} | {num(s['draw'])} | {num(s['loss'])} |"
              f" {pct(s['win'], s['positions'])} | {pct(s['draw'], s['positions'])} |"
              f" {pct(s['loss'], s['positions'])} | {s['max_win_distance']} |"
              f" {s['max_loss_distance']} | {s['bits_per_position']:.2f} |")

    print("\nRule part (the preset's ply limit, at count 0; plies to the next mill):\n")
    print("| subspace | win | cursed win | draw | blessed loss | loss |"
          " longest plies to the next mill |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name in names:
        r = moving[name]["rule"]
        print(f"| {name} | {num(r['win'])} | {num(r['cursed_win'])} | {num(r['draw'])} |"
              f" {num(r['blessed_loss'])} | {num(r['loss'])} | {longest_ply_to_mill(r)} |")

    total = {key: sum(moving[n][key] for n in names)
             for key in ("positions", "canonical_positions", "win", "draw", "loss", "file_bytes")}
    rule_total = {key: sum(moving[n]["rule"][key] for n in names)
                  for key in ("win", "cursed_win", "draw", "blessed_loss", "loss")}
    print(f"\nTotals over {len(names)} subspaces: {num(total['positions'])} positions"
          f" ({num(total['canonical_positions'])} canonical), {num(total['file_bytes'])} bytes"
          f" of tables.\n")
    print("| part | win | draw | loss |")
    print("|---|---:|---:|---:|")
    print(f"| pure | {num(total['win'])} ({pct(total['win'], total['positions'])} %) |"
          f" {num(total['draw'])} ({pct(total['draw'], total['positions'])} %) |"
          f" {num(total['loss'])} ({pct(total['loss'], total['positions'])} %) |")
    print(f"| rule | {num(rule_total['win'])} ({pct(rule_total['win'], total['positions'])} %) |"
          f" {num(rule_total['draw'] + rule_total['cursed_win'] + rule_total['blessed_loss'])}"
          f" ({pct(rule_total['draw'] + rule_total['cursed_win'] + rule_total['blessed_loss'], total['positions'])} %:"
          f" cursed wins {num(rule_total['cursed_win'])}, blessed losses"
          f" {num(rule_total['blessed_loss'])}) |"
          f" {num(rule_total['loss'])} ({pct(rule_total['loss'], total['positions'])} %) |")

    for kind in ("win", "loss"):
        best = max(names, key=lambda n: (moving[n][f"max_{kind}_distance"], -order(n)[0]))
        s = moving[best]
        print(f"\nLongest {kind}: {s[f'max_{kind}_distance']} plies, in {best}:"
              f" `{s[f'longest_{kind}_position']}`")

    if args.against:
        with open(args.against) as f:
            print_differences(json.load(f), names)


if __name__ == "__main__":
    main()
