#!/usr/bin/env python3
"""The data files of docs/RESULTS.md (docs/data/*.json): read, write, render and check them.

    python3 scripts/results_data.py render FILE     # every table of one data file, in Markdown
    python3 scripts/results_data.py summary DIR     # the summary tables docs/RESULTS.md holds
    python3 scripts/results_data.py check DIR PAGE  # PAGE holds the summary, and the rows add up
    python3 scripts/results_data.py merge OUT PART...  # a run's data file from the scripts' --json

A data file is one run's JSON object (docs/data/README.md): `runs` (command, commit, machine,
times, peak memory), `subspaces` (one row a subspace: the pure part, the rule part and, with
`against`, the positions whose value differs from another preset's), `units` (one row a unit,
from the solve's log) with `units_total`, or `layers` and `starts` for a whole game. The
scripts that read a folder write these rows (`moving_results.py --json`, `unit_results.py
--json`, `whole_game_results.py --json`) and render them (`--data FILE`); this module holds what
they share.
"""

import glob
import json
import os
import sys

CHANGES = ("w_d", "w_l", "d_w", "d_l", "l_w", "l_d")
CHANGE_NAMES = ("W>D", "W>L", "D>W", "D>L", "L>W", "L>D")


def num(n):
    return f"{n:,}"


def pct(part, whole):
    return f"{100.0 * part / whole:.2f}" if whole else "0"


def order(name):
    mover, other = (int(n) for n in name.split("v"))
    return (mover + other, -mover)


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def dumps(data):
    """JSON with one row a line: a list of objects is written an object a line, the rest as is."""
    def value(v, indent):
        if isinstance(v, list) and v and all(isinstance(r, dict) for r in v):
            inner = ",\n".join(" " * (indent + 2) + json.dumps(r, ensure_ascii=False) for r in v)
            return "[\n" + inner + "\n" + " " * indent + "]"
        if isinstance(v, dict) and any(isinstance(x, (list, dict)) for x in v.values()):
            items = ",\n".join(" " * (indent + 2) + json.dumps(k) + ": " + value(x, indent + 2)
                               for k, x in v.items())
            return "{\n" + items + "\n" + " " * indent + "}"
        return json.dumps(v, ensure_ascii=False)
    return value(data, 0) + "\n"


# --- moving phase: one row a subspace -------------------------------------------------------

def subspace_rows(info, compare=None):
    """The rows of `info --json`'s moving subspaces (and `compare --json`'s differences)."""
    moving = {name: s for name, s in info["subspaces"].items() if s["phase"] == "moving"}
    rows = []
    for name in sorted(moving, key=order):
        s = moving[name]
        row = {"subspace": name, "positions": s["positions"], "canonical": s["canonical_positions"],
               "win": s["win"], "draw": s["draw"], "loss": s["loss"],
               "longest_win": s["max_win_distance"], "longest_loss": s["max_loss_distance"],
               "bits_per_position": round(s["bits_per_position"], 6), "table_bytes": s["file_bytes"],
               "longest_win_position": s.get("longest_win_position"),
               "longest_loss_position": s.get("longest_loss_position")}
        r = s.get("rule")
        if r is not None:
            row.update({"rule_win": r["win"], "rule_cursed_win": r["cursed_win"],
                        "rule_draw": r["draw"], "rule_blessed_loss": r["blessed_loss"],
                        "rule_loss": r["loss"],
                        "longest_plies_to_mill": max((int(k) for k in r.get("plies_to_mill_histogram", {})),
                                                     default=0)})
        if compare is not None and name in compare["subspaces"]:
            d = compare["subspaces"][name]
            row["differ_pure"] = d["pure_differing"]
            for key, change in zip(CHANGES, ("win-draw", "win-loss", "draw-win", "draw-loss",
                                              "loss-win", "loss-draw")):
                row[key] = d["pure"][change]
            row["differ_rule"] = d.get("rule_differing", 0)
            row["differ_example"] = d["pure_example"] or None
            row["compared_positions"] = d["positions"]
        rows.append(row)
    return rows


def moving_data(info, compare=None):
    """A data file's part from `info --json` (and `compare --json`)."""
    rows = subspace_rows(info, compare)
    data = {"rules": info.get("rules"), "table_bytes": sum(r["table_bytes"] for r in rows)}
    for kind in ("win", "loss"):
        best = max(rows, key=lambda r: (r[f"longest_{kind}"], -order(r["subspace"])[0]))
        data[f"longest_{kind}"] = {"plies": best[f"longest_{kind}"], "subspace": best["subspace"],
                                   "position": best[f"longest_{kind}_position"]}
    if compare is not None:
        data["against"] = {"rules": compare["b"]["rules"]}
    data["subspaces"] = rows
    return data


