#!/usr/bin/env python3
"""Projects the wall time of a solve on N nodes from measured CPU seconds per unit.

Reads the CPU seconds of every unit from solver logs (the unit lines of `morabaraba solve`:
"[k/N] 8v7: P positions in W s ..., cpu C s, ...") or from markdown rows
"| 8v7 | positions | seconds | CPU s | ...". The last figure seen for a unit wins.
Simulates the MPI scheduler (tools/mpi_schedule.h): a unit starts once the units it reads are
finished, the largest ready unit first, one unit per node, on a node of C cores in
CPU s / (C * efficiency). The dependencies are those of solver/solve.cpp (exit subspaces and
placing successors), for rules with `--shots` shots for a double mill.

  scripts/cluster_projection.py --cores 32 --nodes 1 2 4 8 16 LOG_OR_MARKDOWN...

With --sizes (the output of `morabaraba subspaces`), the moving units that no log measured are
projected at --us-per-position CPU microseconds a position (--flying-us-per-position where a
side has three cows, which fly), and each unit's memory at --bytes-per-position.
"""
import argparse
import heapq
import re
import sys

LOG_LINE = re.compile(r"^\[\d+/\d+\] (\d+v\d+(?:\+\d+\+\d+)?): (\d+) positions in [\d.]+ s.*?cpu ([\d.]+) s")
TABLE_ROW = re.compile(r"^\| (\d+v\d+(?:\+\d+\+\d+)?) \| ([\d,]+) \| [\d.]+ \| ([\d.]+) \|")
MIN_COWS = 3


def parse(name):
    board, _, hands = name.partition("+")
    m, o = (int(x) for x in board.split("v"))
    h, k = (int(x) for x in hands.split("+")) if hands else (0, 0)
    return m, o, h, k


def unit_name(m, o, h, k):
    """The unit of subspace MvO+H+K: a moving one is named by its side with more cows."""
    return f"{max(m, o)}v{min(m, o)}" if h == 0 and k == 0 else f"{m}v{o}+{h}+{k}"


def dependencies(name, shots_per_double_mill):
    m, o, h, k = parse(name)
    deps = set()
    if h == 0 and k == 0:
        for a, b in {(m, o), (o, m)}:
            for shots in range(1, shots_per_double_mill + 1):
                if b - shots >= MIN_COWS:
                    deps.add(unit_name(b - shots, a, 0, 0))
        return deps
    for shots in range(0, shots_per_double_mill + 1):
        if shots > o or (shots > 0 and m + 1 < (3 if shots == 1 else 5)):
            continue
        child = (o - shots, m + 1, k, h - 1)
        if child[0] + child[2] < MIN_COWS:
            continue
        deps.add(unit_name(*child))
    return deps


def read_units(paths):
    units = {}
    for path in paths:
        with open(path) as f:
            for line in f:
                hit = LOG_LINE.match(line) or TABLE_ROW.match(line)
                if hit:
                    units[hit.group(1)] = (int(hit.group(2).replace(",", "")), float(hit.group(3)))
    return units


SIZE_LINE = re.compile(r"^(\d+)v(\d+)\s+\d+\s+(\d+)$")


def read_sizes(path):
    """Canonical positions of every moving unit, from the lines of `morabaraba subspaces`."""
    units = {}
    with open(path) as f:
        for line in f:
            hit = SIZE_LINE.match(line.strip())
            if hit:
                name = unit_name(int(hit.group(1)), int(hit.group(2)), 0, 0)
                units[name] = units.get(name, 0) + int(hit.group(3))
    return units


def simulate(units, deps, nodes, cores, efficiency):
    seconds = {u: cpu / (cores * efficiency) for u, (_, cpu) in units.items()}
    waiting = {u: {d for d in deps[u] if d in units} for u in units}
    readers = {u: [] for u in units}
    for u, ds in waiting.items():
        for d in ds:
            readers[d].append(u)
    ready = [(-units[u][0], u) for u, ds in waiting.items() if not ds]
    heapq.heapify(ready)
    running, now, idle = [], 0.0, nodes
    while ready or running:
        while ready and idle:
            _, u = heapq.heappop(ready)
            heapq.heappush(running, (now + seconds[u], u))
            idle -= 1
        now, done = heapq.heappop(running)
        idle += 1
        for r in readers[done]:
            waiting[r].discard(done)
            if not waiting[r]:
                heapq.heappush(ready, (-units[r][0], r))
    return now


def critical_path(units, deps, cores, efficiency):
    memo = {}

    def longest(u):
        if u not in memo:
            memo[u] = units[u][1] / (cores * efficiency) + max(
                (longest(d) for d in deps[u] if d in units), default=0.0)
        return memo[u]

    return max(longest(u) for u in units)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("sources", nargs="+", help="solver logs or markdown tables")
    p.add_argument("--cores", type=int, default=32, help="cores a node (default 32)")
    p.add_argument("--efficiency", type=float, default=1.0,
                   help="fraction of a node's cores kept busy (default 1: linear scaling)")
    p.add_argument("--nodes", type=int, nargs="+", default=[1, 2, 4, 8, 16])
    p.add_argument("--shots", type=int, default=2, help="shots for a double mill (default 2)")
    p.add_argument("--only", choices=["moving", "placing"], help="only the units of one phase")
    p.add_argument("--sizes", help="`morabaraba subspaces` output: project the units not measured")
    p.add_argument("--us-per-position", type=float, default=1.2,
                   help="CPU microseconds a position of a projected unit (default 1.2)")
    p.add_argument("--flying-us-per-position", type=float, default=1.9,
                   help="the same where a side has three cows (default 1.9)")
    p.add_argument("--bytes-per-position", type=float, default=8.5,
                   help="memory of a projected unit at its peak (default 8.5)")
    args = p.parse_args()
    units = read_units(args.sources)
    if args.sizes:
        projected = {}
        for name, n in read_sizes(args.sizes).items():
            if name in units:
                continue
            flying = min(parse(name)[:2]) == 3
            rate = args.flying_us_per_position if flying else args.us_per_position
            units[name] = projected[name] = (n, n * rate * 1e-6)
        print(f"{len(projected)} units projected; the largest, by memory at "
              f"{args.bytes_per_position} bytes a position:")
        print("| unit | canonical positions | projected CPU s | memory |\n|---|---:|---:|---:|")
        for name, (n, cpu) in sorted(projected.items(), key=lambda u: -u[1][0])[:16]:
            print(f"| {name} | {n:,} | {cpu:,.0f} | {n * args.bytes_per_position / 2**30:.1f} GiB |")
    if args.only:
        units = {u: v for u, v in units.items() if ("+" in u) == (args.only == "placing")}
    if not units:
        sys.exit("no unit lines found")
    deps = {u: dependencies(u, args.shots) for u in units}
    cpu = sum(c for _, c in units.values())
    positions = sum(n for n, _ in units.values())
    print(f"{len(units)} units, {positions:,} positions, {cpu:,.0f} CPU s "
          f"({positions / cpu / 1e6:.2f} M positions a CPU second)")
    print(f"critical path on {args.cores}-core nodes: "
          f"{critical_path(units, deps, args.cores, args.efficiency) / 3600:.2f} h")
    print("| nodes | wall time | speedup |\n|---:|---:|---:|")
    one = simulate(units, deps, 1, args.cores, args.efficiency)
    for n in args.nodes:
        t = simulate(units, deps, n, args.cores, args.efficiency)
        print(f"| {n} | {t / 3600:.2f} h | {one / t:.2f} |")


if __name__ == "__main__":
    main()
