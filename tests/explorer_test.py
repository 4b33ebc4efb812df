"""The explorer in headless Chromium (ctest explorer): `morabaraba serve` on a free port, the
page loaded from it and driven with real clicks: moves played by their rows, the board and the
keyboard, back and forward, positions typed in; a position set up with the editor; a game
against the database played to its end and taken back; the pure/rule toggle; a statistics page
and its longest-win link; the Koti board and an mssa-1 position with a bar; a cursed win; every
rule set served opened from its name; the first paint while the API is held unanswered; a
360 px wide viewport. What the page shows must follow the server's and the command line's
answers, and every request it makes must go to the server itself. Driven over the Chrome
DevTools protocol on --remote-debugging-pipe with the standard library only; the screenshots go
to OUT_DIR. Exit status 77 (skipped) where Chromium is not installed. The house rules' folders
are DB_ROOT's herd-3 whole game and m+o <= 8, or the two given (ctest -R OutOfCi: herd 5's
whole game and m+o <= 10); the herd is the whole-game folder's.

    explorer_test.py MORABARABA DB_ROOT OUT_DIR [WHOLE_GAME_FOLDER MOVING_FOLDER]
"""

import base64
import itertools
import json
import random
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
HOUSE = sys.argv[4:6] or [os.path.join(DB_ROOT, f) for f in ("herd3-morabaraba", "morabaraba-8")]
KOTI_START = "......../......../......../. w 3 3 0"
HERD = START = None  # main(): the whole-game folder's herd and its start
KOTI = os.path.join(DB_ROOT, "herd3-koti")
MSSA = os.path.join(DB_ROOT, "mssa-1")
# Every other rule set of the fixture, for every_preset().
OTHERS = [KOTI, MSSA] + [os.path.join(DB_ROOT, f)
                         for f in ("malom", "house-003", "herd3-msa-tournament")]
# Issue 25's position: the best move under the rules (a1-a7) is not the pure one (a4-b2xf6).
ISSUE_25 = ".B....WW/..BB..../...BB.W. w 0 0 0"
MSSA_BAR = "W.WB..../WWW...../....B.B. w 0 0 0 bar:w:a7-d7-g7"
# Won in 3 in the pure game, but mssa-1 draws 3v3 after 10 plies without a shot.
CURSED = "B..B..W./....B..W/....W... b 0 0 8"


# How long the page may take to draw: on a 2-core machine that runs ctest's other test beside
# this one, Chromium has taken seconds.
PATIENCE = 30


def poll(read, done, timeout=PATIENCE):
    """read() every 50 ms until done(its value) or `timeout` seconds pass; its last value."""
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if done(value) or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


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
        deadline = time.monotonic() + PATIENCE
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
        """A real mouse click (pressed and released) at the middle of the element, scrolled
        into view first."""
        x, y = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
            " return [r.x + r.width / 2, r.y + r.height / 2]; })()")
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", session=True, type=kind, x=x, y=y,
                      button="left", clickCount=1)

    def page(self, shown, with_line=True):
        """What the page shows once it has drawn `shown` (its body's data-shown) and, when
        `with_line`, its best line."""
        def ready(state):
            return state.get("shown") == shown and (state["line"] or not with_line or state["error"])

        state = poll(lambda: json.loads(self.evaluate("""!(document.body && document.body.dataset.shown &&
                document.getElementById('board')) ? '{}' : JSON.stringify({
                shown: document.body.dataset.shown,
                url: location.href,
                board: document.getElementById('board').dataset.position,
                cows: [...document.querySelectorAll('#board g')].filter(g => g.querySelector('.cow'))
                      .map(g => g.dataset.point + (g.querySelector('.cow.W') ? 'W' : 'B')),
                moves: [...document.querySelectorAll('#moves tr[data-move]')].map(r => r.dataset.move),
                rows: [...document.querySelectorAll('#moves tr[data-move]')].map(r => r.textContent),
                value: document.getElementById('value').textContent,
                error: document.getElementById('error').textContent,
                status: document.getElementById('status').textContent,
                sides: document.getElementById('sides').textContent,
                line: [...document.querySelectorAll('#line li[data-move]')].map(li => li.dataset.move),
                game: [...document.querySelectorAll('#game li')].map(li => li.dataset.move),
                result: document.getElementById('result').textContent,
                last: document.getElementById('board').dataset.lastMove})""")),
            ready)
        if not ready(state):
            raise TimeoutError(f"the page did not show {shown!r}: {state}")
        return state

    def drawn(self, shown):
        """Waits until a page without a board (the statistics) has drawn `shown`."""
        if poll(lambda: self.evaluate("document.body && document.body.dataset.shown"),
                lambda drawn: drawn == shown) != shown:
            raise TimeoutError(f"the page did not draw {shown!r}")

    def type_into(self, selector, text):
        """Replaces the text of an input field, as typing it would (the field focused, its
        text selected and typed over)."""
        self.evaluate(f"document.querySelector({json.dumps(selector)}).select()")
        self.call("Input.insertText", session=True, text=text)

    def navigate(self, url):
        self.evaluate("document.body && delete document.body.dataset.shown")
        self.call("Page.navigate", session=True, url=url)

    def redraw(self, action):
        """Runs `action` (a click) after forgetting what the page last drew, so that page()
        waits for the page to draw again, even the same position."""
        self.evaluate("delete document.body.dataset.shown")
        action()

    def set_value(self, selector, value):
        """Sets a form field as a user would: focused, its text typed over, left (a change)."""
        self.evaluate(f"document.querySelector({json.dumps(selector)}).focus()")
        self.type_into(selector, value)
        self.evaluate(f"document.querySelector({json.dumps(selector)}).blur()")

    def width(self, pixels):
        self.call("Emulation.setDeviceMetricsOverride", session=True, width=pixels, height=800,
                  deviceScaleFactor=1, mobile=pixels < 500)

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