def totals(rows):
    keys = ("positions", "canonical", "win", "draw", "loss", "rule_win", "rule_cursed_win",
            "rule_draw", "rule_blessed_loss", "rule_loss")
    return {k: sum(r.get(k) or 0 for r in rows) for k in keys}


def has_rule(rows):
    return any("rule_win" in r for r in rows)


def render_pure(rows):
    out = ["| subspace | positions | canonical | win | draw | loss | win % | draw % | loss % |"
           " longest win | longest loss | bits/pos |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        out.append(f"| {r['subspace']} | {num(r['positions'])} | {num(r['canonical'])} |"
                   f" {num(r['win'])} | {num(r['draw'])} | {num(r['loss'])} |"
                   f" {pct(r['win'], r['positions'])} | {pct(r['draw'], r['positions'])} |"
                   f" {pct(r['loss'], r['positions'])} | {r['longest_win']} |"
                   f" {r['longest_loss']} | {r['bits_per_position']:.2f} |")
    return out


def render_rule(rows):
    out = ["| subspace | win | cursed win | draw | blessed loss | loss |"
           " longest plies to the next mill |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        out.append(f"| {r['subspace']} | {num(r['rule_win'])} | {num(r['rule_cursed_win'])} |"
                   f" {num(r['rule_draw'])} | {num(r['rule_blessed_loss'])} | {num(r['rule_loss'])} |"
                   f" {r['longest_plies_to_mill']} |")
    return out


def render_parts(rows):
    """The pure and rule rows of the win/draw/loss table over all of `rows`."""
    t = totals(rows)
    n = t["positions"]
    out = ["| part | win | draw | loss |", "|---|---:|---:|---:|",
           f"| pure | {num(t['win'])} ({pct(t['win'], n)} %) | {num(t['draw'])} ({pct(t['draw'], n)} %) |"
           f" {num(t['loss'])} ({pct(t['loss'], n)} %) |"]
    if has_rule(rows):
        drawn = t["rule_draw"] + t["rule_cursed_win"] + t["rule_blessed_loss"]
        out.append(f"| rule | {num(t['rule_win'])} ({pct(t['rule_win'], n)} %) | {num(drawn)}"
                   f" ({pct(drawn, n)} %: cursed wins {num(t['rule_cursed_win'])}, blessed losses"
                   f" {num(t['rule_blessed_loss'])}) | {num(t['rule_loss'])} ({pct(t['rule_loss'], n)} %) |")
    return out


def render_longest(data, kind):
    best = data[f"longest_{kind}"]
    return f"Longest {kind}: {best['plies']} plies, in {best['subspace']}: `{best['position']}`"


def compared(rows):
    return [r for r in rows if "differ_pure" in r]


def against_total(rows):
    rows = compared(rows)
    t = {k: sum(r[k] for r in rows) for k in ("differ_pure", "differ_rule") + CHANGES}
    t["positions"] = sum(r.get("compared_positions", r["positions"]) for r in rows)
    t["subspaces"] = len(rows)
    return t


