#!/usr/bin/env python3
"""scripts/cluster_projection.py against figures worked out by hand: measured units from log
lines, the others projected from `morabaraba subspaces` at the rates given, and the wall time
on one node, which runs every unit one after the other.

    cluster_projection_test.py MORABARABA
"""
import re
import subprocess
import sys
import tempfile
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "cluster_projection.py"


def run(*args):
    return subprocess.run([sys.executable, str(SCRIPT), *args], check=True, text=True,
                          capture_output=True).stdout


def main():
    mora = sys.argv[1]
    sizes_text = subprocess.run([mora, "subspaces", "--rules", "koti"], check=True, text=True,
                                capture_output=True).stdout
    canonical = {}
    for line in sizes_text.splitlines():
        hit = re.match(r"^(\d+)v(\d+)\s+\d+\s+(\d+)$", line.strip())
        if hit:
            m, o, n = int(hit[1]), int(hit[2]), int(hit[3])
            unit = f"{max(m, o)}v{min(m, o)}"
            canonical[unit] = canonical.get(unit, 0) + n
    assert len(canonical) == 55, canonical
    with tempfile.TemporaryDirectory() as tmp:
        sizes = Path(tmp) / "sizes.txt"
        sizes.write_text(sizes_text)
        log = Path(tmp) / "solve.log"
        log.write_text(f"[1/2] 3v3: {canonical['3v3']} positions in 1 s (1 M/s), cpu 10 s, x\n"
                       f"[2/2] 4v3: {canonical['4v3']} positions in 2 s (1 M/s), cpu 20 s, x\n")
        out = run("--shots", "1", "--cores", "2", "--efficiency", "1", "--nodes", "1",
                  "--sizes", str(sizes), "--us-per-position", "2", "--flying-us-per-position", "3",
                  "--bytes-per-position", "8", str(log))
    projected = {u: n for u, n in canonical.items() if u not in ("3v3", "4v3")}
    cpu = {u: n * (3 if min(int(x) for x in u.split("v")) == 3 else 2) * 1e-6
           for u, n in projected.items()}
    total_cpu = 30 + sum(cpu.values())
    assert "53 units projected" in out, out
    # The largest projected unit comes first, with its CPU and memory.
    largest = max(projected, key=projected.get)
    row = (f"| {largest} | {projected[largest]:,} | {cpu[largest]:,.0f} |"
           f" {projected[largest] * 8 / 2**30:.1f} GiB |")
    assert row in out, (row, out)
    assert f"55 units, {sum(canonical.values()):,} positions, {total_cpu:,.0f} CPU s" in out, out
    # One node runs the units one after the other on its 2 cores.
    assert f"| 1 | {total_cpu / 2 / 3600:.2f} h | 1.00 |" in out, out
    print("cluster_projection: 4 checks passed")


if __name__ == "__main__":
    main()