def get_json(origin, path, position=None, **params):
    """The server's answer for `position` (None: a path that takes none) at `path`, whatever its
    status."""
    if position is not None:
        params = {"position": position, **params}
    query = urllib.parse.urlencode(params)
    try:
        with urllib.request.urlopen(f"{origin}{path}?{query}") as r:
            return json.load(r)
    except urllib.error.HTTPError as e:
        return json.load(e)


def cli(folders, *args):
    """The command line's JSON answer."""
    db = [a for f in folders for a in ("--db", f)]
    return json.loads(subprocess.run([TOOL, *args, *db], capture_output=True, text=True).stdout)


def described(side, answer):
    """The page's words for a probe answer (explorer.js, describe())."""
    text = f"{side} to move: {answer['value']}"
    if answer["distance"] is not None:
        text += f" in {answer['distance']} {'ply' if answer['distance'] == 1 else 'plies'}"
    return text


def colour(position):
    """The side to move of a position string, as the page names it."""
    return "White" if position.split()[1] == "w" else "Black"


def url(origin, position, **params):
    return f"{origin}/?{urllib.parse.urlencode({'position': position, **params})}"


def start_of(herd):
    return f"......../......../........ w {herd} {herd} 0"


def first_clicks(browser, origin, check):
    """Moves by a row, the board and the keyboard; back and forward; typed positions."""
    start = get_json(origin, "/api/v1/probe", START)
    browser.navigate(url(origin, START))
    before = browser.page(START)
    browser.screenshot(os.path.join(OUT_DIR, "1-start.png"))
    check(before["cows"] == [], f"cows on the empty board: {before['cows']}")
    check(len(before["moves"]) == 24, f"{len(before['moves'])} moves listed, not 24")
    check(before["value"].startswith(described("White", cli(HOUSE, "probe", "--json", START))),
          before["value"])
    best = start["moves"][0]
    check(before["moves"][0] == best["move"] and before["rows"][0].startswith(
        best["move"] + best["value"] + ("" if best["distance"] is None else f" {best['distance']}")),
          f"first row {before['rows'][0]!r}, best move {best}")
    check(before["sides"].startswith(f"White: 0 on the board, {HERD} in hand (to move)"),
          before["sides"])

    # A click on the best move's row plays it; the move is marked on the board.
    first = start["moves"][0]
    browser.click("#moves tr[data-move]")
    after = browser.page(first["position"])
    browser.screenshot(os.path.join(OUT_DIR, "2-after-row-click.png"))
    check(after["board"] == first["position"], f"board shows {after['board']}")
    check(after["cows"] == [first["move"] + "W"], f"cows after {first['move']}: {after['cows']}")
    check(after["last"] == first["move"], f"last move marked: {after['last']!r}")
    check(after["moves"] != before["moves"] and len(after["moves"]) == 23,
          f"move list after the click: {after['moves'][:3]}")
    check(urllib.parse.parse_qs(urllib.parse.urlsplit(after["url"]).query)["position"] ==
          [first["position"]], f"URL {after['url']}")
    check(after["value"].startswith(
        described("Black", cli(HOUSE, "probe", "--json", first["position"]))), after["value"])

    # A click on a point of the board places Black's cow there.
    reply = get_json(origin, "/api/v1/probe", first["position"])
    placement = next(m for m in reply["moves"] if "x" not in m["move"])
    browser.click(f'#board g[data-point="{placement["move"]}"] circle.hit')
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
    browser.evaluate("document.querySelectorAll('#moves tr[data-move]')[1].focus()")
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


