"""Probes positions through the Python package and compares with `morabaraba probe --json`.

Run by ctest with MORABARABA_LIBRARY (libmorabaraba.so), MORABARABA_TOOL (the morabaraba
executable) and MORABARABA_TEST_DB (a folder of solved databases, one per rule set) set.
"""

import json
import os
import random
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import morabaraba  # noqa: E402

TOOL = os.environ["MORABARABA_TOOL"]
DB_ROOT = os.environ["MORABARABA_TEST_DB"]


def random_positions(rng, count, cows=(3, 3)):
    """Position strings of the moving phase with the given cows a side, any side to move."""
    out = []
    for _ in range(count):
        board = ["."] * 24
        points = rng.sample(range(24), cows[0] + cows[1])
        for p in points[:cows[0]]:
            board[p] = "W"
        for p in points[cows[0]:]:
            board[p] = "B"
        rings = "/".join("".join(board[8 * r:8 * r + 8]) for r in range(3))
        out.append(f"{rings} {rng.choice('wb')} 0 0 {rng.choice([0, 0, 1, 30, 55, 59, 60])}")
    return out


def cli(folder, positions):
    run = subprocess.run([TOOL, "probe", "--db", folder, "--json", "--moves", "--line"],
                         input="\n".join(positions) + "\n", capture_output=True, text=True)
    return [json.loads(line) for line in run.stdout.splitlines()]


def as_json(result):
    """A Result in the shape of the CLI's JSON."""
    j = {"value": result.value, "distance": result.distance}
    if result.rule_value is not None:
        j["rule_value"] = result.rule_value
        j["plies_to_mill"] = result.plies_to_mill
    return j


class ProbeTest(unittest.TestCase):
    def compare(self, rules):
        folder = os.path.join(DB_ROOT, rules)
        positions = random_positions(random.Random(5), 60)
        expected = cli(folder, positions)
        self.assertEqual(len(expected), len(positions))
        with morabaraba.Database([folder]) as db:
            self.assertEqual(db.rules, rules)
            for pos, want in zip(positions, expected):
                with self.subTest(position=pos):
                    got = as_json(db.probe(pos))
                    self.assertEqual(got, {k: want[k] for k in got})
                    self.assertEqual(db.probe_wdl(pos), want["value"])
                    self.assertEqual(db.best_move(pos), want["best_move"])
                    self.assertEqual(db.best_line(pos), want["line"])
                    moves = [dict(as_json(r), move=m) for m, r in db.moves(pos)]
                    self.assertEqual(moves, want["moves"])

    def test_morabaraba(self):
        self.compare("morabaraba")

    def test_malom(self):
        self.compare("malom")

    def test_without_block_cache(self):
        folder = os.path.join(DB_ROOT, "morabaraba")
        positions = random_positions(random.Random(7), 20)
        with morabaraba.Database([folder]) as cached, \
                morabaraba.Database([folder], cache_bytes=0) as uncached:
            for pos in positions:
                self.assertEqual(as_json(cached.probe(pos)), as_json(uncached.probe(pos)))

    def test_errors(self):
        with morabaraba.Database([os.path.join(DB_ROOT, "morabaraba")]) as db:
            for bad in ["", "nonsense", "WWW...../.B....B./.....B.. x 0 0 0",
                        "WWWW..../.B....B./.....B.. w 0 0 0",  # 4v3: not in the database
                        "WWW...../.B....B./.....B.. w 1 0 0"]:  # placing
                with self.subTest(position=bad), self.assertRaises(morabaraba.MorabarabaError):
                    db.probe(bad)
        with self.assertRaises(morabaraba.MorabarabaError) as e:
            morabaraba.Database(["/nonexistent/folder"])
        self.assertIn("/nonexistent/folder", str(e.exception))
        morabaraba.check([os.path.join(DB_ROOT, "malom")])
        self.assertRegex(morabaraba.version(), r"^\d+\.\d+\.\d+$")


if __name__ == "__main__":
    unittest.main()
