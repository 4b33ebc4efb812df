"""`morabaraba serve` on the probe_db fixture's databases (ctest serve), with the standard
library only: its answers equal `probe --json` for a few hundred positions, POST answers equal
GET's, every error status is provoked, bad input (huge query strings and headers, non-UTF-8
bytes, a body of 100 MB, unknown parameters, a duplicate Content-Length, slow clients) is
answered or refused while it keeps serving, bodies of any content type up to the limits,
pipelined requests, CORS preflight, a port in use, the connection limit, 8 clients at once, one
log line per request, and SIGTERM and SIGINT stop it cleanly (tests/serve_load_test.py: load).

    serve_test.py MORABARABA DB_ROOT
"""

import http.client
import json
import os
import random
import re
import select
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import unittest
import urllib.parse

TOOL, DB_ROOT = sys.argv[1], sys.argv[2]
FOLDERS = {name: os.path.join(DB_ROOT, name)
           for name in ("morabaraba", "malom", "herd3-morabaraba", "herd3-msa-tournament")}
LOG_LINE = re.compile(r"^([A-Z]+|-) (/\S*|-) \d{3} (\d+us|-)$")


def random_position(rng, placing=False, counted=True):
    """A position string of the moving phase (3 cows a side) or of the placing phase of herd 3
    as games reach it, with a count when the rules count placing plies (`counted`)."""
    if placing:
        white = rng.random() < 0.5
        black_hand = rng.randint(1, 3)
        hands = (black_hand if white else black_hand - 1, black_hand)
        on_board, side = (3 - hands[0], 3 - hands[1]), "w" if white else "b"
        count = rng.randint(0, sum(on_board)) if counted else 0
    else:
        hands, on_board, side = (0, 0), (3, 3), rng.choice("wb")
        count = rng.choice([0, 1, 30, 59, 60])
    board = ["."] * 24
    points = rng.sample(range(24), sum(on_board))
    for i, p in enumerate(points):
        board[p] = "W" if i < on_board[0] else "B"
    rings = "/".join("".join(board[8 * r:8 * r + 8]) for r in range(3))
    return f"{rings} {side} {hands[0]} {hands[1]} {count}"


def cli(folders, positions, *flags):
    args = [TOOL, "probe", "--json", *flags]
    for f in folders:
        args += ["--db", f]
    run = subprocess.run(args, input="\n".join(positions) + "\n", capture_output=True, text=True)
    return [json.loads(line) for line in run.stdout.splitlines()]