def first_paint(browser, origin, check):
    """While every request to the API is held unanswered, the board already shows the URL's
    position: the first paint waits for no fetch."""
    browser.call("Fetch.enable", session=True, patterns=[{"urlPattern": "*/api/*"}])
    position = "W.W...../B......./B..B..W. w 0 0 0"
    browser.navigate(url(origin, position))
    # The paint may come before the page's first request reaches the browser's Fetch domain:
    # wait for both, the event being read only while the browser is asked something.
    cows, held = poll(
        lambda: (browser.evaluate("document.querySelectorAll('#board .cow').length"),
                 [e for e in browser.events if e.get("method") == "Fetch.requestPaused"]),
        lambda state: state[0] == 6 and state[1])
    check(cows == 6 and held, f"the first paint with the API held: {cows} cows, {len(held)} held")
    browser.screenshot(os.path.join(OUT_DIR, "0-first-paint.png"))
    browser.call("Fetch.disable", session=True)  # lets the held requests go on
    browser.page(position, with_line=False)


def editor(browser, origin, check):
    """A placing position set up with clicks and fields; then an illegal one."""
    browser.navigate(url(origin, START))
    browser.page(START)
    browser.click("#edit")
    browser.redraw(lambda: browser.click("#edit-clear"))
    browser.page(START, with_line=False)
    points = [p["name"] for p in get_json(origin, "/api/v1/info")["databases"][0]["board"]["points"]]
    # a7 once (White), g1 once (White), d6 twice (Black).
    for point, clicks in (("a7", 1), ("g1", 1), ("d6", 2)):
        for _ in range(clicks):
            browser.redraw(lambda: browser.click(f'#board g[data-point="{point}"] circle.hit'))
            browser.page(browser.evaluate("document.getElementById('position-input').value"),
                         with_line=False)
    browser.evaluate("(() => { const s = document.getElementById('edit-side'); s.value = 'b';"
                     " s.dispatchEvent(new Event('change')); })()")
    for selector, value in (("#edit-white-hand", "1"), ("#edit-black-hand", "2"),
                            ("#edit-count", "3")):
        browser.set_value(selector, value)
    squares = ["W" if p in ("a7", "g1") else "B" if p == "d6" else "." for p in points]
    expected = "/".join("".join(squares[i:i + 8]) for i in range(0, 24, 8)) + " b 1 2 3"
    shown = browser.page(expected)
    browser.screenshot(os.path.join(OUT_DIR, "5-editor.png"))
    check(shown["board"] == expected, f"the editor made {shown['board']!r}, not {expected!r}")
    answer = cli(HOUSE, "probe", "--json", expected)
    check(shown["value"].startswith(described("Black", answer)),
          f"editor's position: {shown['value']!r}, the command line's {answer}")
    # Its Sanmill FEN is `show`'s; swap colours, then the FEN imported gives it back.
    shown_cli = subprocess.run([TOOL, "show", "--herd", str(HERD), "--position", expected],
                               capture_output=True, text=True).stdout
    fen = re.search(r"^sanmill \(herd \d+\): (.*)$", shown_cli, re.M).group(1)
    page_fen = poll(lambda: browser.evaluate("document.getElementById('sanmill').value"),
                    lambda shown: shown == fen)
    check(page_fen == fen, f"Sanmill FEN {page_fen!r}, show's {fen!r}")
    swapped = expected.translate(str.maketrans("WB", "BW")).replace(" b 1 2 3", " w 2 1 3")
    browser.click("#edit-swap")
    check(browser.page(swapped, with_line=False)["board"] == swapped, "swap colours")
    browser.set_value("#sanmill", fen)
    browser.click("#sanmill-import")
    check(browser.page(expected, with_line=False)["board"] == expected, "the Sanmill FEN imported")
    # Too many white cows for the herd: the command line's message.
    browser.set_value("#edit-white-hand", str(HERD))
    bad = expected.replace(" b 1 2 3", f" b {HERD} 2 3")
    refused = browser.page(bad, with_line=False)
    error = cli(HOUSE, "probe", "--json", bad).get("error")
    check(error and refused["error"] == error, f"illegal set-up: {refused['error']!r}, CLI {error!r}")
    browser.click("#edit-done")


