"""Probes positions through the Python package and compares with `morabaraba probe --json`.

Run under pytest by ctest (python_probe) with MORABARABA_LIBRARY (the build tree's
libmorabaraba.so), MORABARABA_TOOL (the morabaraba executable) and MORABARABA_TEST_DB (a folder
of solved databases, one per rule set) set; the package itself is imported from the source tree.
"""

import concurrent.futures
import json
import math
import os
import pathlib
import random
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
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


def random_placing_positions(rng, count, counted):
    """Position strings of the placing phase of herd 3 as games from its start reach them: White
    to move with as many cows in hand as Black, Black with one more, the others on the board; a
    count up to the plies played when the rules count placing plies (`counted`), else 0."""
    out = []
    for _ in range(count):
        white = rng.random() < 0.5
        black_in_hand = rng.randint(1, 3)
        white_in_hand = black_in_hand if white else black_in_hand - 1
        on_board = (3 - white_in_hand, 3 - black_in_hand)
        board = ["."] * 24
        points = rng.sample(range(24), sum(on_board))
        for p in points[:on_board[0]]:
            board[p] = "W"
        for p in points[on_board[0]:]:
            board[p] = "B"
        rings = "/".join("".join(board[8 * r:8 * r + 8]) for r in range(3))
        count_ = rng.randint(0, sum(on_board)) if counted else 0
        out.append(f"{rings} {'w' if white else 'b'} {white_in_hand} {black_in_hand} {count_}")
    return out


HERD3_START = "......../......../........ w 3 3 0"
KOTI_START = "......../......../......../. w 3 3 0"


