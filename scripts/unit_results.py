#!/usr/bin/env python3
"""Renders docs/RESULTS.md's per-unit table of a run from the unit lines of its solve log.

    python3 scripts/unit_results.py [--json] SOLVE_LOG [SOLVE_LOG ...]
    python3 scripts/unit_results.py --data docs/data/FILE.json

A unit line is what `morabaraba solve` prints as each unit ends (solver/solve.cpp, describe()):
its positions, seconds of wall time, CPU seconds, peak resident memory, table size and the
seconds spent writing. A unit that resumed from its checkpoint counts only the time since the
restart (marked "resumed"); a unit solved twice (in two logs) counts its last line. Units
"finished before" a restart have no line of their own in the later log. --json prints the rows
(`units`, `units_total`) as a data file of docs/data holds them (scripts/results_data.py);
--data renders such a file's rows.
"""

import re
import sys

import results_data

UNIT = re.compile(
    r"^\[\d+/\d+\] (?P<unit>\S+): (?P<positions>\d+) positions in (?P<seconds>[\d.e+-]+) s"
    r" \(.*?\), cpu (?P<cpu>[\d.e+-]+) s, peak RSS (?P<rss>\d+) MiB, tables (?P<tables>\d+) MiB"
    r".*?writing (?P<writing>[\d.e+-]+) s\)(?P<rest>.*)$")
BARRED = re.compile(r"barred nodes (\d+)")


def units(paths):
    found = {}
    for path in paths:
        with open(path, errors="replace") as log:
            for line in log:
                m = UNIT.match(line.rstrip("\n"))
                if m:
                    found[m["unit"]] = m
    return list(found.values())


def unit_data(matches):
    """The rows of the unit lines, with their total."""
    rows = []
    for m in matches:
        n, cpu, rss = int(m["positions"]), float(m["cpu"]), int(m["rss"])
        row = {"unit": m["unit"], "positions": n}
        nodes = BARRED.search(m["rest"])
        if nodes:
            row["barred_nodes"] = int(nodes[1])
        if "resumed from its checkpoint" in m["rest"]:
            row["resumed"] = True
        row.update({"seconds": float(m["seconds"]), "cpu_seconds": cpu,
                    "cpu_us_per_position": round(cpu / n * 1e6, 2), "peak_rss_mib": rss,
                    "bytes_per_position_at_peak": round(rss * 2**20 / n, 1),
                    "tables_mib": int(m["tables"]), "writing_seconds": float(m["writing"])})
        rows.append(row)
    positions = sum(r["positions"] for r in rows)
    cpu = sum(r["cpu_seconds"] for r in rows)
    total = {"units": len(rows), "positions": positions}
    if any("barred_nodes" in r for r in rows):
        total["barred_nodes"] = sum(r.get("barred_nodes", 0) for r in rows)
    total.update({"seconds": round(sum(r["seconds"] for r in rows), 6), "cpu_seconds": round(cpu, 6),
                  "cpu_us_per_position": round(cpu / max(positions, 1) * 1e6, 2),
                  "peak_rss_mib": max((r["peak_rss_mib"] for r in rows), default=0)})
    return {"units": rows, "units_total": total}


def main():
    args = sys.argv[1:]
    as_json = "--json" in args
    args = [a for a in args if a != "--json"]
    if len(args) == 2 and args[0] == "--data":
        data = results_data.load(args[1])
    elif args and not args[0].startswith("--"):
        data = unit_data(units(args))
    else:
        sys.exit(__doc__)
    if as_json:
        sys.stdout.write(results_data.dumps(data))
    else:
        print("\n".join(results_data.render_unit_table(data)))


if __name__ == "__main__":
    main()