def press(browser, key, code=None):
    """A key pressed and released on the page (not in a field)."""
    browser.evaluate("document.activeElement && document.activeElement.blur()")
    for kind in ("keyDown", "keyUp"):
        browser.call("Input.dispatchKeyEvent", session=True, type=kind, key=key,
                     code=code or key, text=key if len(key) == 1 else "")


def random_moving(rng, count):
    """A random position of the house rules' fixture (3 to 5 cows a side) at `count`."""
    board = ["."] * 24
    cows = rng.randint(3, 5), rng.randint(3, 3)
    for i, p in enumerate(rng.sample(range(24), sum(cows))):
        board[p] = "W" if i < cows[0] else "B"
    return "/".join("".join(board[8 * r:8 * r + 8]) for r in range(3)) + f" {rng.choice('wb')} 0 0 {count}"


def moves_and_keys(browser, origin, check):
    """The moves grouped as syzygy-tables.info groups them (cursed wins and blessed losses
    apart), equal moves folded, each move a link with a preview on the board; the keys (space,
    arrows, Home, End, f, ?); a line exported and its link played back; a placement in the
    editor taken from the hand."""
    rng = random.Random(8)
    grouped = folded = None
    for _ in range(400):
        position = random_moving(rng, rng.choice([0, 52, 55, 57]))
        answer = get_json(origin, "/api/v1/probe", position)
        if "moves" not in answer or answer.get("game_over"):
            continue
        kinds = {m["rule_value"] for m in answer["moves"]}
        if grouped is None and "cursed-win" in kinds and len(kinds) >= 2:
            grouped = position, answer
        runs = [sum(1 for _ in g) for _, g in itertools.groupby(
            answer["moves"], lambda m: (m["value"], m["distance"], m["rule_value"], m["plies_to_mill"]))]
        if folded is None and max(runs) > 4 and answer["rule_value"] in ("win", "loss"):
            folded = position, answer, max(runs)
        if grouped and folded:
            break
    check(grouped and folded, f"no position to group ({grouped}) or fold ({folded})")
    if not (grouped and folded):
        return
    position, answer = grouped
    browser.navigate(url(origin, position))
    browser.page(position)
    headings = browser.evaluate("[...document.querySelectorAll('#moves tbody')].map(b => "
                                "[b.className, [...b.querySelectorAll('tr[data-move]')].map(r => r.dataset.move)])")
    order = ["win", "cursed-win", "draw", "blessed-loss", "loss"]
    expected = [[g, [m["move"] for m in answer["moves"] if m["rule_value"] == g]] for g in order]
    check(headings == [e for e in expected if e[1]], f"groups {headings}, the server's {expected}")
    browser.screenshot(os.path.join(OUT_DIR, "8-grouped.png"))
    links = browser.evaluate("[...document.querySelectorAll('#moves tr[data-move] a.move')]"
                             ".map(a => [a.textContent, a.getAttribute('href')])")
    check(links == [[m["move"], "/?" + urllib.parse.urlencode({"position": m["position"], "rules": "morabaraba"})]
                    for g in order for m in answer["moves"] if m["rule_value"] == g],
          f"move links {links[:2]}")
    second = browser.evaluate("document.querySelectorAll('#moves tr[data-move]')[1].dataset.move")
    browser.evaluate("document.querySelectorAll('#moves tr[data-move]')[1].focus()")
    preview = browser.evaluate("document.getElementById('board').dataset.preview")
    check(preview == second, f"preview on focus: {preview!r}, not {second!r}")

    position, answer, run = folded
    browser.navigate(url(origin, position))
    browser.page(position)
    hidden = browser.evaluate("[...document.querySelectorAll('#moves tr[data-move]')].filter(r => r.hidden).length")
    check(hidden >= run - 3, f"{hidden} rows folded of a run of {run}")
    browser.click("#moves tr.fold button")
    hidden = browser.evaluate("[...document.querySelectorAll('#moves tr[data-move]')].filter(r => r.hidden).length")
    shown = browser.evaluate("document.querySelectorAll('#moves tr[data-move]').length")
    check(shown == len(answer["moves"]), f"{shown} rows for {len(answer['moves'])} moves")
    # Its subspace's statistics, the position's buckets marked.
    href = browser.evaluate("document.querySelector('#subspace-link a').getAttribute('href')")
    browser.navigate(origin + href)
    browser.drawn("stats")
    marked = browser.evaluate("[...document.querySelectorAll('.chart rect.marked')]"
                              ".map(r => r.closest('svg').dataset.kind + ' ' + r.textContent)")
    kind = "win" if answer["value"] == "win" else "loss"
    want = [f"{kind} {answer['distance']}:", f"mill {answer['plies_to_mill']}:"]
    check(all(any(m.startswith(w) for m in marked) for w in want),
          f"statistics of {href}: marked {marked}, wanted {want}")

    # Keys: f flips, space plays the best move, arrows, Home and End walk the history.
    browser.navigate(url(origin, START))
    start = browser.page(START)
    a7 = browser.evaluate("document.querySelector('#board g[data-point=\"a7\"] .point').getAttribute('cx')")
    press(browser, "f")
    flipped = browser.evaluate("[document.getElementById('board').dataset.flipped,"
                               " document.querySelector('#board g[data-point=\"a7\"] .point').getAttribute('cx')]")
    check(flipped[0] == "true" and flipped[1] != a7, f"flipped: {flipped}, a7 at {a7} before")
    press(browser, "f")
    first = get_json(origin, "/api/v1/probe", START)["moves"][0]
    browser.redraw(lambda: press(browser, " ", "Space"))
    check(browser.page(first["position"])["last"] == first["move"], "space: the best move")
    second = get_json(origin, "/api/v1/probe", first["position"])["moves"][0]
    browser.redraw(lambda: press(browser, "ArrowRight"))
    check(browser.page(second["position"])["last"] == second["move"], "→ at the end: the best move")
    browser.redraw(lambda: press(browser, "Home"))
    check(browser.page(START)["board"] == START, "Home: the first position")
    browser.redraw(lambda: press(browser, "End"))
    check(browser.page(second["position"])["board"] == second["position"], "End: the last")
    browser.redraw(lambda: press(browser, "ArrowLeft"))
    check(browser.page(first["position"])["board"] == first["position"], "←: back one")
    press(browser, "?")
    keys = browser.evaluate("[!document.getElementById('keys').hidden, document.getElementById('keys').textContent]")
    check(keys[0] and "play the best move" in keys[1], f"? lists the keys: {keys}")
    press(browser, "?")

    # The best line exported: its text and a link that plays it back.
    line = browser.page(first["position"])["line"]
    browser.click("#line-copy")
    text = browser.evaluate("document.getElementById('export').value").split("\n")
    check(text[:2] == [first["position"], " ".join(line)], f"exported {text[:2]}")
    end = get_json(origin, "/api/v1/mainline", first["position"])["mainline"][-1]["position"]
    browser.navigate(text[2])
    replayed = browser.page(end, with_line=False)
    check(replayed["board"] == end and replayed["last"] == line[-1], f"the link played {replayed['board']}")

    # The editor on a herd's start: a cow put on the board comes from its hand.
    browser.navigate(url(origin, START))
    browser.page(START)
    browser.click("#edit")
    placed = f"W......./......../........ b {HERD - 1} {HERD} 0"
    browser.redraw(lambda: browser.click('#board g[data-point="a7"] circle.hit'))
    shown = browser.page(placed)
    check(shown["error"] == "" and shown["value"].startswith(
        described("Black", cli(HOUSE, "probe", "--json", placed))), f"first placement: {shown}")
    browser.click("#edit-done")


