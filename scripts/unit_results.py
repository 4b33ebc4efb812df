#!/usr/bin/env python3
"""Renders docs/RESULTS.md's per-unit table of a run from the unit lines of its solve log.

    python3 scripts/unit_results.py SOLVE_LOG [SOLVE_LOG ...]

A unit line is what `morabaraba solve` prints as each unit ends (solver/solve.cpp, describe()):
its positions, seconds of wall time, CPU seconds, peak resident memory, table size and the
seconds spent writing. A unit that resumed from its checkpoint counts only the time since the
restart (marked "resumed"); a unit solved twice (in two logs) counts its last line. Units
"finished before" a restart have no line of their own in the later log.
"""

import re
import sys

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


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rows = units(sys.argv[1:])
    barred = any(BARRED.search(m["rest"]) for m in rows)
    print("| unit | positions |" + (" barred nodes |" if barred else "") +
          " seconds | CPU s | CPU µs a position | peak RSS | bytes a position at the peak |"
          " tables | writing s |")
    print("|---|---:|" + ("---:|" if barred else "") + "---:|---:|---:|---:|---:|---:|---:|")
    total_positions = total_seconds = total_cpu = 0
    peak = 0
    for m in rows:
        n, seconds, cpu, rss = int(m["positions"]), float(m["seconds"]), float(m["cpu"]), int(m["rss"])
        total_positions += n
        total_seconds += seconds
        total_cpu += cpu
        peak = max(peak, rss)
        nodes = BARRED.search(m["rest"])
        note = " (resumed)" if "resumed from its checkpoint" in m["rest"] else ""
        print(f"| {m['unit']}{note} | {n:,} |" + (f" {int(nodes[1]):,} |" if nodes else " 0 |" if barred else "") +
              f" {seconds:.0f} | {cpu:.0f} | {cpu / n * 1e6:.2f} | {rss:,} MiB |"
              f" {rss * 2**20 / n:.1f} | {m['tables']} MiB | {float(m['writing']):.1f} |")
    print(f"| all {len(rows)} | {total_positions:,} |" + (" |" if barred else "") +
          f" {total_seconds:.0f} | {total_cpu:.0f} |"
          f" {total_cpu / max(total_positions, 1) * 1e6:.2f} | {peak:,} MiB (largest) | | | |")


if __name__ == "__main__":
    main()
