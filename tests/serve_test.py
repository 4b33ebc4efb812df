"""`morabaraba serve` on the probe_db fixture's databases (ctest serve), with the standard
library only: its answers equal `probe --json` for a few hundred positions, every error status
is provoked, bad input (huge query strings, non-UTF-8 bytes, a body of 100 MB, slow clients) is
answered or refused while it keeps serving, 8 clients at once, one log line per request, and
SIGTERM and SIGINT stop it cleanly.

    serve_test.py MORABARABA DB_ROOT
"""

import http.client
import json
import os
import random
import re
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

    def __init__(self, *extra):
        args = [TOOL, "serve", "--port", "0", "--threads", "8", *extra]
        for f in FOLDERS.values():
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


def without_explorer_fields(answer):
    """The server's probe answer in the form of `probe --json --moves`, without what it adds
    for the explorer: the position each move leads to, its flags, and game_over."""
    answer = {k: v for k, v in answer.items() if k != "game_over"}
    if "moves" in answer:
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

    def test_probe_and_line_equal_cli(self):
        for rules, (folders, positions) in self.cases.items():
            expected = cli(folders, positions, "--moves")
            lines = cli(folders, positions, "--line")
            self.assertEqual(len(expected), len(positions))
            for position, want, want_line in zip(positions, expected, lines):
                with self.subTest(rules=rules, position=position):
                    status, got = self.server.get_json(
                        query("/api/v1/probe", position=position, rules=rules))
                    if "error" in want:
                        self.assertIn(status, (400, 404))
                        self.assertEqual(got, {"error": want["error"]})
                        continue
                    self.assertEqual(status, 200)
                    self.assertEqual(without_explorer_fields(got), want)
                    status, line = self.server.get_json(
                        query("/api/v1/line", position=position, rules=rules))
                    self.assertEqual((status, line), (200, want_line))

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
            self.assertEqual(got, cli(folders, positions, "--moves"))

    def test_pure(self):
        """pure=1 orders the moves and plays the line by pure distance, as `probe --pure` does,
        on every endpoint that does either; pure=0 is the default; another value is a 400."""
        folders, positions = self.cases["morabaraba"]
        positions = positions[:40]
        for pure, flags in (("1", ["--pure"]), ("0", [])):
            expected = cli(folders, positions, "--moves", *flags)
            lines = cli(folders, positions, "--line", *flags)
            for position, want, want_line in zip(positions, expected, lines):
                if "error" in want:
                    continue
                with self.subTest(position=position, pure=pure):
                    self.assertEqual(want["metric"], "pure" if pure == "1" else "rule")
                    status, got = self.server.get_json(
                        query("/api/v1/probe", position=position, pure=pure))
                    self.assertEqual((status, without_positions_after(got)), (200, want))
                    status, line = self.server.get_json(
                        query("/api/v1/line", position=position, pure=pure))
                    self.assertEqual((status, line), (200, want_line))
            status, body = self.server.request(
                "POST", query("/api/v1/probe", pure=pure), "\n".join(positions).encode())
            self.assertEqual(status, 200)
            self.assertEqual([json.loads(b) for b in body.decode().splitlines()], expected)
        for path in ("/api/v1/probe", "/api/v1/line"):
            status, got = self.server.get_json(query(path, position=positions[0], pure="yes"))
            self.assertEqual((status, got), (400, {"error": "the parameter 'pure' is 0 or 1, "
                                                            "not 'yes'"}))
        status, body = self.server.request("POST", query("/api/v1/probe", pure="2"), b"x\n")
        self.assertEqual(status, 400, body)

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
        names = {s["name"] for s in databases["morabaraba"]["subspaces"]}
        self.assertIn("3v3", names)
        self.assertIn("0v0+3+3", names)
        board = databases["morabaraba"]["board"]
        self.assertEqual(len(board["points"]), 24)
        self.assertEqual(len(board["lines"]), 20)  # with the diagonals
        self.assertEqual(board["points"][0], {"name": "a7", "x": 0, "y": 0})
        self.assertIn(["a7", "b6", "c5"], board["lines"])

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
             None, 404, "subspace 4v3 is not in the database"),
            ("GET", query("/api/v1/line", position=herd3_start, rules="malom"), None, 404,
             "moving phase only"),
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


class StopTest(unittest.TestCase):
    def test_sigint(self):
        server = Server("--quiet")
        self.assertEqual(server.get_json("/health")[0], 200)
        status, log = server.stop(signal.SIGINT)
        self.assertEqual(status, 0)
        self.assertFalse([line for line in log if LOG_LINE.match(line)])  # --quiet
        self.assertEqual(log[-1], "stopped")

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
