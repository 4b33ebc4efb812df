"""The endpoints the explorer reads (ctest explorer_api), against the command line on the
probe_db fixture's databases: /api/v1/mainline (every ply's values equal `probe --json` of the
position it reaches, its moves `probe --json --line [--pure]`), /api/v1/stats (`info --json`),
pure=1, /api/v1/position (`show`'s Sanmill FEN), the moves' flags and game_over, and the
page with /api/v1/info inlined.

    explorer_api_test.py MORABARABA DB_ROOT
"""

import json
import os
import random
import re
import subprocess
import sys
import unittest
import urllib.error
import urllib.parse
import urllib.request

TOOL, DB_ROOT = sys.argv[1], sys.argv[2]
HOUSE = [os.path.join(DB_ROOT, f) for f in ("herd3-morabaraba", "morabaraba-8")]
KOTI = os.path.join(DB_ROOT, "herd3-koti")
MSSA = os.path.join(DB_ROOT, "mssa-1")
# The position of issue 25: the loss in 6 under the pure metric (a4-b2xf6) is not the best
# move under the rules (a1-a7, 1 ply to the next mill against 2).
ISSUE_25 = ".B....WW/..BB..../...BB.W. w 0 0 0"
MSSA_BAR = "W.WB..../WWW...../....B.B. w 0 0 0 bar:w:a7-d7-g7"


def run(*args, stdin=None):
    return subprocess.run([TOOL, *args], input=stdin, capture_output=True, text=True).stdout


def cli(folders, positions, *flags):
    """`probe --json` of every position, one answer each."""
    db = [a for f in folders for a in ("--db", f)]
    out = run("probe", "--json", *flags, *db, stdin="\n".join(positions) + "\n")
    return [json.loads(line) for line in out.splitlines()]


def values(answer):
    return {k: answer.get(k) for k in ("value", "distance", "rule_value", "plies_to_mill")
            if k in answer}


def random_positions(rng, n):
    """Moving positions of 3 cows a side, each side to move, counts near and far the limit."""
    out = []
    while len(out) < n:
        board = ["."] * 24
        for i, p in enumerate(rng.sample(range(24), 6)):
            board[p] = "WB"[i % 2]
        rings = "/".join("".join(board[8 * r:8 * r + 8]) for r in range(3))
        out.append(f"{rings} {rng.choice('wb')} 0 0 {rng.choice([0, 40, 58])}")
    return out