def play(browser, origin, check):
    """A game against the database from a won position to its end, every reply a best move
    of the command line's; then a takeback."""
    rng = random.Random(27)
    position = None
    while position is None:  # a White win in 5 plies among random 3v3 positions
        board = ["."] * 24
        for i, p in enumerate(rng.sample(range(24), 6)):
            board[p] = "WB"[i % 2]
        candidate = "/".join("".join(board[8 * r:8 * r + 8]) for r in range(3)) + " w 0 0 0"
        answer = cli(HOUSE, "probe", "--json", candidate)
        if answer.get("value") == "win" and answer["distance"] == 5:
            position = candidate
    browser.navigate(url(origin, position))
    browser.page(position)
    browser.click("#play-white")
    plies = []
    while True:
        shown = browser.page(position, with_line=False)
        answer = get_json(origin, "/api/v1/probe", position)
        if not answer["moves"]:
            break
        mine = answer["moves"][0]
        browser.click("#moves tr[data-move]")
        plies.append(mine["move"])
        reply = get_json(origin, "/api/v1/probe", mine["position"])
        if not reply["moves"]:
            position = mine["position"]
            continue
        expected = cli(HOUSE, "probe", "--json", mine["position"])["best_move"]
        best = next(m for m in reply["moves"] if m["move"] == expected)
        shown = browser.page(best["position"], with_line=False)  # the database's reply
        check(shown["game"][-1] == expected, f"reply {shown['game'][-1]}, best move {expected}")
        plies.append(expected)
        position = best["position"]
    browser.screenshot(os.path.join(OUT_DIR, "6-game-over.png"))
    check(shown["game"] == plies and len(plies) == 5, f"game {shown['game']}, played {plies}")
    check(shown["result"] == "Game over: Black is down to two cows and has lost. You win.",
          f"result {shown['result']!r}")
    # Takeback: the position before the player's last move, the database's answer gone.
    browser.click("#takeback")
    back = browser.page(browser.evaluate("history.state.position"), with_line=False)
    check(back["game"] == plies[:-1], f"after takeback: {back['game']}")