class Server:
    """A `morabaraba serve` on a free port, its log collected."""

    def __init__(self, *extra, folders=FOLDERS.values()):
        args = [TOOL, "serve", "--port", "0", "--threads", "8", *extra]
        for f in folders:
            args += ["--db", f]
        self.log = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        match = re.match(r"listening on http://127\.0\.0\.1:(\d+)/$", line.strip())
        assert match, f"no port announced: {line!r}"
        self.port = int(match.group(1))

    def request(self, method, path, body=None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    def get_json(self, path):
        status, body = self.request("GET", path)
        return status, json.loads(body)

    def stop(self, sig=signal.SIGTERM, timeout=10):
        self.process.send_signal(sig)
        status = self.process.wait(timeout=timeout)
        self.process.stdout.close()
        self.log.seek(0)
        log = self.log.read().splitlines()
        self.log.close()
        return status, log


def query(path, **params):
    return path + "?" + urllib.parse.urlencode(params, quote_via=urllib.parse.quote)


def read_response(stream):
    """One response read from a socket's binary file: (status, headers by lower-case name,
    body), or None when the server closed the connection first."""
    status_line = stream.readline()
    if not status_line:
        return None
    status = int(status_line.split()[1])
    headers = {}
    while (line := stream.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode().partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, stream.read(int(headers.get("content-length", 0)))


def raw_exchange(port, data):
    """Sends `data` (requests as bytes) on one connection and reads every response until the
    server closes it: [(status, headers, body)]."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(data)
        stream = sock.makefile("rb")
        responses = []
        while (response := read_response(stream)) is not None:
            responses.append(response)
        return responses


def without_explorer_fields(answer):
    """The server's probe answer in the form of `probe --json --moves`, without what it adds
    for the explorer: the position each move leads to and its flags."""
    answer = dict(answer)
    if answer.get("moves") is not None:
        answer["moves"] = [{k: v for k, v in m.items() if k not in ("position", "flags")}
                           for m in answer["moves"]]
    return answer


class ServeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = Server()
        rng = random.Random(15)
        # rules -> (folders, positions): a few hundred positions in all, some of them bad.
        bad = ["nonsense", "WWW...../.B....B./.....B.. x 0 0 0",
               "WWWW..../BBB...../........ w 0 0 0", "......../......../........ w 4 4 0"]
        cls.cases = {
            "morabaraba": ([FOLDERS["morabaraba"], FOLDERS["herd3-morabaraba"]],
                           [random_position(rng) for _ in range(120)] +
                           [random_position(rng, placing=True) for _ in range(80)] + bad),
            "malom": ([FOLDERS["malom"]], [random_position(rng) for _ in range(80)] + bad),
            # The only fixture with pure draws.
            "msa-tournament": ([FOLDERS["herd3-msa-tournament"]],
                               [random_position(rng, placing=True, counted=False)
                                for _ in range(60)] + bad),
        }

    @classmethod
    def tearDownClass(cls):
        status, log = cls.server.stop()
        assert status == 0, f"serve exit status {status}"
        requests = [line for line in log if LOG_LINE.match(line)]
        assert len(requests) > 600, f"{len(requests)} log lines of requests"
        # Only requests refused before they were read in full go untimed.
        untimed = [line for line in requests if line.endswith(" -") and " 200 " in line]
        assert not untimed, untimed[:3]
        for logged in ("GET /api/v1/probe 200 ", "POST /api/v1/probe 200 ", "GET /health 200 ",
                       "GET /api/v2/probe 404 ", "DELETE /api/v1/probe 405 ",
                       "POST /api/v1/probe 413 ", "GET /%0Aforged%20line 404 "):
            assert any(line.startswith(logged) for line in requests), f"no '{logged}...' logged"
        # A path cannot write a line of its own into the log.
        assert not [line for line in log if line.startswith("forged")], log
        assert log[-1] == "stopped", log[-3:]

    def get_like_cli(self, path, rules, position, want):
        """GET `path` of the position: None where the CLI's answer `want` is an error, which the
        server gives too (400 or 404, the same message); else its answer (a 200)."""
        status, got = self.server.get_json(query(path, position=position, rules=rules))
        if "error" in want:
            self.assertIn(status, (400, 404))
            self.assertEqual(got, {"error": want["error"]})
            return None
        self.assertEqual(status, 200)
        return got

    def test_probe_and_line_equal_cli(self):
        for rules, (folders, positions) in self.cases.items():
            expected = cli(folders, positions, "--moves")
            lines = cli(folders, positions, "--line")
            self.assertEqual(len(expected), len(positions))
            for position, want, want_line in zip(positions, expected, lines):
                with self.subTest(rules=rules, position=position):
                    got = self.get_like_cli("/api/v1/probe", rules, position, want)
                    if got is None:
                        continue
                    self.assertEqual(without_explorer_fields(got), want)
                    status, line = self.server.get_json(
                        query("/api/v1/line", position=position, rules=rules))
                    self.assertEqual((status, line), (200, want_line))

    def test_wdl_equals_cli(self):
        """GET and POST /api/v1/wdl answer what `probe --json --wdl` prints: the value and, under
        a ply limit, the value under it at the position's count."""
        for rules, (folders, positions) in self.cases.items():
            expected = cli(folders, positions, "--wdl")
            self.assertEqual(len(expected), len(positions))
            status, body = self.server.request(
                "POST", query("/api/v1/wdl", rules=rules), "\n".join(positions).encode())
            self.assertEqual(status, 200)
            self.assertEqual([json.loads(line) for line in body.decode().splitlines()], expected)
            for position, want in zip(positions, expected):
                with self.subTest(rules=rules, position=position):
                    got = self.get_like_cli("/api/v1/wdl", rules, position, want)
                    if got is None:
                        continue
                    self.assertEqual(got, want)
                    self.assertEqual("rule_value" in got, rules != "malom")
                    self.assertNotIn("rule_value_error", got)  # full folders know it

    def test_positions_after_moves(self):
        """Each move's position is the one it leads to: the server's value of it is the move's
        value from the other side, one ply shorter."""
        flip = {"win": "loss", "loss": "win", "draw": "draw"}
        positions = self.cases["morabaraba"][1][:20]
        for position in positions:
            status, answer = self.server.get_json(query("/api/v1/probe", position=position))
            if status != 200:
                continue
            for move in answer["moves"]:
                status, after = self.server.get_json(
                    query("/api/v1/probe", position=move["position"]))
                self.assertEqual(status, 200)
                self.assertEqual(after["value"], flip[move["value"]], move)
                if move["distance"] is not None:
                    self.assertEqual(after["distance"], move["distance"] - 1, move)

    def test_batch_equals_cli(self):
        for rules, (folders, positions) in self.cases.items():
            status, body = self.server.request(
                "POST", query("/api/v1/probe", rules=rules), "\n".join(positions).encode())
            self.assertEqual(status, 200)
            got = [json.loads(line) for line in body.decode().splitlines()]
            self.assertEqual([without_explorer_fields(a) for a in got],
                             cli(folders, positions, "--moves"))

    def test_batch_as_a_json_array(self):
        """A JSON array of position strings gets a JSON array of the answers a body of one
        position a line gets; a body whose newlines were stripped, or JSON that is no array of
        strings (an object too), gets a 400 that says what to send."""
        folders, positions = self.cases["morabaraba"]
        positions = positions[:20] + ["nonsense"]
        for path in ("/api/v1/probe", "/api/v1/wdl"):
            with self.subTest(path=path):
                status, lines = self.server.request("POST", path, "\n".join(positions).encode())
                self.assertEqual(status, 200)
                status, array = self.server.request("POST", path, json.dumps(positions).encode())
                self.assertEqual(status, 200, array[:200])
                self.assertEqual(json.loads(array),
                                 [json.loads(line) for line in lines.decode().splitlines()])
        status, got = self.server.request("POST", "/api/v1/probe",
                                          " ".join(positions[:3]).encode())
        self.assertEqual(status, 400, got)
        self.assertIn("holds 3 positions: send one position a line (curl -d strips",
                      json.loads(got)["error"])
        for body in (b'["W......./......../........ b 0 0 0", 3]', b"[not json",
                     b' {"positions": ["W......./......../........ b 0 0 0"]}'):
            status, got = self.server.request("POST", "/api/v1/probe", body)
            self.assertEqual(status, 400, got)
            self.assertIn("must be a JSON array of position strings", json.loads(got)["error"])

    def test_batch_skips_blank_lines(self):
        """Blank lines (empty, or a lone CR of CRLF) are no positions, as on the command line:
        not answered, and not counted against the batch's limit."""
        folders, positions = self.cases["morabaraba"]
        positions = positions[:20]
        body = "\n" + "\n\n".join(positions) + "\r\n\r\n\n"
        for path, flags in (("/api/v1/probe", ["--moves"]), ("/api/v1/wdl", ["--wdl"])):
            with self.subTest(path=path):
                status, got = self.server.request("POST", path, body.encode())
                self.assertEqual(status, 200, got[:200])
                got = [json.loads(line) for line in got.decode().splitlines()]
                if path == "/api/v1/probe":
                    got = [without_explorer_fields(a) for a in got]
                self.assertEqual(got, cli(folders, positions, *flags))
                status, got = self.server.request("POST", path, b"\n" * 20000)
                self.assertEqual((status, got), (200, b""))
        status, got = self.server.request("POST", "/api/v1/probe",
                                          b"\n\r\n".join([b"a"] * 10000) + b"\n\n")
        self.assertEqual(status, 200, got[:200])
        self.assertEqual(len(got.decode().splitlines()), 10000)

    def test_post_and_get_answer_alike(self):
        """Field for field, each move's position included, under both metrics."""
        for rules, (_, positions) in self.cases.items():
            for pure in ("0", "1"):
                status, body = self.server.request(
                    "POST", query("/api/v1/probe", rules=rules, pure=pure),
                    "\n".join(positions).encode())
                self.assertEqual(status, 200)
                posted = [json.loads(line) for line in body.decode().splitlines()]
                self.assertEqual(len(posted), len(positions))
                for position, answer in zip(positions, posted):
                    with self.subTest(rules=rules, pure=pure, position=position):
                        status, got = self.server.get_json(
                            query("/api/v1/probe", position=position, rules=rules, pure=pure))
                        if status != 200:
                            got = {"position": position, **got}
                        self.assertEqual(answer, got)

    def test_bodies_of_any_content_type(self):
        """8 KiB to 1 MiB bodies (cpp-httplib refused form bodies over 8 KiB) as form and text:
        each line answered as GET answers it; one byte more is refused naming the limit."""
        positions = self.cases["morabaraba"][1][:50]
        # Lines that are no position, long enough that 1 MiB holds fewer than 10,000 lines.
        filler = "x" * 199
        answers = {}

        def answer(position):
            if position not in answers:
                status, got = self.server.get_json(query("/api/v1/probe", position=position))
                answers[position] = got if status == 200 else {"position": position, **got}
            return answers[position]

        for size in (8 << 10, 64 << 10, 1 << 20):
            body = "\n".join(positions)
            while len(body) + 1 + len(filler) <= size:
                body += "\n" + filler
            body += "\n" + "y" * (size - len(body) - 1)
            self.assertEqual(len(body), size)
            lines = body.split("\n")
            for content_type in ("application/x-www-form-urlencoded", "text/plain; charset=utf-8"):
                with self.subTest(size=size, content_type=content_type):
                    status, got = self.server.request("POST", "/api/v1/probe", body.encode(),
                                                      {"Content-Type": content_type})
                    self.assertEqual(status, 200, got[:200])
                    got = [json.loads(line) for line in got.decode().splitlines()]
                    self.assertEqual(len(got), len(lines))
                    self.assertEqual(got, [answer(line) for line in lines])
        too_large = b"x\n" * (1 << 19) + b"x"
        for headers, chunks in [({"Content-Type": "text/plain"}, too_large),
                                ({"Transfer-Encoding": "chunked"},
                                 (too_large[i:i + 65536] for i in range(0, len(too_large), 65536)))]:
            with self.subTest(headers=headers):
                connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
                connection.request("POST", "/api/v1/probe", body=chunks, headers=headers,
                                   encode_chunked="Transfer-Encoding" in headers)
                response = connection.getresponse()
                self.assertEqual(response.status, 413)
                self.assertEqual(json.loads(response.read()),
                                 {"error": "the body is larger than 1048576 bytes (1 MiB)"})
                connection.close()

    def test_pure(self):
        """pure=1 orders the moves and plays the line by pure distance, as `probe --pure` does,
        on every endpoint that does either; pure=0 is the default (test_parameters: another
        value is a 400). Some of these positions have a line of the pure game that differs from
        the one under the ply limit."""
        folders, positions = self.cases["morabaraba"]
        positions = positions[:80]
        lines_by_pure = {}
        for pure, flags in (("1", ["--pure"]), ("0", [])):
            expected = cli(folders, positions, "--moves", *flags)
            lines = lines_by_pure[pure] = cli(folders, positions, "--line", *flags)
            for position, want, want_line in zip(positions, expected, lines):
                if "error" in want:
                    continue
                with self.subTest(position=position, pure=pure):
                    self.assertEqual(want["metric"], "pure" if pure == "1" else "rule")
                    status, got = self.server.get_json(
                        query("/api/v1/probe", position=position, pure=pure))
                    self.assertEqual((status, without_explorer_fields(got)), (200, want))
                    status, line = self.server.get_json(
                        query("/api/v1/line", position=position, pure=pure))
                    self.assertEqual((status, line), (200, want_line))
            status, body = self.server.request(
                "POST", query("/api/v1/probe", pure=pure), "\n".join(positions).encode())
            self.assertEqual(status, 200)
            self.assertEqual(
                [without_explorer_fields(json.loads(b)) for b in body.decode().splitlines()],
                expected)
        self.assertNotEqual(lines_by_pure["0"], lines_by_pure["1"])
        status, body = self.server.request("POST", query("/api/v1/probe", pure="2"), b"x\n")
        self.assertEqual((status, json.loads(body)),
                         (400, {"error": "the parameter 'pure' is 0 or 1, not '2'"}))

    def test_draw_has_no_distance(self):
        results = []
        for rules, (_, positions) in self.cases.items():
            for position in positions[:60]:
                status, answer = self.server.get_json(
                    query("/api/v1/probe", position=position, rules=rules))
                if status == 200:
                    results += [answer] + answer["moves"]
        draws = [r for r in results if r["value"] == "draw"]
        decided = [r for r in results if r["value"] != "draw"]
        self.assertGreater(len(draws), 10)
        self.assertGreater(len(decided), 10)
        self.assertTrue(all(r["distance"] is None for r in draws))
        self.assertTrue(all(r["distance"] >= 0 for r in decided))

    def test_info_and_health(self):
        self.assertEqual(self.server.get_json("/health"), (200, {"status": "ok"}))
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
        connection.request("GET", "/api/v1/info")
        response = connection.getresponse()
        self.assertEqual(response.getheader("Access-Control-Allow-Origin"), "*")
        self.assertEqual(response.getheader("Content-Type"), "application/json")
        connection.close()
        status, info = self.server.get_json("/api/v1/info")
        self.assertEqual(status, 200)
        databases = {d["rules"]: d for d in info["databases"]}
        self.assertEqual(list(databases), ["morabaraba", "malom", "msa-tournament"])
        self.assertEqual(databases["morabaraba"]["herd"], 3)
        self.assertEqual(databases["malom"]["herd"], 0)
        # The herd's start as the explorer opens it; the moving phase alone has none.
        self.assertEqual(databases["morabaraba"]["start"], "......../......../........ w 3 3 0")
        self.assertEqual(databases["malom"]["start"], "......../......../........ w 0 0 0")
        names = {s["name"] for s in databases["morabaraba"]["subspaces"]}
        self.assertIn("3v3", names)
        self.assertIn("0v0+3+3", names)
        board = databases["morabaraba"]["board"]
        self.assertEqual(len(board["points"]), 24)
        self.assertEqual(len(board["lines"]), 20)  # with the diagonals
        self.assertEqual(board["points"][0], {"name": "a7", "x": 0, "y": 0})
        self.assertIn(["a7", "b6", "c5"], board["lines"])

    def test_whitespace_separates_fields(self):
        """Tabs, carriage returns and line feeds separate a position's fields as spaces do, as on
        the command line and in the libraries (docs/RULES.md, "Notation")."""
        fields = ["......../......../........", "w", "3", "3", "0"]
        status, want = self.server.get_json(query("/api/v1/probe", position=" ".join(fields)))
        self.assertEqual(status, 200)
        for sep in ("\t", "\r", "\n", " \t\r\n "):
            with self.subTest(separator=sep):
                text = sep.join(fields)
                status, got = self.server.get_json(query("/api/v1/probe", position=text))
                self.assertEqual(status, 200, got)
                self.assertEqual(got["position"], text)
                got["position"] = want["position"]
                self.assertEqual(got, want)

    def test_error_statuses(self):
        herd3_start = "......../......../........ w 3 3 0"
        cases = [
            ("GET", query("/api/v1/probe", position="nonsense"), None, 400, "5 fields"),
            ("GET", "/api/v1/probe", None, 400, "'position' is missing"),
            ("GET", "/api/v1/probe?position=%FF%FE%20w", None, 400, "not valid UTF-8"),
            ("GET", query("/api/v1/probe", position=herd3_start, rules="nope"), None, 400,
             "no database of rules 'nope' is served (served: morabaraba, malom, msa-tournament)"),
            ("GET", "/api/v1/probe?rules=%FF&position=" + urllib.parse.quote(herd3_start), None,
             400, "no database of rules '\ufffd' is served"),
            ("GET", query("/api/v1/probe", position="WWWW..../BBB...../........ w 0 0 0"),
             None, 404, "the database has no table for 4 cows against 3 (subspace 4v3)"),
            # A count no game reaches, whichever route reads the position.
            ("GET", query("/api/v1/probe", position="WWW...../.B....B./.....B.. b 0 0 9999"),
             None, 400, "the count 9999 exceeds the ply limit of rules 'morabaraba', 60"),
            ("GET", query("/api/v1/position", position="WWW...../.B....B./.....B.. b 0 0 61"),
             None, 400, "the count 61 exceeds the ply limit"),
            ("GET", query("/api/v1/line", position=herd3_start.replace("3 3", "4 4"),
                          rules="malom"), None, 404, "moving phase only"),
            ("GET", "/api/v2/probe", None, 404, "no such path"),
            ("DELETE", "/api/v1/probe", None, 405, "/api/v1/probe answers GET, POST, not DELETE"),
            ("POST", "/health", b"", 405, "/health answers GET, not POST"),
            ("GET", "/%0Aforged%20line", None, 404, "no such path: /\nforged line"),
            ("GET", "/" + "x" * 20000, None, 414, "longer than"),
            ("GET", "/api/v1/probe?position=" + "W" * 100000, None, 414, "longer than"),
            ("POST", "/api/v1/probe", b"x\n" * 600000, 413, "larger than"),
            ("POST", "/api/v1/probe", b"\n".join([b"a"] * 10001), 413, "at most 10000"),
        ]
        for method, path, body, status, message in cases:
            with self.subTest(path=path[:60]):
                got, answer = self.server.request(method, path, body)
                self.assertEqual(got, status, answer[:200])
                self.assertIn(message, json.loads(answer)["error"])
        # A batch's non-UTF-8 line gets its error and the batch goes on.
        status, body = self.server.request(
            "POST", "/api/v1/probe", b"\xff\xfe\n" + herd3_start.encode() + b"\n")
        lines = [json.loads(line) for line in body.decode().splitlines()]
        self.assertEqual(status, 200)
        self.assertEqual(len(lines), 2)
        self.assertIn("not valid UTF-8", lines[0]["error"])
        self.assertEqual(lines[1]["value"], "win")
        self.assertEqual(self.server.get_json("/health")[0], 200)

    def test_parameters(self):
        """Each route takes its parameters and no other, each once; pure is 0 or 1."""
        position = self.cases["morabaraba"][1][0]
        cases = [
            (query("/api/v1/probe", position=position, depth=3),
             "unknown parameter 'depth' (GET /api/v1/probe takes position, rules, pure)"),
            (query("/api/v1/line", position=position, moves=1),
             "unknown parameter 'moves' (GET /api/v1/line takes position, rules, pure)"),
            ("/api/v1/info?verbose", "unknown parameter 'verbose' (GET /api/v1/info takes none)"),
            ("/health?x=1", "unknown parameter 'x' (GET /health takes none)"),
            (query("/api/v1/probe", position=position) + "&position=x",
             "the parameter 'position' is given more than once"),
            (query("/api/v1/probe", position=position, pure=2), "'pure' is 0 or 1, not '2'"),
            (query("/api/v1/line", position=position, pure="true"),
             "'pure' is 0 or 1, not 'true'"),
            ("/api/v1/probe?position=%zz", "has a '%' not followed by two hexadecimal digits"),
        ]
        for path, message in cases:
            with self.subTest(path=path):
                status, answer = self.server.get_json(path)
                self.assertEqual(status, 400)
                self.assertIn(message, answer["error"])
        status, answer = self.server.request(
            "POST", query("/api/v1/probe", position=position), position.encode())
        self.assertEqual(status, 400)
        self.assertIn("unknown parameter 'position' (POST /api/v1/probe takes rules, pure)",
                      json.loads(answer)["error"])
        # '+' is a space in a query, as browsers' URLSearchParams write it.
        status, answer = self.server.get_json(
            "/api/v1/probe?" + urllib.parse.urlencode({"position": position}))
        self.assertEqual((status, answer["position"]), (200, position))

    def test_no_paths_of_the_server(self):
        """Folders are named by their own names, in /api/v1/info and in errors."""
        status, body = self.server.request("GET", "/api/v1/info")
        self.assertEqual(status, 200)
        self.assertNotIn(DB_ROOT.encode(), body)
        folders = {d["rules"]: d["folders"] for d in json.loads(body)["databases"]}
        self.assertEqual(folders, {"morabaraba": ["morabaraba", "herd3-morabaraba"],
                                   "malom": ["malom"], "msa-tournament": ["herd3-msa-tournament"]})

    def test_options(self):
        """OPTIONS answers the CORS preflight on the API, and Allow on every path."""
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=30)
        for path, methods in (("/api/v1/probe", "GET, POST, HEAD, OPTIONS"),
                              ("/api/v1/line", "GET, HEAD, OPTIONS"),
                              ("/health", "GET, HEAD, OPTIONS")):
            with self.subTest(path=path):
                connection.request("OPTIONS", path, headers={
                    "Origin": "https://example.org", "Access-Control-Request-Method": "POST",
                    "Access-Control-Request-Headers": "content-type"})
                response = connection.getresponse()
                self.assertEqual((response.status, response.read()), (204, b""))
                self.assertEqual(response.getheader("Allow"), methods)
                self.assertEqual(response.getheader("Access-Control-Allow-Origin"), "*")
                self.assertEqual(response.getheader("Access-Control-Allow-Methods"), methods)
                self.assertEqual(response.getheader("Access-Control-Allow-Headers"),
                                 "Content-Type")
        connection.request("OPTIONS", "/")
        response = connection.getresponse()
        self.assertEqual((response.status, response.read()), (204, b""))
        self.assertEqual(response.getheader("Allow"), "GET, HEAD, OPTIONS")
        self.assertIsNone(response.getheader("Access-Control-Allow-Origin"))  # not the API
        connection.request("OPTIONS", "/api/v2/probe")
        response = connection.getresponse()
        self.assertEqual(response.status, 404)
        response.read()
        # HEAD is GET without the body.
        connection.request("HEAD", "/health")
        response = connection.getresponse()
        self.assertEqual((response.status, response.read()), (200, b""))
        self.assertEqual(response.getheader("Content-Length"), str(len(b'{"status":"ok"}\n')))
        connection.close()

    def test_framing_errors(self):
        """A request whose length is in doubt is refused (400) and nothing after it on the
        connection is answered: no request is smuggled behind it."""
        after = b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n"
        post = b"POST /api/v1/probe HTTP/1.1\r\nHost: t\r\n"
        bad_length = "Content-Length is malformed, repeated or beside a Transfer-Encoding"
        for fields, status, message in [
                (b"Content-Length: 3\r\nContent-Length: 3\r\n", 400, bad_length),
                (b"Content-Length: 3, 3\r\n", 400, bad_length),
                (b"Content-Length: 3\r\nContent-Length: 4\r\n", 400, bad_length),
                (b"Content-Length: 3x\r\n", 400, bad_length),
                (b"Transfer-Encoding: chunked\r\nContent-Length: 3\r\n", 400, bad_length),
                (b"Content-Length: 3\r\nTransfer-Encoding: chunked\r\n", 400, "malformed"),
                (b"Transfer-Encoding: gzip, chunked\r\n", 501, "only chunked")]:
            with self.subTest(fields=fields):
                responses = raw_exchange(self.server.port, post + fields + b"\r\nabc" + after)
                self.assertEqual(len(responses), 1, responses)
                self.assertEqual(responses[0][0], status)
                self.assertIn(message, json.loads(responses[0][2])["error"])
        # A header too large (16 KiB) is refused too.
        status, answer = self.server.request("GET", "/health", headers={"X-Filler": "a" * 20000})
        self.assertEqual(status, 431)
        self.assertIn("header is larger than 16384 bytes", json.loads(answer)["error"])
        # Framed right, chunked and after 100-continue, a body is read.
        position = self.cases["morabaraba"][1][0].encode()
        chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(position), position)
        responses = raw_exchange(self.server.port, post + b"Transfer-Encoding: chunked\r\n"
                                 b"Connection: close\r\n\r\n" + chunked)
        self.assertEqual([r[0] for r in responses], [200])
        self.assertEqual(json.loads(responses[0][2])["position"], position.decode())
        with socket.create_connection(("127.0.0.1", self.server.port), timeout=30) as sock:
            sock.sendall(post + b"Expect: 100-continue\r\nContent-Length: %d\r\n\r\n"
                         % len(position))
            stream = sock.makefile("rb")
            self.assertEqual(read_response(stream)[0], 100)
            sock.sendall(position)
            status, _, body = read_response(stream)
            self.assertEqual((status, json.loads(body)["position"]), (200, position.decode()))

    def test_pipelined_requests(self):
        """Requests sent at once on one connection are all answered, in order; the one asking
        to close is the last answered."""
        positions = self.cases["morabaraba"][1][:40]

        def posted(position):  # a batch's line for `position`
            status, answer = self.server.get_json(query("/api/v1/probe", position=position))
            return answer if status == 200 else {"position": position, **answer}

        requests, expected = [], []
        for i, position in enumerate(positions):
            path = query("/api/v1/probe", position=position)
            requests.append(b"GET %s HTTP/1.1\r\nHost: t\r\n\r\n" % path.encode())
            expected.append(self.server.get_json(path))
            if i % 10 == 3:
                requests.append(b"GET /nowhere HTTP/1.1\r\nHost: t\r\n\r\n")
                expected.append((404, {"error": "no such path: /nowhere"}))
            if i % 10 == 7:
                batch = positions[i - 2:i + 1]
                body = "\n".join(batch).encode()
                requests.append(b"POST /api/v1/probe HTTP/1.1\r\nHost: t\r\n"
                                b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
                expected.append((200, [posted(p) for p in batch]))
        requests.append(b"GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        expected.append((200, {"status": "ok"}))
        requests.append(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")  # after the close
        got = []
        for status, headers, body in raw_exchange(self.server.port, b"".join(requests)):
            lines = [json.loads(line) for line in body.decode().splitlines()]
            batch = headers["content-type"] == "application/x-ndjson"
            got.append((status, lines if batch else lines[0]))
        self.assertEqual(got, expected)

    def test_port_in_use(self):
        """A second server on the port of the first refuses to start; the first keeps every
        request (with SO_REUSEPORT the two shared it, answering from different databases)."""
        run = subprocess.run([TOOL, "serve", "--db", FOLDERS["malom"], "--port",
                              str(self.server.port)], capture_output=True, text=True, timeout=10)
        self.assertEqual(run.returncode, 1)
        self.assertIn(f"cannot listen on 127.0.0.1:{self.server.port}: Address already in use",
                      run.stderr)
        for _ in range(20):
            status, info = self.server.get_json("/api/v1/info")
            self.assertEqual([d["rules"] for d in info["databases"]],
                             ["morabaraba", "malom", "msa-tournament"])

    def test_body_of_100_mb(self):
        """Refused without reading it all: the server answers 413 and closes the connection."""
        start = time.monotonic()
        sock = socket.create_connection(("127.0.0.1", self.server.port), timeout=30)
        sock.sendall(b"POST /api/v1/probe HTTP/1.1\r\nHost: test\r\n"
                     b"Content-Length: 100000000\r\n\r\n")
        chunk, sent = b"W" * 65536, 0
        try:
            while sent < 100_000_000:
                sock.sendall(chunk)
                sent += len(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        try:
            reply = sock.recv(4096)
        except ConnectionResetError:
            reply = b""
        sock.close()
        self.assertTrue(reply == b"" or reply.startswith(b"HTTP/1.1 413"), reply[:100])
        self.assertLess(time.monotonic() - start, 20)
        self.assertEqual(self.server.get_json("/health")[0], 200)

    def test_slow_clients(self):
        """Clients that send half a request and wait hold a connection each, not the server."""
        slow = []
        for _ in range(4):
            sock = socket.create_connection(("127.0.0.1", self.server.port), timeout=30)
            sock.sendall(b"GET /health HTTP/1.1\r\nHo")
            slow.append(sock)
        start = time.monotonic()
        for _ in range(20):
            self.assertEqual(self.server.get_json("/health")[0], 200)
        self.assertLess(time.monotonic() - start, 4)  # well under the read timeout (5 s)
        # The server refuses a client that stays silent longer than its read timeout (5 s).
        slow[0].settimeout(15)
        reply = slow[0].recv(4096)
        self.assertTrue(reply == b"" or reply.startswith(b"HTTP/1.1 400"), reply)
        for sock in slow:
            sock.close()

    def test_eight_clients_at_once(self):
        folders, positions = self.cases["morabaraba"]
        positions = positions[:160]
        expected = {p: a for p, a in zip(positions, cli(folders, positions, "--moves"))}
        failures = []

        def client(part):
            for position in part:
                status, got = self.server.get_json(query("/api/v1/probe", position=position))
                want = expected[position]
                ok = (status == 200 and without_explorer_fields(got) == want) or (
                    status in (400, 404) and got == {"error": want.get("error")})
                if not ok:
                    failures.append((position, status))

        threads = [threading.Thread(target=client, args=(positions[i::8],)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(failures, [])


class LimitTest(unittest.TestCase):
    def test_connection_limit(self):
        """Over --max-connections, a connection waits until one closes, then is answered."""
        server = Server("--quiet", "--max-connections", "2")
        try:
            idle = [socket.create_connection(("127.0.0.1", server.port), timeout=30)
                    for _ in range(2)]
            waiting = socket.create_connection(("127.0.0.1", server.port), timeout=30)
            waiting.sendall(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
            self.assertEqual(select.select([waiting], [], [], 0.5)[0], [])  # not answered yet
            idle[0].close()
            # Answered when the slot is free, well before the other idle one's deadline (5 s).
            waiting.settimeout(4)
            self.assertTrue(waiting.recv(4096).startswith(b"HTTP/1.1 200"))
            for sock in idle[1:] + [waiting]:
                sock.close()
        finally:
            status, _ = server.stop()
        self.assertEqual(status, 0)


class DamagedTableTest(unittest.TestCase):
    def test_error_names_the_folder_not_its_path(self):
        """A damaged table is a 500 naming the file by its folder's name."""
        with tempfile.TemporaryDirectory() as root:
            folder = os.path.join(root, "malom-copy")
            os.mkdir(folder)
            with open(os.path.join(FOLDERS["malom"], "3v3.mtb"), "rb") as f:
                table = bytearray(f.read())
            table[len(table) // 2] ^= 0xFF  # in a block: found when a probe decodes it
            with open(os.path.join(folder, "3v3.mtb"), "wb") as f:
                f.write(table)
            server = Server("--quiet", folders=[folder])
            try:
                rng = random.Random(26)
                errors = []
                for _ in range(300):
                    status, answer = server.get_json(
                        query("/api/v1/probe", position=random_position(rng)))
                    if status == 500:
                        errors.append(answer["error"])
            finally:
                server.stop()
        self.assertTrue(errors)
        for error in errors:
            self.assertTrue(error.startswith("malom-copy/3v3.mtb: checksum mismatch"), error)

    def test_tables_damaged_while_served(self):
        """A byte changed in one table and another table truncated after the server opened
        them: the probes that read them get a 500 naming the file, every other answer is the
        intact folder's, and the server keeps serving."""
        source = FOLDERS["herd3-morabaraba"]
        # 1v1+2+2, 1v2+2+1 and 2v2+1+1 and their moves read neither 3v3 nor 0v1+3+2.
        intact = ["W......./B......./........ w 2 2 0", "W.W...../.B....../........ b 1 2 1",
                  "WW....../BB....../........ w 1 1 2", "W.....W./.B...B../........ w 1 1 0"]
        truncated = ["W......./......../........ b 2 3 0", "......../......../........ w 3 3 0"]
        rng = random.Random(26)
        moving = [random_position(rng) for _ in range(300)]
        with tempfile.TemporaryDirectory() as root:
            folder = os.path.join(root, "herd3-copy")
            os.mkdir(folder)
            for name in os.listdir(source):
                with open(os.path.join(source, name), "rb") as f, \
                        open(os.path.join(folder, name), "wb") as out:
                    out.write(f.read())
            server = Server("--quiet", folders=[folder])
            try:
                self.assertEqual(server.get_json(query("/api/v1/probe", position=intact[0]))[0],
                                 200)
                # In place, so that the open files change under the server.
                table = os.path.join(folder, "3v3.mtb")
                with open(table, "r+b") as f:
                    f.seek(os.path.getsize(table) // 2)
                    byte = f.read(1)
                    f.seek(-1, os.SEEK_CUR)
                    f.write(bytes([byte[0] ^ 0xFF]))
                os.truncate(os.path.join(folder, "0v1+3+2.mtb"), 64)  # within its header
                errors = []
                for position in moving:
                    status, answer = server.get_json(query("/api/v1/probe", position=position))
                    if status == 500:
                        errors.append(answer["error"])
                    else:
                        self.assertEqual(status, 200, answer)
                for position in truncated:
                    with self.subTest(position=position):
                        status, answer = server.get_json(query("/api/v1/probe",
                                                               position=position))
                        self.assertEqual(status, 500, answer)
                        self.assertTrue(answer["error"].startswith(
                            "herd3-copy/0v1+3+2.mtb: the file ends at offset "), answer)
                answers = {}
                for position in intact + moving[:40]:
                    status, answer = server.get_json(query("/api/v1/probe", position=position))
                    if status == 200:
                        answers[position] = without_explorer_fields(answer)
                self.assertEqual(server.get_json("/health"), (200, {"status": "ok"}))
            finally:
                status, _ = server.stop()
            self.assertEqual(status, 0)
        self.assertTrue(errors)
        for error in errors:
            self.assertTrue(error.startswith("herd3-copy/3v3.mtb: checksum mismatch"), error)
        for position in intact:
            self.assertIn(position, answers)
        # Never a wrong answer: what was answered is the intact folder's.
        expected = dict(zip(answers, cli([source], list(answers), "--moves")))
        self.assertEqual(answers, expected)


class SearchTest(unittest.TestCase):
    """Placing positions of a folder of the moving phase only (herd 4's moving tables, linked):
    every route answers them by search as `probe --json` does, the values of the whole game's
    tables marked "proved_by": "search"; a limit reached is a 404 that says so, never a guess."""

    POSITIONS = ["......../......../........ w 4 4 0", "W......./......../........ b 3 4 0",
                 "W.....B./W......B/........ w 2 2 0", "WW.B..../B.W..B../........ b 0 1 0",
                 "W.W...../B.B...../...B.... w 1 1 3"]

    @classmethod
    def setUpClass(cls):
        cls.temp = tempfile.TemporaryDirectory()
        cls.whole = os.path.join(DB_ROOT, "herd4-morabaraba")
        cls.folder = os.path.join(cls.temp.name, "herd4-moving")
        os.mkdir(cls.folder)
        for name in os.listdir(cls.whole):
            if name.endswith(".mtb") and "+" not in name:
                os.symlink(os.path.realpath(os.path.join(cls.whole, name)),
                           os.path.join(cls.folder, name))
        cls.server = Server("--quiet", folders=[cls.folder])

    @classmethod
    def tearDownClass(cls):
        status, _ = cls.server.stop()
        cls.temp.cleanup()
        assert status == 0, f"serve exit status {status}"

    def test_probe_equals_cli_and_the_whole_game(self):
        expected = cli([self.folder], self.POSITIONS, "--moves")
        whole = cli([self.whole], self.POSITIONS)
        for position, want, want_whole in zip(self.POSITIONS, expected, whole):
            with self.subTest(position=position):
                status, got = self.server.get_json(query("/api/v1/probe", position=position))
                self.assertEqual(status, 200, got)
                self.assertEqual(without_explorer_fields(got), want)
                self.assertEqual((got["value"], got["rule_value"]),
                                 (want_whole["value"], want_whole["rule_value"]))
                self.assertEqual(got["proved_by"], "search")
                self.assertGreater(got["search_nodes"], 0)
                for field in ("distance", "plies_to_mill", "best_move", "best_move_pure",
                              "moves", "game_over"):
                    self.assertIsNone(got[field], field)
                status, line = self.server.get_json(query("/api/v1/line", position=position))
                self.assertEqual(status, 200, line)
                self.assertIsNone(line["line"])
                self.assertEqual(line["value"], got["value"])
                status, mainline = self.server.get_json(
                    query("/api/v1/mainline", position=position, pure=1))
                self.assertEqual(status, 200, mainline)
                self.assertIsNone(mainline["mainline"])
                self.assertEqual(mainline["metric"], "pure")
        status, body = self.server.request("POST", "/api/v1/probe",
                                           "\n".join(self.POSITIONS).encode())
        self.assertEqual(status, 200)
        self.assertEqual([without_explorer_fields(json.loads(line))
                          for line in body.decode().splitlines()], expected)

    def test_wdl_equals_cli_and_the_whole_game(self):
        expected = cli([self.folder], self.POSITIONS, "--wdl")
        whole = cli([self.whole], self.POSITIONS, "--wdl")
        status, body = self.server.request("POST", "/api/v1/wdl",
                                           "\n".join(self.POSITIONS).encode())
        self.assertEqual(status, 200)
        self.assertEqual([json.loads(line) for line in body.decode().splitlines()], expected)
        for position, want, want_whole in zip(self.POSITIONS, expected, whole):
            with self.subTest(position=position):
                status, got = self.server.get_json(query("/api/v1/wdl", position=position))
                self.assertEqual((status, got), (200, want))
                self.assertEqual(got.pop("proved_by"), "search")
                self.assertGreater(got.pop("search_nodes"), 0)
                self.assertEqual(got, want_whole)

    def test_limits(self):
        """--search-nodes 1: unknown, a 404 with the fields of `probe --json --search-nodes 1`;
        --search-nodes 0: no search, the moving-only folder's error."""
        start = self.POSITIONS[0]
        want = cli([self.folder], [start], "--moves", "--search-nodes", "1")[0]
        self.assertEqual(want["error"], "unknown within the limit of 1 node")
        server = Server("--quiet", "--search-nodes", "1", folders=[self.folder])
        try:
            status, got = server.get_json(query("/api/v1/probe", position=start))
            self.assertEqual(status, 404, got)
            self.assertEqual(without_explorer_fields(got), want)
            self.assertIsNone(got["value"])
            self.assertIsNone(got["rule_value"])
            status, got = server.get_json(query("/api/v1/wdl", position=start))
            self.assertEqual(status, 404, got)
            self.assertEqual(got, cli([self.folder], [start], "--wdl", "--search-nodes", "1")[0])
            status, body = server.request("POST", "/api/v1/wdl", start.encode())
            self.assertEqual(status, 200)
            self.assertEqual(json.loads(body)["error"], "unknown within the limit of 1 node")
        finally:
            self.assertEqual(server.stop()[0], 0)
        server = Server("--quiet", "--search-nodes", "0", folders=[self.folder])
        try:
            status, got = server.get_json(query("/api/v1/probe", position=start))
            self.assertEqual(status, 404, got)
            self.assertIn("the database holds the moving phase only", got["error"])
        finally:
            self.assertEqual(server.stop()[0], 0)


class WdlOnlyTest(unittest.TestCase):
    """`serve` of WDL-only folders (`export --streams wdl`): /api/v1/wdl answers as `probe
    --json --wdl` of the folder, and as the full folder's where the count does not need the
    plies to the next mill; what needs distances is a 404 saying so."""

    @classmethod
    def setUpClass(cls):
        cls.folder = os.path.join(DB_ROOT, "herd3-morabaraba-wdl")
        cls.server = Server("--quiet", folders=[cls.folder])

    @classmethod
    def tearDownClass(cls):
        status, _ = cls.server.stop()
        assert status == 0, f"serve exit status {status}"

    def test_wdl_equals_cli_and_the_full_folder(self):
        rng = random.Random(25)
        positions = ([random_position(rng) for _ in range(80)] +
                     [random_position(rng, placing=True) for _ in range(40)])
        expected = cli([self.folder], positions, "--wdl")
        full = cli([FOLDERS["herd3-morabaraba"]], positions, "--wdl")
        unknown = 0
        for position, want, want_full in zip(positions, expected, full):
            with self.subTest(position=position):
                if want.get("rule_value_error"):  # the server names the folder, not its path
                    want["rule_value_error"] = want["rule_value_error"].replace(
                        os.path.dirname(self.folder) + "/", "")
                status, got = self.server.get_json(query("/api/v1/wdl", position=position))
                self.assertEqual((status, got), (200, want))
                self.assertEqual(got["value"], want_full["value"])
                if got["rule_value"] is None:
                    unknown += 1
                    self.assertIn("herd3-morabaraba-wdl/", got["rule_value_error"])
                    self.assertIn("needs the plies to the next mill", got["rule_value_error"])
                    self.assertNotIn(DB_ROOT, got["rule_value_error"])
                else:
                    self.assertEqual(got["rule_value"], want_full["rule_value"])
        self.assertGreater(unknown, 0)
        self.assertLess(unknown, len(positions))

    def test_distances_are_not_found(self):
        start = "......../......../........ w 3 3 0"
        for path in ("/api/v1/probe", "/api/v1/line", "/api/v1/mainline"):
            with self.subTest(path=path):
                status, answer = self.server.get_json(query(path, position=start))
                self.assertEqual(status, 404, answer)
                self.assertIn("distances are not in this folder", answer["error"])
                self.assertTrue(answer["error"].startswith("herd3-morabaraba-wdl/"), answer)
        status, body = self.server.request("POST", "/api/v1/probe", start.encode())
        self.assertEqual(status, 200)
        error = json.loads(body)["error"]
        self.assertIn("distances are not in this folder", error)
        self.assertTrue(error.startswith("herd3-morabaraba-wdl/"), error)
        status, info = self.server.get_json("/api/v1/info")
        self.assertEqual(status, 200)
        self.assertIs(info["databases"][0]["wdl_only"], True)
        status, answer = self.server.get_json(query("/api/v1/wdl", position=start, pure=1))
        self.assertEqual(status, 400)
        self.assertIn("unknown parameter 'pure'", answer["error"])


class StopTest(unittest.TestCase):
    def test_sigint(self):
        server = Server("--quiet")
        self.assertEqual(server.get_json("/health")[0], 200)
        status, log = server.stop(signal.SIGINT)
        self.assertEqual(status, 0)
        self.assertFalse([line for line in log if LOG_LINE.match(line)])  # --quiet
        self.assertEqual(log[-1], "stopped")

    def test_sigterm_with_open_connections(self):
        """Idle and half-sent connections do not hold a stopping server until their deadline."""
        server = Server("--quiet")
        sockets = [socket.create_connection(("127.0.0.1", server.port), timeout=30)
                   for _ in range(3)]
        sockets[0].sendall(b"GET /health HTTP/1.1\r\nHo")
        sockets[1].sendall(b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
        self.assertTrue(sockets[1].recv(4096).startswith(b"HTTP/1.1 200"))
        status, log = server.stop(timeout=4)
        self.assertEqual(status, 0)
        self.assertEqual(log[-1], "stopped")
        # Closed either way: an end of stream, or a reset where the server closed a
        # connection before reading what it was sent or before accepting it.
        for sock in sockets:
            try:
                self.assertEqual(sock.recv(4096), b"")
            except ConnectionResetError:
                pass
            sock.close()

    def test_signal_as_soon_as_announced(self):
        """A SIGTERM sent the moment the port is announced, while the server may still be
        starting to listen, stops it too (it used to be lost a few times in a hundred)."""
        hung = 0
        for _ in range(100):
            server = Server("--quiet")
            try:
                status, _ = server.stop(timeout=3)
                self.assertEqual(status, 0)
            except subprocess.TimeoutExpired:
                hung += 1
                server.process.kill()
                server.process.wait()
        self.assertEqual(hung, 0)

    def test_bad_options(self):
        db = ["--db", FOLDERS["malom"]]
        taken = socket.socket()
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        for args, message in [(db + ["--port", "70000"], "--port"),
                              (db + ["--threads", "0"], "--threads"),
                              (["--db", "/nonexistent"], "/nonexistent"),
                              (db + ["--port", port], f"cannot listen on 127.0.0.1:{port}"),
                              (db + ["--bind", "256.0.0.1"], "cannot listen on 256.0.0.1")]:
            with self.subTest(args=args[2:]):
                run = subprocess.run([TOOL, "serve", *args], capture_output=True, text=True,
                                     timeout=30)
                self.assertNotEqual(run.returncode, 0)
                self.assertIn(message, run.stderr)
        taken.close()


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