def cli(folder, positions, pure=False):
    run = subprocess.run([TOOL, "probe", "--db", folder, "--json", "--moves", "--line"] +
                         (["--pure"] if pure else []),
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
    def compare(self, rules, folder_name=None, positions=None):
        """Every answer of the package equals the CLI's for the positions (by default random
        ones of the moving phase) in the fixture's folder of `rules` (or `folder_name`)."""
        folder = os.path.join(DB_ROOT, folder_name or rules)
        if positions is None:
            positions = random_positions(random.Random(5), 60)
        expected = cli(folder, positions)
        expected_pure = cli(folder, positions, pure=True)
        self.assertEqual(len(expected), len(positions))
        with morabaraba.Database([folder]) as db:
            self.assertEqual(db.rules, rules)
            for pos, want, want_pure in zip(positions, expected, expected_pure):
                with self.subTest(position=pos):
                    got = as_json(db.probe(pos))
                    self.assertEqual(got, {k: want[k] for k in got})
                    self.assertEqual(db.probe_wdl(pos), want["value"])
                    self.assertEqual(db.game_over(pos), want["game_over"])
                    self.assertEqual(db.best_move(pos), want["best_move"])
                    self.assertEqual(db.best_move(pos, pure=True), want["best_move_pure"])
                    self.assertEqual(db.best_line(pos), want["line"])
                    self.assertEqual(db.best_line(pos, pure=True), want_pure["line"])
                    self.assertEqual(db.best_line_end(pos), want["line_end"])
                    self.assertEqual(db.best_line_end(pos, pure=True), want_pure["line_end"])
                    moves = [dict(as_json(r), move=m) for m, r in db.moves(pos)]
                    self.assertEqual(moves, want["moves"])
                    moves = [dict(as_json(r), move=m) for m, r in db.moves(pos, pure=True)]
                    self.assertEqual(moves, want_pure["moves"])

    def test_morabaraba(self):
        self.compare("morabaraba")

    def test_malom(self):
        self.compare("malom")

    def test_placing_morabaraba(self):
        positions = random_placing_positions(random.Random(11), 60, counted=True)
        self.compare("morabaraba", "herd3-morabaraba", positions + [HERD3_START])

    def test_placing_msa_tournament(self):
        positions = random_placing_positions(random.Random(12), 60, counted=False)
        self.compare("msa-tournament", "herd3-msa-tournament", positions + [HERD3_START])

    def test_koti(self):
        """The Koti board's whole game of herd 3, its position strings with the centre."""
        positions = ["W......./......../......../. b 2 3 1", "W.W...../B.B...../B......./W b 0 0 0",
                     "..W...../B.B...../B...W.../W b 0 0 7"]
        self.compare("koti", "herd3-koti", positions + [KOTI_START])
        with morabaraba.Database([os.path.join(DB_ROOT, "herd3-koti")]) as db:
            self.assertEqual(db.probe(KOTI_START), morabaraba.Result("win", 5, "win", 5))
            self.assertEqual(db.best_move(KOTI_START), "d4")
            with self.assertRaisesRegex(morabaraba.PositionError, "24-point board"):
                db.probe(HERD3_START)
        with morabaraba.Database([os.path.join(DB_ROOT, "herd3-morabaraba")]) as db:
            with self.assertRaisesRegex(morabaraba.PositionError, "Koti board"):
                db.probe(KOTI_START)

    def test_house_003(self):
        """house-003 up to 8 cows on the board, with barred positions (derived at probe time):
        White's bar after d7-d6 (out of a mill into one), then with the bar active."""
        bar_set = "W.W.B.../WWW...../....B.B. b 0 0 0 bar:w:d6-d7"
        bar_active = "W.WB..../WWW...../....B.B. w 0 0 1 bar:w:d6-d7"
        positions = random_positions(random.Random(13), 30, (4, 4)) + [bar_set, bar_active]
        self.compare("house-003", positions=positions)
        with morabaraba.Database([os.path.join(DB_ROOT, "house-003")]) as db:
            lapsed = bar_active.replace(" bar:w:d6-d7", "")
            self.assertTrue(any(m.startswith("d6-d7") for m, _ in db.moves(lapsed)))
            self.assertFalse(any(m.startswith("d6-d7") for m, _ in db.moves(bar_active)))

    def test_mssa_1(self):
        """mssa-1 up to 8 cows on the board, its declined shots written with x-, and barred
        positions (stored in 5v3 and 3v5): White's bar after d7-d6 declined (out of a mill into
        one), then with the bar active."""
        mill_to_decline = "W.W...B./.W.....B/B....... w 0 0 0"
        bar_set = "W.W.B.../WWW...../....B.B. b 0 0 0 bar:w:a7-d7-g7"
        bar_active = "W.WB..../WWW...../....B.B. w 0 0 0 bar:w:a7-d7-g7"
        positions = random_positions(random.Random(14), 30, (4, 3)) + [
            mill_to_decline, bar_set, bar_active]
        self.compare("mssa-1", positions=positions)
        with morabaraba.Database([os.path.join(DB_ROOT, "mssa-1")]) as db:
            self.assertIn("d6-d7x-", [m for m, _ in db.moves(mill_to_decline)])
            lapsed = bar_active.replace(" bar:w:a7-d7-g7", "")
            self.assertTrue(any(m.startswith("d6-d7") for m, _ in db.moves(lapsed)))
            self.assertFalse(any(m.startswith("d6-d7") for m, _ in db.moves(bar_active)))

    def test_herd3_start(self):
        """The start of herd 3 as probe_test derives it by forward search, and its best line:
        as long as the distance, a placement each of the first six plies, a shot at the end."""
        with morabaraba.Database([os.path.join(DB_ROOT, "herd3-morabaraba")]) as db:
            self.assertEqual(db.herd, 3)
            start = db.probe(HERD3_START)
            self.assertEqual(start, morabaraba.Result("win", 9, "win", 9))
            self.assertEqual(db.probe_wdl(HERD3_START), "win")
            moves = db.moves(HERD3_START)
            self.assertEqual(len(moves), 24)
            self.assertEqual(moves[0][1], start)
            line = db.best_line(HERD3_START)
            self.assertEqual(len(line), start.distance)
            self.assertEqual(line[0], db.best_move(HERD3_START))
            self.assertTrue(all(len(m) == 2 for m in line[:6]), line)
            self.assertIn("x", line[-1])
        with morabaraba.Database([os.path.join(DB_ROOT, "herd3-msa-tournament")]) as db:
            self.assertEqual(db.herd, 3)
            self.assertEqual(db.probe(HERD3_START), morabaraba.Result("draw", None, "draw", None))
        with morabaraba.Database([os.path.join(DB_ROOT, "morabaraba")]) as db:
            self.assertEqual(db.herd, 0)

    def test_placing_errors(self):
        """Each placing position a database cannot answer raises, with a one-line message."""
        herd3 = os.path.join(DB_ROOT, "herd3-morabaraba")
        cases = [
            (herd3, "......../......../........ w 4 4 0", morabaraba.PositionError, "herd of 4"),
            (herd3, "W......./......../........ w 2 3 0", morabaraba.PositionError, "in hand"),
            (herd3, "WWWW..../BBB...../........ w 0 0 0", morabaraba.MissingTableError, "4v3"),
            (os.path.join(DB_ROOT, "morabaraba"), HERD3_START, morabaraba.PositionError,
             "moving phase only"),
            (os.path.join(DB_ROOT, "herd3-msa-tournament"), "......../......../........ w 3 3 1",
             morabaraba.PositionError, "count must be 0"),
        ]
        for folder, position, error, says in cases:
            with morabaraba.Database([folder]) as db:
                for call in (db.probe, db.probe_wdl, db.moves, db.best_move, db.best_line):
                    with self.subTest(position=position, call=call.__name__), \
                            self.assertRaises(error) as e:
                        call(position)
                    self.assertIsInstance(e.exception, morabaraba.MorabarabaError)
                    self.assertIn(says, str(e.exception))
                    self.assertNotIn("\n", str(e.exception))
        with morabaraba.Database([herd3]) as db:
            with self.assertRaises(ValueError):  # PositionError is a ValueError too
                db.probe("nonsense")
            with self.assertRaises(LookupError):  # and MissingTableError a LookupError
                db.probe("WWWW..../BBB...../........ w 0 0 0")

    def test_metrics(self):
        """Random positions of 4v3 and 3v4 under the house rules (docs/METRICS.md): the pure
        best move keeps the pure value and distance and its line plays it out, the best move
        under the rule keeps the rule value and plies to the next mill, and for some positions
        the two differ in pure distance. Without a ply limit (malom) the orders are the same."""
        folder = os.path.join(DB_ROOT, "max7-morabaraba")
        with morabaraba.Database(folder) as db:
            parted = 0
            for pos in random_positions(random.Random(15), 400, (4, 3)):
                with self.subTest(position=pos):
                    r = db.probe(pos)
                    rule, pure = db.moves(pos), db.moves(pos, pure=True)
                    self.assertEqual(sorted(rule), sorted(pure))
                    if not rule:
                        continue
                    self.assertEqual((pure[0][1].value, pure[0][1].distance),
                                     (r.value, r.distance))
                    self.assertEqual((rule[0][1].rule_value, rule[0][1].plies_to_mill),
                                     (r.rule_value, r.plies_to_mill))
                    self.assertEqual(db.best_move(pos), rule[0][0])
                    self.assertEqual(db.best_move(pos, pure=True), pure[0][0])
                    line = db.best_line(pos, pure=True)
                    if r.value != "draw":
                        self.assertEqual(len(line), r.distance)
                    parted += rule[0][1].distance != pure[0][1].distance
            self.assertGreater(parted, 0)
        with morabaraba.Database(os.path.join(DB_ROOT, "malom")) as db:
            for pos in random_positions(random.Random(16), 50):
                self.assertEqual(db.moves(pos), db.moves(pos, pure=True))

    def test_finished_games(self):
        """Where the game is over under the rules, the ply limit too, no metric lists a move, and
        game_over says why in the CLI's words."""
        folder = os.path.join(DB_ROOT, "morabaraba")
        over = {"WWW...../.B....B./.....B.. w 0 0 60": "drawn: 60 plies without a mill",
                "WWW...../......../B..B.... b 0 0 0": "Black is down to two cows and has lost"}
        expected = cli(folder, list(over))
        with morabaraba.Database(folder) as db:
            for (pos, reason), want in zip(over.items(), expected):
                with self.subTest(position=pos):
                    self.assertEqual(db.game_over(pos), reason)
                    self.assertEqual(want["game_over"], reason)
                    for pure in (False, True):
                        self.assertIsNone(db.best_move(pos, pure=pure))
                        self.assertEqual(db.moves(pos, pure=pure), [])
                        self.assertEqual(db.best_line(pos, pure=pure), [])
                    self.assertEqual((want["best_move"], want["moves"], want["line"]),
                                     (None, [], []))
            self.assertIsNone(db.game_over("WWW...../.B....B./.....B.. w 0 0 0"))
            with self.assertRaises(morabaraba.PositionError):
                db.game_over("nonsense")

    def test_folder_types(self):
        """One folder as a str or a path-like, or a list of them, opens the same database."""
        folder = os.path.join(DB_ROOT, "malom")
        pos = "WWW...../.B....B./.....B.. w 0 0 0"
        want = morabaraba.Database([folder]).probe(pos)
        for folders in (folder, pathlib.Path(folder), [pathlib.Path(folder)], (folder,),
                        os.fsencode(folder)):
            with self.subTest(folders=folders), morabaraba.Database(folders) as db:
                self.assertEqual(db.rules, "malom")
                self.assertEqual(db.probe(pos), want)
        morabaraba.check(pathlib.Path(folder))
        with self.assertRaises(morabaraba.TableError) as e:
            morabaraba.Database("/nonexistent/folder")
        self.assertIn("'/nonexistent/folder'", str(e.exception))

    def test_without_block_cache(self):
        folder = os.path.join(DB_ROOT, "morabaraba")
        positions = random_positions(random.Random(7), 20)
        with morabaraba.Database([folder]) as cached, \
                morabaraba.Database([folder], cache_bytes=0) as uncached:
            for pos in positions:
                self.assertEqual(as_json(cached.probe(pos)), as_json(uncached.probe(pos)))

    def test_strings_are_whole(self):
        # A NUL would cut the string short in C: the count 5 is followed by another digit.
        with morabaraba.Database([os.path.join(DB_ROOT, "morabaraba")]) as db:
            for bad in ["WWW...../.B....B./.....B.. w 0 0 5\x009", "\x00"]:
                for call in (db.probe, db.probe_wdl, db.moves, db.best_move, db.best_line):
                    with self.subTest(position=bad, call=call.__name__), \
                            self.assertRaisesRegex(morabaraba.PositionError, "NUL"):
                        call(bad)
            # Other control characters are the parser's to refuse, as the command line's is.
            for bad, says in [("WWW...../.B....B./.....B.. w 0 0 0\x1b", "the count must be"),
                              ("WWW\x7f..../.B....B./.....B.. w 0 0 0", "unknown character")]:
                for call in (db.probe, db.probe_wdl, db.moves, db.best_move, db.best_line):
                    with self.subTest(position=bad, call=call.__name__), \
                            self.assertRaisesRegex(morabaraba.PositionError, says):
                        call(bad)
            with self.assertRaises(TypeError):
                db.probe(b"WWW...../.B....B./.....B.. w 0 0 0")
            # A lone surrogate has no UTF-8: a position error too, not a UnicodeEncodeError.
            for bad in ["\ud800", "WWW...../.B....B./.....B.. w 0 0 0\udcff"]:
                for call in (db.probe, db.probe_wdl, db.probe_rule_wdl, db.moves, db.best_move,
                             db.best_line, db.prove):
                    with self.subTest(position=bad, call=call.__name__), \
                            self.assertRaisesRegex(morabaraba.PositionError, "surrogate"):
                        call(bad)
        # A folder's path with a NUL would be cut short in C (opening the folder before it):
        # refused, as str, bytes and path-like, alone or in a list, by check() too.
        folder = os.path.join(DB_ROOT, "morabaraba")
        for bad in [folder + "\x00junk", os.fsencode(folder) + b"\x00",
                    pathlib.Path(folder + "\x00junk"), [folder, folder + "\x00"]]:
            for call in (morabaraba.Database, morabaraba.check):
                with self.subTest(folders=bad, call=call.__name__), \
                        self.assertRaisesRegex(ValueError, "NUL"):
                    call(bad)

    def test_close_while_probing(self):
        """close() while other threads probe waits for the calls in flight (never frees what
        they read) and every call after it raises MorabarabaError saying the database is
        closed: 20 rounds in a child process, so that a crash fails the test instead of
        ending pytest."""
        script = """if True:
            import sys, threading
            sys.path.insert(0, sys.argv[1])
            import morabaraba
            pos = "WWW...../.B....B./.....B.. w 0 0 0"
            for _ in range(20):
                db = morabaraba.Database(sys.argv[2], cache_bytes=0)
                start, raised = threading.Barrier(5), []
                def probe():
                    start.wait()
                    try:
                        while True:
                            db.probe(pos)
                            db.moves(pos)
                    except morabaraba.MorabarabaError as e:
                        raised.append(str(e))
                threads = [threading.Thread(target=probe) for _ in range(4)]
                for t in threads:
                    t.start()
                start.wait()
                db.close()
                for t in threads:
                    t.join()
                assert raised == ["the database is closed"] * 4, raised
                for call in (db.probe, db.probe_wdl, db.best_move, db.moves, db.prove):
                    try:
                        call(pos)
                        raise AssertionError(call.__name__ + " after close")
                    except morabaraba.MorabarabaError as e:
                        assert str(e) == "the database is closed", e
                db.close()  # a second close does nothing
            print("closed 20 times")
        """
        run = subprocess.run([sys.executable, "-c", script,
                              os.path.dirname(os.path.dirname(morabaraba.__file__)),
                              os.path.join(DB_ROOT, "morabaraba")],
                             capture_output=True, text=True, timeout=120)
        self.assertEqual((run.returncode, run.stdout), (0, "closed 20 times\n"), run.stderr)
        db = morabaraba.Database(os.path.join(DB_ROOT, "morabaraba"))
        db.close()
        for attribute in ("rules", "herd"):
            with self.subTest(attribute=attribute), \
                    self.assertRaisesRegex(morabaraba.MorabarabaError, "database is closed"):
                getattr(db, attribute)

    def test_wdl_only_folder(self):
        """The WDL-only export of morabaraba/ answers probe_wdl as its source, and a full
        probe raises saying that distances are not in the folder."""
        positions = random_positions(random.Random(11), 200)
        with morabaraba.Database([os.path.join(DB_ROOT, "morabaraba")]) as full, \
                morabaraba.Database([os.path.join(DB_ROOT, "morabaraba-wdl")]) as wdl:
            for pos in positions:
                with self.subTest(position=pos):
                    self.assertEqual(wdl.probe_wdl(pos), full.probe_wdl(pos))
            with self.assertRaises(morabaraba.TableError) as e:
                wdl.probe(positions[0])
            self.assertIn("distances are not in this folder", str(e.exception))

    def test_rule_value_from_a_wdl_only_folder(self):
        """probe_rule_wdl is the full probe's rule_value in the full folder; in its WDL-only
        export it answers as `probe --wdl --json` of the export does: the same value, or
        TableError where that answer's rule_value is null (a rule win or loss at a count above
        0, which needs the plies to the next mill)."""
        positions = random_positions(random.Random(28), 200)
        folders = [os.path.join(DB_ROOT, name) for name in ("morabaraba", "morabaraba-wdl")]
        run = subprocess.run([TOOL, "probe", "--db", folders[1], "--json", "--wdl"],
                             input="\n".join(positions) + "\n", capture_output=True, text=True)
        answers = [json.loads(line) for line in run.stdout.splitlines()]
        self.assertEqual(len(answers), len(positions))
        refused = 0
        with morabaraba.Database(folders[0]) as full, morabaraba.Database(folders[1]) as wdl:
            for pos, answer in zip(positions, answers):
                with self.subTest(position=pos):
                    want = full.probe(pos).rule_value
                    self.assertEqual(full.probe_rule_wdl(pos), want)
                    self.assertEqual(answer["value"], wdl.probe_wdl(pos))
                    if answer["rule_value"] is None:
                        refused += 1
                        self.assertIn("needs the plies to the next mill",
                                      answer["rule_value_error"])
                        with self.assertRaisesRegex(morabaraba.TableError,
                                                    "needs the plies to the next mill"):
                            wdl.probe_rule_wdl(pos)
                    else:
                        self.assertEqual(answer["rule_value"], want)
                        self.assertEqual(wdl.probe_rule_wdl(pos), want)
        self.assertGreater(refused, 0)
        with morabaraba.Database(os.path.join(DB_ROOT, "malom")) as malom, \
                self.assertRaisesRegex(morabaraba.PositionError, "no ply limit"):
            malom.probe_rule_wdl(positions[0])

    def test_errors(self):
        with morabaraba.Database([os.path.join(DB_ROOT, "morabaraba")]) as db:
            for bad in ["", "nonsense", "WWW...../.B....B./.....B.. x 0 0 0",
                        "WWWW..../.B....B./.....B.. w 0 0 0",  # 4v3: not in the database
                        "WWW...../.B....B./.....B.. w 1 0 0"]:  # placing
                with self.subTest(position=bad), self.assertRaises(morabaraba.MorabarabaError):
                    db.probe(bad)
        with self.assertRaises(morabaraba.TableError) as e:
            morabaraba.Database(["/nonexistent/folder"])
        self.assertIn("/nonexistent/folder", str(e.exception))

    def test_whitespace_separates_fields(self):
        """Spaces, tabs, carriage returns and line feeds separate the fields, any number of them,
        as the command line and the server read them (docs/RULES.md, "Notation"): the package
        passes the text on rather than judging it by a rule of its own."""
        fields = ["WWW...../.B....B./.....B..", "w", "0", "0", "5"]
        plain = " ".join(fields)
        with morabaraba.Database(os.path.join(DB_ROOT, "morabaraba")) as db:
            want = as_json(db.probe(plain))
            for sep in ("\t", "\r", "\n", " \t ", "\r\n", "  "):
                for text in (sep.join(fields), sep + sep.join(fields) + sep):
                    with self.subTest(position=text):
                        self.assertEqual(as_json(db.probe(text)), want)
                        self.assertEqual(db.moves(text), db.moves(plain))
            cli_answer = cli(os.path.join(DB_ROOT, "morabaraba"), ["\t".join(fields)])[0]
            self.assertEqual({k: cli_answer[k] for k in want}, want)
            # A vertical tab or a form feed is no separator anywhere.
            for sep in ("\v", "\f"):
                with self.subTest(separator=sep), \
                        self.assertRaisesRegex(morabaraba.PositionError, "5 fields"):
                    db.probe(sep.join(fields))

    def test_counts_no_game_reaches(self):
        """A count above the ply limit is refused as the command line refuses it (docs/RULES.md,
        "Notation"); without a ply limit (malom) any count up to 9999 is answered."""
        flying = "WWW...../.B....B./.....B.. w 0 0 "
        with morabaraba.Database(os.path.join(DB_ROOT, "morabaraba")) as db:
            for count in ("61", "9999"):
                for call in (db.probe, db.probe_wdl, db.probe_rule_wdl, db.moves):
                    with self.subTest(count=count, call=call.__name__), \
                            self.assertRaisesRegex(morabaraba.PositionError,
                                                   f"the count {count} exceeds the ply limit"):
                        call(flying + count)
            self.assertEqual(db.probe(flying + "60").value, db.probe(flying + "0").value)
        with morabaraba.Database(os.path.join(DB_ROOT, "malom")) as db:
            self.assertEqual(as_json(db.probe(flying + "9999")), as_json(db.probe(flying + "0")))
            self.assertEqual(db.moves(flying + "9999"), db.moves(flying + "0"))
        morabaraba.check([os.path.join(DB_ROOT, "malom")])
        self.assertRegex(morabaraba.version(), r"^\d+\.\d+\.\d+$")
        self.assertEqual(morabaraba.__version__, morabaraba.version())


HERD4_START = "......../......../........ w 4 4 0"
POINTS = "a7d7g7g4g1d1a1a4b6d6f6f4f2d2b2b4c5d5e5e4e3d3c3c4"  # in the position string's order


def after_placing(point, herd):
    """The position after White places a cow at `point` from the start of `herd`."""
    board = ["."] * 24
    board[POINTS.index(point) // 2] = "W"
    rings = "/".join("".join(board[8 * r:8 * r + 8]) for r in range(3))
    return f"{rings} b {herd - 1} {herd} 1"


class ProveTest(unittest.TestCase):
    """Database.prove from a folder of links to the moving-phase tables of a whole-game folder
    of the fixture (the tables whose names have no '+'), against probe of the whole game."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="mora_python_prove_")
        self.addCleanup(self._tmp.cleanup)

    def moving_only(self, whole_game):
        folder = pathlib.Path(self._tmp.name) / whole_game
        folder.mkdir()
        for table in pathlib.Path(DB_ROOT, whole_game).glob("*.mtb"):
            if "+" not in table.name:
                (folder / table.name).symlink_to(table.resolve())
        return folder

    def check_start(self, whole_game, herd, start, start_value):
        with morabaraba.Database(os.path.join(DB_ROOT, whole_game)) as whole, \
                morabaraba.Database(self.moving_only(whole_game)) as moving:
            self.assertEqual(moving.herd, 0)
            with self.assertRaises(morabaraba.PositionError):
                moving.probe(start)  # no table to read
            positions = [start] + [after_placing(m, herd) for m, _ in whole.moves(start)]
            self.assertEqual(len(positions), 25)
            for pos in positions:
                with self.subTest(position=pos):
                    want = whole.probe(pos)
                    got = moving.prove(pos, memory_bytes=16 << 20)
                    self.assertEqual((got.value, got.rule_value, got.known),
                                     (want.value, want.rule_value, True))
                    self.assertGreater(got.nodes, 0)
                    self.assertGreaterEqual(got.seconds, 0)
            self.assertEqual(whole.probe(start).value, start_value)
            pure = moving.prove(start, pure=True)
            self.assertEqual((pure.value, pure.rule_value, pure.known), (start_value, None, True))

    def test_herd3_start_and_first_placements(self):
        self.check_start("herd3-morabaraba", 3, HERD3_START, "win")

    def test_herd4_start_and_first_placements(self):
        self.check_start("herd4-morabaraba", 4, HERD4_START, "draw")

    def test_limits_reached_give_unknown(self):
        """A search a limit stops answers None and known False, never a guess (the limits are
        checked every 4096 nodes, and herd 4's start takes more)."""
        with morabaraba.Database(self.moving_only("herd4-morabaraba")) as moving:
            whole = moving.prove(HERD4_START)
            self.assertEqual((whole.value, whole.rule_value, whole.known), ("draw", "draw", True))
            self.assertGreater(whole.nodes, 2 * 4096)
            for limits in ({"max_nodes": 1}, {"max_seconds": 1e-9}):
                for pure in (False, True):
                    with self.subTest(pure=pure, **limits):
                        got = moving.prove(HERD4_START, pure=pure, **limits)
                        self.assertEqual((got.value, got.rule_value, got.known),
                                         (None, None, False))
                        self.assertTrue(0 < got.nodes <= 4096, got.nodes)
            within = moving.prove(HERD4_START, max_nodes=whole.nodes + 4096, max_seconds=1e6)
            self.assertEqual((within.value, within.rule_value, within.known),
                             ("draw", "draw", True))

    def test_positions_the_tables_hold(self):
        """Answered by their probe; without a ply limit (malom) there is no rule value."""
        for rules in ("morabaraba", "malom"):
            with morabaraba.Database(os.path.join(DB_ROOT, rules)) as db:
                for pos in random_positions(random.Random(32), 30):
                    with self.subTest(rules=rules, position=pos):
                        want, got = db.probe(pos), db.prove(pos, memory_bytes=4096)
                        self.assertEqual((got.value, got.rule_value, got.known),
                                         (want.value, want.rule_value, True))

    def test_errors(self):
        with morabaraba.Database(self.moving_only("herd3-morabaraba")) as moving:
            for position, error, says in [
                    ("nonsense", morabaraba.PositionError, ""),
                    ("W......./......../........ w 2 3 0", morabaraba.PositionError, "in hand"),
                    (HERD3_START + "\x00", morabaraba.PositionError, "NUL"),
                    # Herd 4's placements lead to 4v4 and the like, which the folder lacks.
                    (HERD4_START, morabaraba.MissingTableError, "the database has no table for"),
                    ("WWWW..../BBB...../........ w 0 0 0", morabaraba.MissingTableError, "4v3")]:
                with self.subTest(position=position), self.assertRaises(error) as e:
                    moving.prove(position)
                self.assertIn(says, str(e.exception))
            with self.assertRaises(TypeError):
                moving.prove(HERD3_START.encode())
            for kwargs, error in [
                    ({"max_nodes": -1}, ValueError), ({"max_nodes": 1 << 64}, OverflowError),
                    ({"max_nodes": 1.0}, TypeError), ({"max_nodes": True}, TypeError),
                    ({"memory_bytes": -1}, ValueError), ({"memory_bytes": 1 << 64}, OverflowError),
                    ({"memory_bytes": "64"}, TypeError),
                    ({"max_seconds": -1.0}, ValueError), ({"max_seconds": math.nan}, ValueError),
                    ({"max_seconds": "1"}, TypeError)]:
                with self.subTest(**kwargs), self.assertRaises(error):
                    moving.prove(HERD3_START, **kwargs)
            # The largest values that fit are taken as they are, not wrapped.
            got = moving.prove(HERD3_START, max_nodes=(1 << 64) - 1, max_seconds=math.inf)
            self.assertEqual((got.value, got.rule_value, got.known), ("win", "win", True))
        with morabaraba.Database(os.path.join(DB_ROOT, "house-003")) as house, \
                self.assertRaisesRegex(morabaraba.PositionError, "bars"):
            house.prove("W.W.B.../WWW...../....B.B. b 0 0 0 bar:w:d6-d7")
        # The other calls' integers are checked too, not wrapped by ctypes.
        folder = os.path.join(DB_ROOT, "morabaraba")
        for cache_bytes, error in [(-1, ValueError), (1 << 64, OverflowError)]:
            with self.subTest(cache_bytes=cache_bytes), self.assertRaises(error):
                morabaraba.Database(folder, cache_bytes=cache_bytes)
        with morabaraba.Database(folder) as db:
            for max_plies in (1 << 31, -(1 << 31) - 1, 1 << 64):
                with self.subTest(max_plies=max_plies), self.assertRaises(OverflowError):
                    db.best_line("WWW...../.B....B./.....B.. w 0 0 0", max_plies=max_plies)

    def test_threads(self):
        """Each call searches afresh: threads proving at once get the single-threaded answers."""
        with morabaraba.Database(self.moving_only("herd3-morabaraba")) as moving:
            positions = [HERD3_START] + [after_placing(p, 3) for p in ("a7", "d7", "b6", "c5")]
            want = [moving.prove(p, memory_bytes=1 << 20) for p in positions]
            with concurrent.futures.ThreadPoolExecutor(4) as pool:
                got = list(pool.map(lambda p: moving.prove(p, memory_bytes=1 << 20),
                                    positions * 4))
            for w, g in zip(want * 4, got):
                self.assertEqual((g.value, g.rule_value, g.known, g.nodes),
                                 (w.value, w.rule_value, w.known, w.nodes))


if __name__ == "__main__":
    unittest.main()