def pure_toggle(browser, origin, check):
    """Issue 25's position: pure distance and the rules order its moves and line differently."""
    rule = get_json(origin, "/api/v1/probe", ISSUE_25)
    browser.navigate(url(origin, ISSUE_25))
    by_rule = browser.page(ISSUE_25)
    check(by_rule["moves"][0] == "a1-a7" and by_rule["line"][0] == "a1-a7",
          f"under the rules: {by_rule['moves'][:3]}, line {by_rule['line'][:3]}")
    check(by_rule["moves"] == [m["move"] for m in rule["moves"]], "the rules' order is the server's")
    browser.redraw(lambda: browser.click('input[name="metric"][value="pure"]'))
    by_pure = browser.page(ISSUE_25)
    browser.screenshot(os.path.join(OUT_DIR, "7-pure.png"))
    pure_line = cli(HOUSE, "probe", "--json", "--line", "--pure", ISSUE_25)["line"]
    check(by_pure["line"] == pure_line, f"pure line {by_pure['line']}, CLI {pure_line}")
    check(by_pure["moves"][0] == "a4-b2xf6" and by_pure["moves"] != by_rule["moves"],
          f"by pure distance: {by_pure['moves'][:3]}")
    check("pure=1" in by_pure["url"], f"URL {by_pure['url']}")
    why = browser.evaluate("document.getElementById('why').textContent")
    check("under the rules is a1-a7; by pure distance, a4-b2xf6" in why, f"why: {why!r}")
    browser.click('input[name="metric"][value="rule"]')


def statistics(browser, origin, check):
    """The statistics of 3v3 against `info --json`, and its longest win opened."""
    info = cli(HOUSE, "info", "--json")["subspaces"]["3v3"]
    browser.navigate(f"{origin}/stats.html")
    browser.drawn("stats")
    browser.redraw(lambda: browser.click('a[href="/stats.html?rules=morabaraba&subspace=3v3"]'))
    browser.drawn("stats")
    browser.screenshot(os.path.join(OUT_DIR, "8-statistics.png"))
    shown = json.loads(browser.evaluate("""JSON.stringify({
        wdl: [...document.querySelectorAll('#wdl tbody tr')].map(r => r.cells[1].textContent),
        bars: [...document.querySelectorAll('.chart')].map(c => [c.dataset.kind,
                c.querySelectorAll('rect').length]),
        scroll: document.documentElement.scrollWidth})"""))
    expected = [f"{info[k]:,}" for k in ("win", "draw", "loss")]
    check(shown["wdl"] == expected, f"win/draw/loss {shown['wdl']}, info {expected}")
    check(["win", len(info["win_distance_histogram"])] in shown["bars"] and
          ["loss", len(info["loss_distance_histogram"])] in shown["bars"],
          f"chart bars {shown['bars']}")
    browser.click("#longest-win")
    opened = browser.page(info["longest_win_position"])
    check(opened["value"].startswith(f"White to move: win in {info['max_win_distance']} plies"),
          f"the longest win opened: {opened['value']!r}")
    return shown


