"""The explorer in headless Chromium (ctest explorer): `morabaraba serve` on a free port, the
page loaded from it, a move played by clicking its row, one by clicking the board, back and
forward, a row played from the keyboard, a position typed in and a bad one; the board, the move
list, the best line and the URL must follow the server's answers, and every request the page
makes must go to the server itself. Driven over the Chrome DevTools protocol on
--remote-debugging-pipe with the standard library only; the screenshots go to OUT_DIR. Exit
status 77 (skipped) where Chromium is not installed.

    explorer_test.py MORABARABA DB_ROOT OUT_DIR
"""

import base64
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

TOOL, DB_ROOT, OUT_DIR = sys.argv[1:4]
START = "......../......../........ w 3 3 0"


class Browser:
    """Headless Chromium and one page of it, over the DevTools protocol's pipe (fd 3: commands
    to the browser, fd 4: its answers and events, each message ended by a zero byte)."""

    def __init__(self, chromium, profile):
        to_browser, self._to_browser = os.pipe()
        self._from_browser, from_browser = os.pipe()

        def pipes():
            # Through copies above 4: a pipe end may itself be fd 3 or 4, which dup2 would
            # leave closed on exec (or overwrite).
            ends = os.dup(to_browser), os.dup(from_browser)
            os.dup2(ends[0], 3)
            os.dup2(ends[1], 4)

        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--no-first-run", "--window-size=1200,900", f"--user-data-dir={profile}",
             "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=False,
            preexec_fn=pipes)
        os.close(to_browser)
        os.close(from_browser)
        self._buffer, self._next_id, self.events = b"", 0, []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"]
        for domain in ("Page", "Runtime", "Network"):
            self.call(f"{domain}.enable", session=True)

    def _message(self, deadline):
        while b"\0" not in self._buffer:
            ready, _, _ = select.select([self._from_browser], [], [], max(0, deadline - time.monotonic()))
            if not ready:
                raise TimeoutError("Chromium did not answer")
            chunk = os.read(self._from_browser, 1 << 20)
            if not chunk:
                raise EOFError("Chromium closed its pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, session=False, **params):
        self._next_id += 1
        command = {"id": self._next_id, "method": method, "params": params}
        if session:
            command["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(command).encode() + b"\0")
        deadline = time.monotonic() + 30
        while True:
            message = self._message(deadline)
            if message.get("id") == self._next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message["result"]
            self.events.append(message)

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", session=True, expression=expression,
                           returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def click(self, selector):
        """A real mouse click (pressed and released) at the middle of the element."""
        x, y = self.evaluate(
            f"(() => {{ const r = document.querySelector({json.dumps(selector)})"
            ".getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", session=True, type=kind, x=x, y=y,
                      button="left", clickCount=1)

    def page(self, shown, timeout=20, with_line=True):
        """What the page shows once it has drawn `shown` (its body's data-shown) and, when
        `with_line`, its best line."""
        deadline = time.monotonic() + timeout
        while True:
            state = self.evaluate("""!document.getElementById('board') ? '{}' : JSON.stringify({
                shown: document.body.dataset.shown,
                url: location.href,
                board: document.getElementById('board').dataset.position,
                cows: [...document.querySelectorAll('#board g')].filter(g => g.querySelector('.cow'))
                      .map(g => g.dataset.point + (g.querySelector('.cow.W') ? 'W' : 'B')),
                moves: [...document.querySelectorAll('#moves tbody tr')].map(r => r.textContent),
                value: document.getElementById('value').textContent,
                error: document.getElementById('error').textContent,
                line: [...document.querySelectorAll('#line li')].map(li => li.textContent)})""")
            state = json.loads(state)
            if state.get("shown") == shown and (state["line"] or not with_line):
                return state
            if time.monotonic() > deadline:
                raise TimeoutError(f"the page did not show {shown!r}: {state}")
            time.sleep(0.05)

    def type_into(self, selector, text):
        """Replaces the text of an input field, as typing it would (the field focused, its
        text selected and typed over)."""
        self.evaluate(f"document.querySelector({json.dumps(selector)}).select()")
        self.call("Input.insertText", session=True, text=text)

    def screenshot(self, path):
        data = self.call("Page.captureScreenshot", session=True, format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(data))

    def close(self):
        try:
            self.call("Browser.close")
        except (EOFError, TimeoutError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_browser)
        os.close(self._from_browser)


def get_json(origin, path, position):
    """The server's answer for `position` at `path`, whatever its status."""
    try:
        with urllib.request.urlopen(
                f"{origin}{path}?{urllib.parse.urlencode({'position': position})}") as r:
            return json.load(r)
    except urllib.error.HTTPError as e:
        return json.load(e)


def main():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("explorer test skipped: Chromium is not installed (apt-get install chromium)")
        return 77
    os.makedirs(OUT_DIR, exist_ok=True)
    server = subprocess.Popen([TOOL, "serve", "--port", "0", "--quiet",
                               "--db", os.path.join(DB_ROOT, "herd3-morabaraba")],
                              stdout=subprocess.PIPE, text=True)
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)
            print(f"explorer: FAILED: {what}", file=sys.stderr)

    with tempfile.TemporaryDirectory() as profile:
        browser = None
        try:
            origin = re.match(r"listening on (http://[0-9.:]+)/", server.stdout.readline()).group(1)
            start = get_json(origin, "/api/v1/probe", START)
            browser = Browser(chromium, profile)
            browser.call("Page.navigate", session=True,
                         url=f"{origin}/?{urllib.parse.urlencode({'position': START})}")
            before = browser.page(START)
            browser.screenshot(os.path.join(OUT_DIR, "1-start.png"))
            check(before["cows"] == [], f"cows on the empty board: {before['cows']}")
            check(len(before["moves"]) == 24, f"{len(before['moves'])} moves listed, not 24")
            check(before["value"].startswith("White to move: win in 9"), before["value"])
            check(before["moves"][0].startswith(start["moves"][0]["move"] + "win9"),
                  f"first row {before['moves'][0]!r}, best move {start['moves'][0]}")

            # A click on the best move's row plays it.
            first = start["moves"][0]
            browser.click("#moves tbody tr")
            after = browser.page(first["position"])
            browser.screenshot(os.path.join(OUT_DIR, "2-after-row-click.png"))
            check(after["board"] == first["position"], f"board shows {after['board']}")
            check(after["cows"] == [first["move"] + "W"], f"cows after {first['move']}: {after['cows']}")
            check(after["moves"] != before["moves"] and len(after["moves"]) == 23,
                  f"move list after the click: {after['moves'][:3]}")
            check(urllib.parse.parse_qs(urllib.parse.urlsplit(after["url"]).query)["position"] ==
                  [first["position"]], f"URL {after['url']}")
            check(after["value"].startswith("Black to move: loss in 8"), after["value"])

            # A click on a point of the board places Black's cow there.
            reply = get_json(origin, "/api/v1/probe", first["position"])
            placement = next(m for m in reply["moves"] if "x" not in m["move"])
            browser.click(f'#board g[data-point="{placement["move"]}"] circle')
            placed = browser.page(placement["position"])
            browser.screenshot(os.path.join(OUT_DIR, "3-after-board-click.png"))
            check(sorted(placed["cows"]) == sorted([first["move"] + "W", placement["move"] + "B"]),
                  f"cows after the board click: {placed['cows']}")

            # The best line is the server's.
            line = get_json(origin, "/api/v1/line", placement["position"])["line"]
            check(placed["line"] == line, f"best line {placed['line']}, the server's {line}")

            # Back twice: the start again, from the browser's history; forward once.
            browser.click("#back")
            check(browser.page(first["position"])["cows"] == after["cows"], "back once")
            browser.click("#back")
            check(browser.page(START)["moves"] == before["moves"], "back to the start")
            browser.click("#forward")
            check(browser.page(first["position"])["moves"] == after["moves"], "forward")

            # A move's row played from the keyboard: focused, Enter.
            second = reply["moves"][1]
            browser.evaluate("document.querySelectorAll('#moves tbody tr')[1].focus()")
            for kind in ("keyDown", "keyUp"):
                browser.call("Input.dispatchKeyEvent", session=True, type=kind, key="Enter",
                             code="Enter", windowsVirtualKeyCode=13)
            keyed = browser.page(second["position"])
            check(sorted(keyed["cows"]) == sorted(after["cows"] + [second["move"] + "B"]),
                  f"Enter on {second['move']}: {keyed['cows']}")

            # A position typed in: shown, and in the URL; a bad one: the server's error.
            typed = placed["board"]
            browser.type_into("#position-input", typed)
            browser.click("#goto button")
            shown = browser.page(typed)
            check(shown["cows"] == placed["cows"] and shown["moves"] == placed["moves"],
                  f"typed position: {shown}")
            check(urllib.parse.parse_qs(urllib.parse.urlsplit(shown["url"]).query)["position"] ==
                  [typed], f"URL {shown['url']}")
            browser.type_into("#position-input", "nonsense")
            browser.click("#goto button")
            refused = browser.page("nonsense", with_line=False)
            error = get_json(origin, "/api/v1/probe", "nonsense")["error"]
            check(refused["error"] == error and refused["moves"] == [],
                  f"bad position: {refused['error']!r}, the server's {error!r}")
            browser.screenshot(os.path.join(OUT_DIR, "4-bad-position.png"))

            # Every request went to the server itself.
            requested = [e["params"]["request"]["url"] for e in browser.events
                         if e.get("method") == "Network.requestWillBeSent"]
            check(requested and all(u.startswith(origin + "/") for u in requested),
                  f"requests elsewhere: {[u for u in requested if not u.startswith(origin)]}")
        finally:
            if browser:
                browser.close()
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=10)
    if failures:
        return 1
    print(f"explorer: all passed; screenshots in {OUT_DIR}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