class Api(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        args = [TOOL, "serve", "--port", "0", "--quiet"]
        for f in HOUSE + [KOTI, MSSA]:
            args += ["--db", f]
        cls.server = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
        cls.origin = re.match(r"listening on (http://[0-9.:]+)/",
                              cls.server.stdout.readline()).group(1)

    @classmethod
    def tearDownClass(cls):
        cls.server.terminate()
        cls.server.wait(timeout=10)

    def get(self, path, **params):
        """(status, JSON body) of a GET."""
        try:
            with urllib.request.urlopen(f"{self.origin}{path}?{urllib.parse.urlencode(params)}") as r:
                return r.status, json.load(r)
        except urllib.error.HTTPError as e:
            return e.code, json.load(e)

    def test_mainline_values_after_every_ply(self):
        positions = random_positions(random.Random(27), 20) + [ISSUE_25]
        answers = cli(HOUSE, positions)
        positions = [p for p, a in zip(positions, answers) if "error" not in a]
        self.assertGreater(len(positions), 10)
        for pure, flags in ((0, ()), (1, ("--pure",))):
            lines = cli(HOUSE, positions, "--line", *flags)
            for position, line in zip(positions, lines):
                status, answer = self.get("/api/v1/mainline", position=position, pure=pure)
                self.assertEqual(status, 200, answer)
                self.assertEqual([p["move"] for p in answer["mainline"]], line["line"], position)
                reached = [p["position"] for p in answer["mainline"]]
                for ply, expected in zip(answer["mainline"], cli(HOUSE, reached)):
                    self.assertEqual(values(ply), values(expected), f"{position}: {ply}")
                if answer["mainline"] and not pure:
                    last = answer["mainline"][-1]
                    shown = run("show", "--rules", "morabaraba",
                                "--position", last["position"])
                    over = re.search(r"^game over: (.*)$", shown, re.M)
                    self.assertEqual(last["game_over"], over and over.group(1), last)
                    # The line says why it stops: the game is over, or a board repeats.
                    self.assertEqual(line["line_end"], last["game_over"] or "a repeated board",
                                     position)
        # The first ply of the line reaches the position the move list names for it.
        status, probe = self.get("/api/v1/probe", position=ISSUE_25)
        status, main = self.get("/api/v1/mainline", position=ISSUE_25)
        first = next(m for m in probe["moves"] if m["move"] == main["mainline"][0]["move"])
        self.assertEqual(first["position"], main["mainline"][0]["position"])

    def test_pure_line_differs_where_the_metrics_do(self):
        rule = self.get("/api/v1/line", position=ISSUE_25)[1]["line"]
        pure = self.get("/api/v1/line", position=ISSUE_25, pure=1)[1]["line"]
        self.assertEqual(rule, cli(HOUSE, [ISSUE_25], "--line")[0]["line"])
        self.assertEqual(pure, cli(HOUSE, [ISSUE_25], "--line", "--pure")[0]["line"])
        self.assertEqual(rule[0], "a1-a7")
        self.assertEqual(pure[0], "a4-b2xf6")
        self.assertEqual(self.get("/api/v1/line", position=ISSUE_25, pure="yes")[0], 400)

    def test_pure_move_order(self):
        expected = cli(HOUSE, [ISSUE_25], "--moves")[0]
        status, answer = self.get("/api/v1/probe", position=ISSUE_25, pure=1)
        self.assertEqual(status, 200, answer)
        self.assertEqual(answer["moves"][0]["move"], expected["best_move_pure"])
        self.assertEqual(answer["best_move"], expected["best_move"])
        # Best first by pure distance: a loss by the most plies.
        distances = [m["distance"] for m in answer["moves"]]
        self.assertEqual(distances, sorted(distances, reverse=True))

    def test_stats_equal_info_json(self):
        for folders, rules in ((HOUSE, "morabaraba"), ([MSSA], "mssa-1"), ([KOTI], "koti")):
            info = json.loads(run("info", "--json", *[a for f in folders for a in ("--db", f)]))
            status, stats = self.get("/api/v1/stats", rules=rules)
            self.assertEqual(status, 200, stats)
            self.assertEqual(stats, info)
            name = sorted(info["subspaces"])[0]
            status, one = self.get("/api/v1/stats", rules=rules, subspace=name)
            self.assertEqual(one["subspaces"], {name: info["subspaces"][name]})
        self.assertEqual(self.get("/api/v1/stats", subspace="9v3")[0], 404)
        self.assertEqual(self.get("/api/v1/stats", subspace="nonsense")[0], 400)
        self.assertEqual(self.get("/api/v1/stats", rules="malom")[0], 400)

    def test_info_says_which_rules_need_history(self):
        """The explorer shows the bar fields where the rules need history, as the server says."""
        status, info = self.get("/api/v1/info")
        self.assertEqual(status, 200, info)
        needs = {d["rules"]: d["needs_history"] for d in info["databases"]}
        self.assertEqual(needs, {"morabaraba": False, "mssa-1": True, "koti": False})

    def test_position_both_notations(self):
        shown = run("show", "--rules", "mssa-1", "--position", MSSA_BAR)
        fen = re.search(r"^sanmill \(herd \d+\): (.*)$", shown, re.M).group(1)
        status, both = self.get("/api/v1/position", position=MSSA_BAR, rules="mssa-1")
        self.assertEqual((status, both), (200, {"position": MSSA_BAR, "sanmill": fen, "herd": 12}))
        status, back = self.get("/api/v1/position", sanmill=fen, rules="mssa-1")
        self.assertEqual(back["sanmill"], fen)
        koti = "......../......../......../. w 3 3 0"
        self.assertEqual(self.get("/api/v1/position", position=koti, rules="koti"),
                         (200, {"position": koti, "sanmill": None, "herd": 3}))
        # Errors: the command line's messages.
        status, error = self.get("/api/v1/position", position="WWWW..../......../........ w 0 0 0")
        self.assertEqual(status, 400)
        shown = subprocess.run([TOOL, "show", "--position", "WWWW..../......../........ w 0 0 0"],
                               capture_output=True, text=True)
        self.assertIn(error["error"], shown.stderr)
        self.assertEqual(self.get("/api/v1/position")[0], 400)
        self.assertEqual(self.get("/api/v1/position", position=koti, sanmill=fen)[0], 400)

    def test_sanmill_move_number_follows_the_herd_named(self):
        """The FEN's move number counts from the herd each door names: the folder's (herd 3
        here, or the smallest that holds a larger position) or the one asked for, as `show
        --herd` takes it; what that herd cannot reach is refused at both doors in the same
        words."""
        placing = "W......./......../....B... w 2 2 0"
        for herd in (None, 3, 7, 12):
            shown = run("show", "--herd", str(herd or 3), "--position", placing)
            match = re.search(r"^sanmill \(herd (\d+)\): (.*)$", shown, re.M)
            params = {"position": placing} if herd is None else {"position": placing, "herd": herd}
            status, both = self.get("/api/v1/position", **params)
            self.assertEqual(status, 200, both)
            self.assertEqual((both["herd"], both["sanmill"]), (int(match.group(1)), match.group(2)))
            status, back = self.get("/api/v1/position", sanmill=both["sanmill"], herd=both["herd"])
            self.assertEqual((status, back["position"]), (200, placing))
        move_numbers = {herd: self.get("/api/v1/position", position=placing, herd=herd)[1]["sanmill"]
                        .split()[-1] for herd in (3, 12)}
        self.assertEqual(move_numbers, {3: "2", 12: "11"})
        # Count 1 with six in hand: herd 4 at least, which the folder's default follows.
        unreached = "......../......../........ w 3 3 1"
        status, error = self.get("/api/v1/position", position=unreached, herd=3)
        self.assertEqual(status, 400)
        shown = subprocess.run([TOOL, "show", "--herd", "3", "--position", unreached],
                               capture_output=True, text=True)
        self.assertIn(error["error"], shown.stderr)
        self.assertEqual(self.get("/api/v1/position", position=unreached)[1]["herd"], 4)
        self.assertEqual(self.get("/api/v1/position", position=unreached, herd=12)[0], 200)
        for bad in ("2", "13", "x"):
            self.assertEqual(self.get("/api/v1/position", position=placing, herd=bad)[0], 400)

    def test_flags_and_game_over(self):
        for position in random_positions(random.Random(5), 30):
            status, answer = self.get("/api/v1/probe", position=position)
            if status != 200:
                continue
            after = {m["move"]: m for m in answer["moves"]}
            reached = cli(HOUSE, [m["position"] for m in answer["moves"]], "--moves")
            for (move, m), r in zip(after.items(), reached):
                self.assertEqual("shoots" in m["flags"], bool(re.search(r"x[a-g]", move)), m)
                self.assertEqual("mill" in m["flags"], "x" in move, m)
                board, side = r["position"].split(" ")[:2]
                blocked = r["moves"] == [] and board.count(side.upper()) > 2
                self.assertEqual("blocks" in m["flags"], blocked, m)
                self.assertNotIn("pass", m["flags"])
        # A finished game: no moves, and why.
        status, over = self.get("/api/v1/probe", position="WWW...../......../B..B.... b 0 0 0")
        self.assertEqual((over["moves"], over["game_over"]),
                         ([], "Black is down to two cows and has lost"))
        status, limit = self.get("/api/v1/probe", position="W.W...../B......./B..B..W. w 0 0 60")
        self.assertEqual(limit["game_over"], "drawn: 60 plies without a mill")
        # The metric orders the moves, the rules end the game: none by either metric.
        self.assertEqual((limit["moves"], limit["best_move"], limit["best_move_pure"]),
                         ([], None, None))
        status, pure = self.get("/api/v1/probe", position="W.W...../B......./B..B..W. w 0 0 60",
                                pure="1")
        self.assertEqual((pure["moves"], pure["game_over"]),
                         ([], "drawn: 60 plies without a mill"))

    def test_page_without_scripts(self):
        """The page carries, in its <noscript> element, the position of its URL drawn by the
        server: the text probe's value and every move as a link to the position it leads to,
        in the command line's order; the start of the herd without a position; a bad position
        its error, escaped."""
        def noscript(query):
            with urllib.request.urlopen(f"{self.origin}/?{urllib.parse.urlencode(query)}") as r:
                page = r.read().decode()
            return re.search(r"<noscript>(.*?)</noscript>", page, re.S).group(1)
        answer = cli(HOUSE, [ISSUE_25], "--moves")[0]
        shown = noscript({"position": ISSUE_25, "rules": "morabaraba"})
        text = run("probe", *[a for f in HOUSE for a in ("--db", f)], ISSUE_25).splitlines()[0]
        value = text.split(": ", 1)[1].split("; best move")[0]
        self.assertIn(f"<p id=\"static-value\">White to move: {value}</p>", shown)
        links = re.findall(r'<li><a href="([^"]*)">([^<]*)</a>', shown)
        self.assertEqual([m for _, m in links], [m["move"] for m in answer["moves"]])
        for href, move in links:
            target = urllib.parse.parse_qs(urllib.parse.urlsplit(href.replace("&amp;", "&")).query)
            status, probe = self.get("/api/v1/probe", position=ISSUE_25)
            self.assertEqual(target["position"],
                             [next(m["position"] for m in probe["moves"] if m["move"] == move)])
            self.assertEqual(target["rules"], ["morabaraba"])
        self.assertIn("......../......../........ w 3 3 0", noscript({}))
        bad = noscript({"position": "<b>nonsense</b>"})
        self.assertIn("&lt;b&gt;nonsense&lt;/b&gt;", bad)
        self.assertNotIn("<b>", bad)

    def test_page_inlines_info(self):
        with urllib.request.urlopen(f"{self.origin}/") as r:
            page = r.read().decode()
        inlined = re.search(r'<script id="info" type="application/json">(.*?)</script>', page, re.S)
        self.assertEqual(json.loads(inlined.group(1)), self.get("/api/v1/info", )[1])
        with urllib.request.urlopen(f"{self.origin}/favicon.svg") as r:
            self.assertEqual(r.headers["Content-Type"], "image/svg+xml")
        self.assertIn('rel="icon" href="/favicon.svg"', page)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