def koti_and_bars(browser, origin, check):
    """A whole-game Koti folder opens on its start, with the centre; a barred line is drawn."""
    browser.navigate(f"{origin}/?rules=koti")
    koti = browser.page(KOTI_START)
    points = browser.evaluate("document.querySelectorAll('#board g[data-point]').length")
    check(points == 25 and len(koti["moves"]) == 25, f"Koti: {points} points, {len(koti['moves'])} moves")
    after = get_json(origin, "/api/v1/probe", KOTI_START, rules="koti")
    centre = next(m for m in after["moves"] if m["move"] == "d4")
    browser.click('#board g[data-point="d4"] circle.hit')
    placed = browser.page(centre["position"])
    browser.screenshot(os.path.join(OUT_DIR, "9-koti.png"))
    check(placed["cows"] == ["d4W"], f"Koti centre: {placed['cows']}")

    browser.navigate(url(origin, MSSA_BAR, rules="mssa-1"))
    barred = browser.page(MSSA_BAR)
    browser.screenshot(os.path.join(OUT_DIR, "10-mssa-bar.png"))
    answer = cli([MSSA], "probe", "--json", MSSA_BAR)
    bar = browser.evaluate("!!document.querySelector('#board .bar[data-bar=\"a7-d7-g7\"]')")
    check(bar and "White may not form the mill a7-d7-g7 this turn" in barred["sides"],
          f"the bar: drawn {bar}, beside the board {barred['sides']!r}")
    check(barred["value"].startswith(described("White", answer)), f"{barred['value']!r}, CLI {answer}")


def cursed(browser, origin, check):
    """An mssa-1 position won in the pure game but drawn by its ply limit: its cursed win and
    its moves' blessed losses named, explained and grouped apart, as syzygy-tables.info
    groups chess moves."""
    answer = cli([MSSA], "probe", "--json", "--moves", CURSED)
    browser.navigate(url(origin, CURSED, rules="mssa-1"))
    shown = browser.page(CURSED)
    groups = json.loads(browser.evaluate("""JSON.stringify([...document.querySelectorAll(
        '#moves tr[data-move]')].map(r => [r.parentNode.className, r.className]))"""))
    expected = [[m["rule_value"], m["rule_value"]] for m in answer["moves"]]
    check(groups == expected, f"groups {groups}, the command line's {expected}")
    why = browser.evaluate("document.getElementById('why').textContent")
    check("under the ply limit cursed win" in shown["value"] and "A cursed win:" in why and
          "A blessed loss:" in why, f"value {shown['value']!r}, why {why!r}")
    browser.screenshot(os.path.join(OUT_DIR, "11-cursed.png"))


def by_search(browser, origin, check):
    """The next herd's start, whose placing tables the house rules' folders lack (herd 3's whole
    game, and moving tables up to 4v4): its value proved by search, as the command line proves
    it, marked so, with no moves or line, and no error."""
    start4 = start_of(HERD + 1)
    answer = cli(HOUSE, "probe", "--json", start4)
    check(answer.get("proved_by") == "search", f"the command line's {answer}")
    browser.navigate(url(origin, start4))
    shown = browser.page(start4, with_line=False)
    value = (f"White to move: {answer['value']}; under the ply limit {answer['rule_value']}"
             f" (proved by search, {answer['search_nodes']} nodes)")
    check(shown["value"] == value and not shown["error"] and not shown["moves"],
          f"value {shown['value']!r} (the command line's {value!r}), error {shown['error']!r},"
          f" moves {shown['moves']}")
    why = browser.evaluate("document.getElementById('why').textContent")
    line = browser.evaluate("document.getElementById('line').textContent")
    check("proved its value by searching" in why and "proved by search" in line,
          f"why {why!r}, line {line!r}")
    browser.screenshot(os.path.join(OUT_DIR, "12-by-search.png"))


def every_preset(browser, origin, check):
    """Each database served opens from its rules alone: a whole-game folder on its start, one
    of the moving phase on the longest win of one of its subspaces, as `info --json` names it."""
    rules_of = {f: cli([f], "info", "--json")["rules"] for f in HOUSE + OTHERS}
    for db in get_json(origin, "/api/v1/info")["databases"]:
        rules, herd = db["rules"], db["herd"]
        browser.navigate(f"{origin}/?rules={rules}")
        shown = poll(lambda: browser.evaluate("document.body && document.body.dataset.shown || null"),
                     lambda shown: shown is not None)
        folders = [f for f, r in rules_of.items() if r == rules]
        answer = cli(folders, "probe", "--json", shown or "")
        page = browser.page(shown, with_line=False)
        editing = browser.evaluate("!document.getElementById('editor').hidden")
        if herd:
            check(shown == page["board"] and not editing and
                  page["value"].startswith(described("White", answer)),
                  f"{rules}: opened on {shown!r}: {page['value']!r}, CLI {answer}")
        else:
            longest = {s["longest_win_position"] for s in
                       cli(folders, "info", "--json")["subspaces"].values() if "longest_win_position" in s}
            check(shown in longest and not editing and page["error"] == "" and
                  page["value"].startswith(described(colour(shown), answer)) and
                  "moving phase only" in page["status"],
                  f"{rules}: opened on {shown!r}, editing {editing}: {page['error']!r}, CLI {answer}")


