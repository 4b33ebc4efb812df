"""`morabaraba serve` under load (ctest serve_load), on loopback, bounded in count and time:
1,000 connections open at once, each sending requests, all answered correctly; 200 slow or
silent clients holding connections while a well-behaved client's requests are each answered
promptly, and all of them dropped at their deadline. cpp-httplib's thread per connection lost
answers to 200 connections opened at once, and 8 slow clients delayed every request by 15 s.

    serve_load_test.py MORABARABA DB_ROOT
"""

import asyncio
import json
import os
import random
import socket
import statistics
import sys
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from serve_test import (FOLDERS, Server, cli, query, random_position,  # noqa: E402
                        without_explorer_fields)

DEADLINE = 5  # seconds a client has to send a request (tools/http_server.h)


async def read_response(reader):
    """(status, body) of one response with a Content-Length."""
    status = int((await reader.readline()).split()[1])
    length = 0
    while (line := await reader.readline()) != b"\r\n":
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    return status, await reader.readexactly(length)


class LoadTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        rng = random.Random(26)
        folders = [FOLDERS["morabaraba"], FOLDERS["herd3-morabaraba"]]
        cls.positions = [random_position(rng) for _ in range(100)]
        cls.expected = dict(zip(cls.positions, cli(folders, cls.positions, "--moves")))

    def check(self, position, status, body):
        """Whether `body` is the server's right answer for `position`."""
        want = self.expected[position]
        got = json.loads(body)
        if "error" in want:
            return status in (400, 404) and got == {"error": want["error"]}
        return status == 200 and without_explorer_fields(got) == want

    def test_thousand_connections(self):
        """All 1,000 connected before any sends; then each sends three requests, keep-alive."""
        server = Server("--quiet")
        failures, answered = [], []

        async def run():
            connections = await asyncio.gather(*(
                asyncio.open_connection("127.0.0.1", server.port) for _ in range(1000)))

            async def client(i, reader, writer):
                for k in range(3):
                    position = self.positions[(3 * i + k) % len(self.positions)]
                    path = query("/api/v1/probe", position=position)
                    writer.write(b"GET %s HTTP/1.1\r\nHost: load\r\n\r\n" % path.encode())
                    status, body = await read_response(reader)
                    answered.append(i)
                    if not self.check(position, status, body):
                        failures.append((i, position, status))
                writer.close()
                await writer.wait_closed()

            await asyncio.wait_for(
                asyncio.gather(*(client(i, *c) for i, c in enumerate(connections))), timeout=60)

        try:
            asyncio.run(run())
        finally:
            status, _ = server.stop()
        self.assertEqual(failures, [])
        self.assertEqual(len(answered), 3000)
        self.assertEqual(status, 0)

    def test_slow_and_silent_clients(self):
        """100 silent connections and 100 sending a byte a second do not delay a client that
        sends its requests whole; each of the 200 is dropped at its deadline."""
        server = Server("--quiet")
        start = time.monotonic()
        silent = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(100)]
        slow = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(100)]
        stop_trickling = threading.Event()

        def trickle():
            request = b"GET /health HTTP/1.1\r\nHost: slow\r\nX-Filler: " + b"a" * 100
            for byte in range(len(request)):
                for sock in slow:
                    try:
                        sock.send(request[byte:byte + 1])
                    except OSError:  # dropped
                        pass
                if stop_trickling.wait(1):
                    return

        trickler = threading.Thread(target=trickle)
        trickler.start()
        latencies = []
        try:
            while time.monotonic() - start < DEADLINE - 1.5:
                position = self.positions[len(latencies) % len(self.positions)]
                sent = time.monotonic()
                status, body = server.request("GET", query("/api/v1/probe", position=position))
                latencies.append(time.monotonic() - sent)
                self.assertTrue(self.check(position, status, body), position)
                time.sleep(0.02)
            # The 200 were held while the client was answered: none is closed before its
            # deadline.
            self.assertLess(time.monotonic() - start, DEADLINE)
            for sock in silent + slow:
                sock.setblocking(False)
                with self.assertRaises(BlockingIOError):
                    sock.recv(1)
            # And each is closed at its deadline, without an answer.
            for sock in silent + slow:
                sock.setblocking(True)
                sock.settimeout(max(0.1, start + DEADLINE + 10 - time.monotonic()))
                self.assertEqual(sock.recv(4096), b"")
        finally:
            stop_trickling.set()
            trickler.join()
            for sock in silent + slow:
                sock.close()
            status, _ = server.stop()
        self.assertEqual(status, 0)
        # The bound is 100 ms a request. The machine these tests run on has 2 cores
        # shared with long solves and builds, where a process can wait for a core for tens of
        # milliseconds: the median must meet the bound and every request a bound 5 times it,
        # which still tells the old server apart by far (15 s and more a request).
        print(f"\n{len(latencies)} requests beside 200 slow or silent clients: median "
              f"{statistics.median(latencies) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms",
              file=sys.stderr)
        self.assertGreater(len(latencies), 20)
        self.assertLess(statistics.median(latencies), 0.1)
        self.assertLess(max(latencies), 0.5)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
