#!/usr/bin/env python3
"""Renders docs/RESULTS.md's tables of a moving-phase database from `morabaraba info --json`.

    morabaraba info --db DIR --json | python3 scripts/moving_results.py [--against FILE] [--json]
    python3 scripts/moving_results.py --data docs/data/FILE.json

Prints, in Markdown: the pure part per subspace, the rule part per subspace (where the rules
have a ply limit), the totals and the longest win and loss of the whole folder (with a position
of each, for `probe --line`). With --against, the output of `morabaraba compare --db DIR --with
OTHER --json` (another preset's folder of the same board): per subspace, the positions whose
value differs. Counts are positions weighted by their orbits (every position, not only
canonical ones). --json prints the rows instead, as a data file of docs/data holds them
(scripts/results_data.py); --data renders such a file's rows.
"""

import argparse
import json
import sys

import results_data


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", help="`morabaraba compare --json` output to add")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")
    parser.add_argument("--data", help="render a data file (docs/data) instead of stdin")
    args = parser.parse_args()
    if args.data:
        data = results_data.load(args.data)
    else:
        compare = None
        if args.against:
            with open(args.against) as f:
                compare = json.load(f)
        data = results_data.moving_data(json.load(sys.stdin), compare)
    if args.json:
        sys.stdout.write(results_data.dumps(data))
    else:
        print("\n".join(results_data.render_moving(data)))


if __name__ == "__main__":
    main()