def narrow(browser, origin, check):
    """360 px wide: no horizontal scrolling, on the explorer (with its editor open too) and the
    statistics and metrics pages."""
    browser.width(360)

    def fits(what):
        width = browser.evaluate("[document.documentElement.scrollWidth, innerWidth]")
        check(width[0] <= width[1] == 360, f"{what}: scrollWidth {width[0]} at {width[1]} px")

    for page, shown in ((f"{origin}/stats.html", "stats"),
                        (f"{origin}/stats.html?rules=morabaraba&subspace=3v3", "stats")):
        browser.navigate(page)
        browser.drawn(shown)
        fits(page)
    browser.navigate(f"{origin}/metrics.html")
    if not poll(lambda: browser.evaluate("location.pathname === '/metrics.html' &&"
                                         " document.readyState === 'complete'"), bool):
        raise TimeoutError("/metrics.html did not load")
    fits("/metrics.html")
    browser.navigate(url(origin, ISSUE_25))
    browser.page(ISSUE_25)
    fits("the explorer")
    browser.screenshot(os.path.join(OUT_DIR, "12-360px.png"))
    browser.click("#edit")
    fits("the editor")
    browser.call("Emulation.clearDeviceMetricsOverride", session=True)


def screenshots(browser, origin, check):
    """The pictures of docs/screenshots, at 1280 and 400 px: the start, a placing position, a
    position where the two metrics part, and a subspace's statistics, into OUT_DIR as
    docs-<what>-<width>.png (copied to docs/screenshots when the page changes)."""
    placing = "W......./..B...../........ w 2 2 2"
    pages = (("start", url(origin, START), START), ("placing", url(origin, placing), placing),
             ("metrics", url(origin, ISSUE_25), ISSUE_25),
             ("statistics", f"{origin}/stats.html?rules=morabaraba&subspace=3v3", None))
    for width in (1280, 400):
        browser.width(width)
        for name, address, position in pages:
            browser.navigate(address)
            if position:
                browser.page(position)
            else:
                browser.drawn("stats")
            if position and width == 400:  # on a phone the value and moves come first
                order = browser.evaluate("['value', 'moves', 'board'].map(i => "
                                         "document.getElementById(i).getBoundingClientRect().top)")
                check(order[0] < order[2] and order[1] < order[2],
                      f"{name} at 400 px: value, moves and board at {order}")
            path = os.path.join(OUT_DIR, f"docs-{name}-{width}.png")
            browser.screenshot(path)
            check(os.path.getsize(path) > 10_000, f"{path}: {os.path.getsize(path)} bytes")
    browser.call("Emulation.clearDeviceMetricsOverride", session=True)


def main():
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        print("explorer test skipped: Chromium is not installed (apt-get install chromium)")
        return 77
    os.makedirs(OUT_DIR, exist_ok=True)
    global HERD, START
    HERD = cli(HOUSE[:1], "info", "--json")["herd"]
    START = start_of(HERD)
    scenarios = [first_clicks, first_paint, editor, moves_and_keys, play, pure_toggle, statistics,
                 koti_and_bars, cursed, by_search, every_preset, narrow, screenshots]
    # The search of the next herd's start reaches its moving phase: within the moving folder?
    most_cows = max(sum(int(n) for n in s.split("+")[0].split("v"))
                    for s in cli(HOUSE[1:], "info", "--json")["subspaces"])
    if 2 * (HERD + 1) > most_cows:
        scenarios.remove(by_search)
        print(f"explorer: by_search not run: herd {HERD + 1}'s moving phase is beyond m+o <= "
              f"{most_cows}")
    args = [TOOL, "serve", "--port", "0", "--quiet"]
    for folder in HOUSE + OTHERS:
        args += ["--db", folder]
    server = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)
            print(f"explorer: FAILED: {what}", file=sys.stderr)

    with tempfile.TemporaryDirectory() as profile:
        browser = None
        try:
            origin = re.match(r"listening on (http://[0-9.:]+)/", server.stdout.readline()).group(1)
            browser = Browser(chromium, profile)
            for scenario in scenarios:
                try:
                    scenario(browser, origin, check)
                except (TimeoutError, RuntimeError, StopIteration, KeyError) as e:
                    check(False, f"{scenario.__name__}: {e!r}")
            thrown = [e["params"]["exceptionDetails"] for e in browser.events
                      if e.get("method") == "Runtime.exceptionThrown"]
            check(not thrown, f"the page threw: {thrown[:3]}")
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