def render_against(data):
    rows = data["subspaces"]
    a, b = data.get("rules"), data["against"]["rules"]
    out = ["", f"Against `{b}` (`morabaraba compare`; W>D: a win under `{a}`, a draw under `{b}`;"
           " under the ply limit, outcomes, cursed wins and blessed losses counting as draws):", "",
           "| subspace | pure differ | % | W>D | W>L | D>W | D>L | L>W | L>D | rule differ | % |"
           " example (pure) |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in compared(rows):
        n = r.get("compared_positions", r["positions"])
        example = f"`{r['differ_example']}`" if r.get("differ_example") else ""
        out.append(f"| {r['subspace']} | {num(r['differ_pure'])} | {pct(r['differ_pure'], n)} |"
                   + "".join(f" {num(r[k])} |" for k in CHANGES)
                   + f" {num(r['differ_rule'])} | {pct(r['differ_rule'], n)} | {example} |")
    t = against_total(rows)
    out.append(f"| total | {num(t['differ_pure'])} | {pct(t['differ_pure'], t['positions'])} |"
               + "".join(f" {num(t[k])} |" for k in CHANGES)
               + f" {num(t['differ_rule'])} | {pct(t['differ_rule'], t['positions'])} | |")
    missing = [r["subspace"] for r in rows if "differ_pure" not in r]
    if missing:
        out += ["", f"Not in `{b}`'s folder: {', '.join(missing)}."]
    return out


def render_moving(data):
    """What moving_results.py prints: both parts per subspace, totals, longest, differences."""
    rows = data["subspaces"]
    out = ["Pure part (the game without the ply limit; distances in plies to the end):", ""]
    out += render_pure(rows)
    if has_rule(rows):
        out += ["", "Rule part (the preset's ply limit, at count 0; plies to the next mill):", ""]
        out += render_rule(rows)
    t = totals(rows)
    out += ["", f"Totals over {len(rows)} subspaces: {num(t['positions'])} positions"
            f" ({num(t['canonical'])} canonical), {num(data['table_bytes'])} bytes of tables.", ""]
    out += render_parts(rows)
    for kind in ("win", "loss"):
        out += ["", render_longest(data, kind)]
    if "against" in data:
        out += render_against(data)
    return out


# --- units: one row a unit of a solve -------------------------------------------------------

def render_units(rows, total):
    barred = any("barred_nodes" in r for r in rows)
    out = ["| unit | positions |" + (" barred nodes |" if barred else "") +
           " seconds | CPU s | CPU µs a position | peak RSS | bytes a position at the peak |"
           " tables | writing s |",
           "|---|---:|" + ("---:|" if barred else "") + "---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        note = " (resumed)" if r.get("resumed") else ""
        seconds = f"{r['seconds']:.0f}" + (f" ({r['seconds_note']})" if r.get("seconds_note") else "")
        out.append(f"| {r['unit']}{note} | {num(r['positions'])} |"
                   + (f" {num(r.get('barred_nodes', 0))} |" if barred else "")
                   + f" {seconds} | {r['cpu_seconds']:.0f} | {r['cpu_us_per_position']:.2f} |"
                   f" {num(r['peak_rss_mib'])} MiB | {r['bytes_per_position_at_peak']:.1f} |"
                   f" {r['tables_mib']} MiB | {r['writing_seconds']:.1f} |")
    if total:
        out.append(f"| all {total['units']} | {num(total['positions'])} |"
                   + ((f" {num(total['barred_nodes'])} |" if "barred_nodes" in total else " |")
                      if barred else "")
                   + f" {total['seconds']:.0f} | {total['cpu_seconds']:.0f} |"
                   f" {total['cpu_us_per_position']:.2f} | {num(total['peak_rss_mib'])} MiB (largest) | | | |")
    return out


STANDARD_UNIT = {"unit", "positions", "seconds", "cpu_seconds", "cpu_us_per_position",
                 "peak_rss_mib", "bytes_per_position_at_peak", "tables_mib", "writing_seconds"}


def render_rows(rows):
    """Any rows, a column a key (the tables of no script of their own)."""
    keys = []
    for r in rows:
        keys += [k for k in r if k not in keys]
    def cell(v):
        if v is None:
            return "—"
        if isinstance(v, bool):
            return "yes" if v else ""
        if isinstance(v, int):
            return num(v)
        return str(v)
    out = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    out += ["| " + " | ".join(cell(r.get(k)) for k in keys) + " |" for r in rows]
    return out


def render_unit_table(data):
    rows = data["units"]
    if all(STANDARD_UNIT <= set(r) for r in rows):
        return render_units(rows, data.get("units_total"))
    return render_rows(rows + ([dict(unit=f"all {data['units_total'].get('units', '')}",
                                     **{k: v for k, v in data["units_total"].items() if k != "units"})]
                               if data.get("units_total") else []))


# --- whole game: starts and layers ----------------------------------------------------------

def render_starts(starts):
    out = ["| herd | pure value | pure distance | under the rules | best first placement"
           " (rules) | best first placement (pure) |",
           "|---:|---|---:|---|---|---|"]
    for s in starts:
        distance = s["distance"] if s["distance"] is not None else "-"
        out.append(f"| {s['herd']} | {s['value']} | {distance} | {s['rule_value']} |"
                   f" {s['best_move']} | {s['best_move_pure']} |")
    return out


def render_layers(layers):
    out = ["| cows in hand | positions | canonical | win % | draw % | loss % | cursed wins |"
           " blessed losses | longest win | seconds | CPU s | peak RSS |",
           "|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|"]
    for r in layers:
        far = (f"{r['longest_win']} (`{r['longest_win_position']}`)"
               if r.get("longest_win_position") else "-")
        cost = (f"{r['seconds']:,.0f} | {r['cpu_seconds']:,.0f} | {num(r['peak_rss_mib'])} MiB"
                if r.get("seconds") is not None else "- | - | -")
        out.append(f"| {r['cows_in_hand']} | {num(r['positions'])} | {num(r['canonical'])} |"
                   f" {r['win_pct']:.2f} | {r['draw_pct']:.2f} | {r['loss_pct']:.2f} |"
                   f" {num(r['cursed_win'])} | {num(r['blessed_loss'])} | {far} | {cost} |")
    return out


# --- a whole data file ----------------------------------------------------------------------

def render(data):
    out = [f"# {data.get('title', '')}", ""]
    if data.get("runs"):
        out += render_runs([(data, r) for r in data["runs"]]) + [""]
    if "starts" in data:
        out += render_starts(data["starts"]) + [""]
    if "layers" in data:
        out += render_layers(data["layers"]) + [""]
    if "subspaces" in data:
        out += render_moving(data) + [""]
    if "units" in data:
        out += render_unit_table(data) + [""]
    for key, rows in data.items():
        if key not in ("runs", "starts", "layers", "subspaces", "units") and isinstance(rows, list) \
                and rows and all(isinstance(r, dict) for r in rows):
            out += [f"{key}:", ""] + render_rows(rows) + [""]
    return out


# --- the summary docs/RESULTS.md holds ------------------------------------------------------

def data_files(directory):
    """The data files of a folder, in their `order` (then by name)."""
    files = [(os.path.basename(p), load(p)) for p in glob.glob(os.path.join(directory, "*.json"))]
    return sorted(files, key=lambda f: (f[1].get("order", 1000), f[0]))


def duration(seconds):
    if seconds is None:
        return "—"
    h, rest = divmod(round(seconds), 3600)
    m, s = divmod(rest, 60)
    return f"{h} h {m} min {s} s" if h else f"{m} min {s} s" if m else f"{s} s"


def render_runs(pairs):
    out = ["| run | command | commit | machine | wall time | CPU s | peak RSS |",
           "|---|---|---|---|---:|---:|---:|"]
    for data, r in pairs:
        cpu = num(round(r["cpu_seconds"])) if r.get("cpu_seconds") is not None else "—"
        peak = (r["peak_text"] if r.get("peak_text") else
                f"{num(r['peak_rss_mib'])} MiB" if r.get("peak_rss_mib") is not None else "—")
        if r.get("peak_unit"):
            peak += f" ({r['peak_unit']})"
        out.append(f"| {r['what']} | `{r['command']}` | {r['commit']} | {r['machine']} |"
                   f" {duration(r.get('wall_seconds'))} | {cpu} | {peak} |")
    return out


def summary(directory):
    files = data_files(directory)
    moving = [(name, d) for name, d in files if "subspaces" in d]
    out = ["What is solved, positions weighted by their orbits (the side to move's view):", "",
           "| rules | board | subspaces | positions | pure: win / draw / loss % |"
           " under the rules: win / draw / loss % | cursed wins | blessed losses |",
           "|---|---|---:|---:|---|---|---:|---:|"]
    for name, d in moving:
        rows = d["subspaces"]
        t = totals(rows)
        n = t["positions"]
        pure = f"{pct(t['win'], n)} / {pct(t['draw'], n)} / {pct(t['loss'], n)}"
        if has_rule(rows):
            drawn = t["rule_draw"] + t["rule_cursed_win"] + t["rule_blessed_loss"]
            rule = f"{pct(t['rule_win'], n)} / {pct(drawn, n)} / {pct(t['rule_loss'], n)}"
            cursed, blessed = num(t["rule_cursed_win"]), num(t["rule_blessed_loss"])
        else:
            rule, cursed, blessed = "(no ply limit)", "-", "-"
        out.append(f"| `{d['rules']}` | {d['board']} | {len(rows)} ({d['extent']}) | {num(n)} |"
                   f" {pure} | {rule} | {cursed} | {blessed} |")
    out += ["", "The longest wins and losses (plies, with best play from both sides):", "",
            "| rules | board | longest win | position | longest loss | position |",
            "|---|---|---:|---|---:|---|"]
    for name, d in moving:
        w, l = d["longest_win"], d["longest_loss"]
        out.append(f"| `{d['rules']}` | {d['board']} ({d['extent']}) | {w['plies']} ({w['subspace']}) |"
                   f" `{w['position']}` | {l['plies']} ({l['subspace']}) | `{l['position']}` |")
    out += ["", "Against the house rules (`morabaraba compare`, over the subspaces both folders hold;"
            " W>D: a win under the preset, a draw under the house rules):", "",
            "| rules | subspaces | positions | pure value differs | W>D | W>L | D>W | D>L | L>W | L>D |"
            " outcome under the limits differs |",
            "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, d in moving:
        if "against" not in d:
            continue
        t = against_total(d["subspaces"])
        out.append(f"| `{d['rules']}` | {t['subspaces']} | {num(t['positions'])} |"
                   f" {num(t['differ_pure'])} ({pct(t['differ_pure'], t['positions'])} %) |"
                   + "".join(f" {num(t[k])} |" for k in CHANGES)
                   + f" {num(t['differ_rule'])} ({pct(t['differ_rule'], t['positions'])} %) |")
    games = [(name, d) for name, d in files if "herds" in d]
    for name, d in games:
        out += ["", "The start of the whole game, White to move (`......../......../........ w N N 0`;"
                " Koti: `......../......../......../. w N N 0`):", "",
                "| rules | herd | start, pure | start, under the rules | positions | tables | solve | peak RSS | commit |",
                "|---|---:|---|---|---:|---:|---:|---:|---|"]
        for r in d["herds"]:
            seconds = f"{num(r['seconds'])} s" if r.get("seconds") is not None else "—"
            out.append(f"| `{r['rules']}` | {r['herd']} | {r['start_pure']} | {r['start_rule']} |"
                       f" {num(r['positions'])} | {r['tables_mb']:,.1f} MB | {seconds} |"
                       f" {num(r['peak_rss_mib'])} MiB | {r['commit']} |")
    for name, d in files:
        if "starts" in d:
            out += ["", f"The best first placements, by each metric (docs/METRICS.md), of every herd the folder"
                    f" of herd {d['herd']} held:", ""] + render_starts(d["starts"])
    out += ["", "The runs (a line each; the rows of each are in its data file):", ""]
    out += render_runs([(d, r) for name, d in files for r in d.get("runs", [])])
    return out


# --- checks ---------------------------------------------------------------------------------

def problems(name, d):
    """What does not add up inside one data file."""
    bad = []
    for r in d.get("subspaces", []):
        s = r["subspace"]
        if r["win"] + r["draw"] + r["loss"] != r["positions"]:
            bad.append(f"{name}: {s}: win + draw + loss != positions")
        if "rule_win" in r and sum(r[k] for k in ("rule_win", "rule_cursed_win", "rule_draw",
                                                   "rule_blessed_loss", "rule_loss")) != r["positions"]:
            bad.append(f"{name}: {s}: the rule part does not add up to the positions")
        if "differ_pure" in r and sum(r[k] for k in CHANGES) != r["differ_pure"]:
            bad.append(f"{name}: {s}: the changes do not add up to the positions that differ")
    if d.get("extent") == "m + o <= 24" and len(d.get("subspaces", [])) != 100:
        bad.append(f"{name}: {len(d['subspaces'])} subspace rows, not 100")
    rows, total = d.get("units"), d.get("units_total")
    if rows and total:
        if len(rows) != total.get("units"):
            bad.append(f"{name}: {len(rows)} unit rows, units_total says {total.get('units')}")
        if sum(r["positions"] for r in rows) != total["positions"]:
            bad.append(f"{name}: the units' positions do not add up to units_total")
        if "subspaces" in d and total["positions"] != totals(d["subspaces"])["canonical"]:
            bad.append(f"{name}: the units' positions are not the subspaces' canonical positions")
    for r in d.get("layers", []):
        if abs(r["win_pct"] + r["draw_pct"] + r["loss_pct"] - 100) > 0.02:
            bad.append(f"{name}: layer {r['cows_in_hand']}: the percentages do not add up to 100")
    return bad


def check(directory, page):
    with open(page, encoding="utf-8") as f:
        lines = set(f.read().splitlines())
    bad = []
    for line in summary(directory):
        if line.startswith("|") and not line.startswith("|---") and line not in lines:
            bad.append(f"{page} lacks the line: {line}")
    for name, d in data_files(directory):
        bad += problems(name, d)
    return bad


def merge(out, parts):
    """OUT's keys updated with those of each PART (a run's data file from the scripts' --json)."""
    data = load(out) if os.path.exists(out) else {}
    for part in parts:
        data.update(load(part))
    with open(out + ".tmp", "w", encoding="utf-8") as f:
        f.write(dumps(data))
    os.replace(out + ".tmp", out)


def main():
    args = sys.argv[1:]
    if len(args) >= 3 and args[0] == "merge":
        merge(args[1], args[2:])
    elif len(args) == 2 and args[0] == "render":
        print("\n".join(render(load(args[1]))))
    elif len(args) == 2 and args[0] == "summary":
        print("\n".join(summary(args[1])))
    elif len(args) == 3 and args[0] == "check":
        bad = check(args[1], args[2])
        for b in bad:
            print(b, file=sys.stderr)
        if bad:
            sys.exit(1)
        print(f"{args[2]} agrees with {args[1]}")
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
