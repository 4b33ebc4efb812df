"""Probe Morabaraba endgame databases from Python, over libmorabaraba's C interface (ctypes).

    import morabaraba
    db = morabaraba.Database(["/path/to/db"])
    r = db.probe("WWW...../.B....B./.....B.. w 0 0 0")
    r.value, r.distance, r.rule_value, r.plies_to_mill
    db.moves(pos)      # [(move, Result), ...], best first
    db.best_move(pos)  # "a7-g4", or None when the game is over
    db.game_over(pos)  # why it is over ("drawn: 60 plies without a mill"), or None
    db.best_line(pos)  # ["a7-g4", "d6-a7", ...]
    db.best_move(pos, pure=True)  # the best move by pure distance
    db.probe_wdl(pos), db.probe_rule_wdl(pos)  # "win", "cursed-win": what a WDL-only folder holds
    db.prove("......../......../........ w 12 12 0", max_seconds=60)  # by search: Proof

Values are named as at every door of the project (docs/METRICS.md, "Names"): "win", "draw",
"loss", and under the ply limit also "cursed-win" and "blessed-loss".

`Database` takes one folder (a `str` or `os.PathLike`) or a list of them; a folder's path
holding a NUL, which C would cut short, raises ValueError.

Best moves follow one of two metrics (docs/METRICS.md). By default, under the ply limit: the
rule value at the position's count first (win, cursed win, draw, blessed loss, loss), then for a
rule win the fewest plies to the next mill, for a rule loss the most, then the pure order. With
`pure=True`, by pure distance: the fastest win, then draws, then the slowest loss, then the rule
order. Moves equal in both go by their points in the position string's order (from, to, shot).
The pure best move always keeps the position's pure value and distance; the best move under the
rule keeps its rule value and plies to the next mill, and may be a slower win or a quicker loss
in the pure game. Where the rules have no ply limit (malom) the two are the same.

A database solved with `morabaraba solve --whole-game --herd N` also answers placing positions
(cows in hand), e.g. "......../......../........ w 3 3 0", the start of herd 3; `db.herd` is
that N (0 when the database holds the moving phase only). A database of the Koti board
(`--rules koti`) takes the centre as a fourth part, "......../......../......../. w 3 3 0",
and a blocked player's move is "pass".

Install with `python3 -m pip install --no-index --find-links /usr/share/python-wheels ./python`
from the project's folder (README.md, "Probing from C and Python"), with any CPython 3.9 or
later. The library (libmorabaraba.so, installed by `cmake --install`) is found, in this
order: at the path in the MORABARABA_LIBRARY environment variable, if set (a build tree, say);
in the lib folders of this package's install prefix (both installed with the same prefix); in
the libdir that `pkg-config morabaraba` gives; by the system's library search.
`morabaraba.library_path` says which file was loaded.

Errors raise MorabarabaError, whose `status` is the C status code, or one of its subclasses:
PositionError (also a ValueError) for a position string that does not parse (a NUL, which C
would take for the string's end, included: the string is never cut short; a lone surrogate,
which has no UTF-8, too) or a position the database cannot answer (hands that do not fit the turn order, more
cows than its herd, cows in hand in a database of the moving phase only), MissingTableError
(also a LookupError) when the database has no table of the position's subspace, TableError for a
missing, unreadable or damaged table file.

A draw has no distance: `Result.distance` is None for it.

A `Database` may be probed from many threads at once, and closed while they probe: close() waits
for the calls in flight, and every call after it (the `rules` and `herd` properties too) raises
MorabarabaError, "the database is closed".

`Database.prove` answers a placing position whose table the database lacks (one of a database
of the moving phase only, say) by searching forward to the positions its tables hold, as
`morabaraba prove` does: the pure value, then the value under the ply limit. A search stopped by
`max_nodes` or `max_seconds` gives `Proof.known` False and None for the values it did not prove,
never a guess.

Integer arguments are checked before they reach C: a negative count or size raises ValueError,
one too large for its C type OverflowError (never wrapped), and a non-integer TypeError.
"""

import ctypes
import ctypes.util
import operator
import os
import pathlib
import subprocess
import threading
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple, Union

__version__ = "0.3.0"  # the library's too (mora_version(); checked by the tests)

__all__ = ["Database", "Result", "Proof", "MorabarabaError", "PositionError",
           "MissingTableError", "TableError", "check", "version"]

_OK, _ERR_ARGUMENT, _ERR_POSITION, _ERR_MISSING, _ERR_TABLE, _ERR_BUFFER = 0, 1, 2, 3, 4, 5
_MOVE_CHARS = 16
_GAME_OVER_CHARS = 64  # mora_game_over: 64 bytes always suffice
_METRIC_RULE, _METRIC_PURE = 0, 1  # mora_metric


class _Result(ctypes.Structure):
    _fields_ = [(name, ctypes.c_int) for name in
                ("wdl", "distance", "has_rule_part", "rule", "plies_to_mill")]


class _Move(ctypes.Structure):
    _fields_ = [("move", ctypes.c_char * _MOVE_CHARS), ("result", _Result)]


class _Proof(ctypes.Structure):
    _fields_ = [("known", ctypes.c_int), ("wdl", ctypes.c_int), ("has_rule_part", ctypes.c_int),
                ("rule", ctypes.c_int), ("nodes", ctypes.c_uint64), ("seconds", ctypes.c_double)]


class MorabarabaError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class PositionError(MorabarabaError, ValueError):
    """Not a position string, or a position the database cannot answer (MORA_ERR_POSITION)."""


class MissingTableError(MorabarabaError, LookupError):
    """The database has no table of the position's subspace (MORA_ERR_MISSING)."""


class TableError(MorabarabaError):
    """A table file is missing, unreadable, damaged or foreign (MORA_ERR_TABLE)."""


# The exception class for each C status; any other failure is a plain MorabarabaError.
_ERRORS = {_ERR_POSITION: PositionError, _ERR_MISSING: MissingTableError, _ERR_TABLE: TableError}


@dataclass(frozen=True)
class Result:
    """A value from the side to move: the pure value and distance, and with the ply-limit part
    the rule value at the position's count and the plies to the next mill."""
    value: str
    distance: Optional[int]  # plies to the end with best play; None for a draw
    rule_value: Optional[str] = None
    plies_to_mill: Optional[int] = None

    @staticmethod
    def _from_c(r: _Result) -> "Result":
        distance = None if _WDL[r.wdl] == "draw" else r.distance
        if not r.has_rule_part:
            return Result(_WDL[r.wdl], distance)
        return Result(_WDL[r.wdl], distance, _RULE[r.rule],
                      None if r.plies_to_mill < 0 else r.plies_to_mill)


@dataclass(frozen=True)
class Proof:
    """A value proved by search (Database.prove), from the side to move: the pure value and,
    where the rules have a ply limit and `pure` was not asked, the value under it at the
    position's count, named as Result's; None for a value not proved within the limits (or
    rule_value not asked). `known`: every value asked was proved. `nodes` and `seconds`: what
    the searches took."""
    value: Optional[str]
    rule_value: Optional[str]
    known: bool
    nodes: int
    seconds: float

    @staticmethod
    def _from_c(p: _Proof) -> "Proof":
        return Proof(_WDL[p.wdl] if p.wdl >= 0 else None,
                     _RULE[p.rule] if p.has_rule_part and p.rule >= 0 else None,
                     bool(p.known), p.nodes, p.seconds)


_LIBRARY_NAMES = ("libmorabaraba.so.0", "libmorabaraba.so")


def _in_lib_folders(prefix: pathlib.Path) -> Optional[str]:
    for folder in sorted(prefix.glob("lib*")) + sorted(prefix.glob("lib/*-linux-gnu")):
        for name in _LIBRARY_NAMES:
            if (folder / name).is_file():
                return str(folder / name)
    return None


def _install_prefixes() -> List[pathlib.Path]:
    """The prefix this package is installed under: P of P/lib/python3.X/site-packages (and of
    P/local/lib/python3.X/dist-packages, Debian's layout for pip's --prefix)."""
    for folder in pathlib.Path(__file__).resolve().parents:
        if folder.name.startswith("python3") and folder.parent.name in ("lib", "lib64"):
            prefix = folder.parent.parent
            return [prefix, prefix.parent] if prefix.name == "local" else [prefix]
    return []


def _pkg_config_libdir() -> Optional[str]:
    try:
        run = subprocess.run(["pkg-config", "--variable=libdir", "morabaraba"],
                             capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return run.stdout.strip() if run.returncode == 0 and run.stdout.strip() else None


def _find_library() -> str:
    """The path of libmorabaraba, in the order of the module's docstring."""
    if os.environ.get("MORABARABA_LIBRARY"):
        return os.environ["MORABARABA_LIBRARY"]
    for prefix in _install_prefixes():
        found = _in_lib_folders(prefix)
        if found:
            return found
    libdir = _pkg_config_libdir()
    if libdir:
        for name in _LIBRARY_NAMES:
            if os.path.isfile(os.path.join(libdir, name)):
                return os.path.join(libdir, name)
    found = ctypes.util.find_library("morabaraba")
    if found:
        return found
    raise OSError("libmorabaraba not found under this package's install prefix, through "
                  "pkg-config or by the system's library search: install it (cmake --install "
                  "build, README.md) or set MORABARABA_LIBRARY to its path")


def _load(path: str) -> ctypes.CDLL:
    lib = ctypes.CDLL(path)
    c_str, c_size = ctypes.c_char_p, ctypes.c_size_t
    folders = ctypes.POINTER(c_str)
    handle = ctypes.c_void_p
    for name, args in {
        "mora_open": (folders, c_size, ctypes.POINTER(handle)),
        "mora_open_with_cache": (folders, c_size, c_size, ctypes.POINTER(handle)),
        "mora_probe": (handle, c_str, ctypes.POINTER(_Result)),
        "mora_probe_wdl": (handle, c_str, ctypes.POINTER(ctypes.c_int)),
        "mora_probe_rule_wdl": (handle, c_str, ctypes.POINTER(ctypes.c_int)),
        "mora_moves_by": (handle, c_str, ctypes.c_int, ctypes.POINTER(_Move), c_size,
                          ctypes.POINTER(c_size)),
        "mora_best_move_by": (handle, c_str, ctypes.c_int, ctypes.c_char_p, c_size),
        "mora_game_over": (handle, c_str, ctypes.c_char_p, c_size),
        "mora_best_line_by": (handle, c_str, ctypes.c_int, ctypes.c_int, ctypes.c_char_p, c_size,
                              ctypes.POINTER(c_size)),
        "mora_best_line_end_by": (handle, c_str, ctypes.c_int, ctypes.c_int, ctypes.c_char_p,
                                  c_size),
        "mora_prove": (handle, c_str, ctypes.c_int, ctypes.c_uint64, ctypes.c_double, c_size,
                       ctypes.POINTER(_Proof)),
        "mora_check": (folders, c_size),
    }.items():
        fn = getattr(lib, name)
        fn.argtypes, fn.restype = args, ctypes.c_int
    lib.mora_close.argtypes, lib.mora_close.restype = (handle,), None
    for name in ("mora_version", "mora_last_error"):
        getattr(lib, name).argtypes, getattr(lib, name).restype = (), c_str
    lib.mora_rules_name.argtypes, lib.mora_rules_name.restype = (handle,), c_str
    lib.mora_herd.argtypes, lib.mora_herd.restype = (handle,), ctypes.c_int
    for name in ("mora_wdl_name", "mora_rule_wdl_name"):
        getattr(lib, name).argtypes, getattr(lib, name).restype = (ctypes.c_int,), c_str
    return lib


library_path = _find_library()
_lib = _load(library_path)

# The names of the C enums mora_wdl and mora_rule_wdl by value, from the library, which spells
# them for every door (docs/METRICS.md, "Names").
_WDL = tuple(_lib.mora_wdl_name(v).decode() for v in range(3))
_RULE = tuple(_lib.mora_rule_wdl_name(v).decode() for v in range(5))


def _call(status: int) -> None:
    if status != _OK:
        raise _ERRORS.get(status, MorabarabaError)(status,
                                                    _lib.mora_last_error().decode(errors="replace"))


Folders = Union[str, bytes, os.PathLike, Sequence[Union[str, bytes, os.PathLike]]]


def _folders(folders: Folders):
    """One folder (a str, bytes or os.PathLike) or a sequence of them, for the C interface:
    whole, so never with a NUL, where C would cut the path short and open another folder."""
    if isinstance(folders, (str, bytes, os.PathLike)):
        folders = [folders]
    encoded = [os.fsencode(f) for f in folders]
    for path in encoded:
        nul = path.find(b"\0")
        if nul >= 0:
            raise ValueError(f"the folder {os.fsdecode(path)!r} holds a NUL at {nul}")
    return (ctypes.c_char_p * len(encoded))(*encoded), len(encoded)


def _metric(pure: bool) -> int:
    return _METRIC_PURE if pure else _METRIC_RULE


def _position(position: str) -> bytes:
    """The position as the C library takes it: whole, so never with a NUL (where C would cut it
    short), and in UTF-8, so never with a lone surrogate (which has none). The rest is the C
    library's to judge, by the one rule of every door (docs/RULES.md, "Notation"): spaces, tabs,
    carriage returns and line feeds separate the fields, and any other character that the
    notation does not have is refused there."""
    if not isinstance(position, str):
        raise TypeError(f"a position is a str, not {type(position).__name__}")
    nul = position.find("\0")
    if nul >= 0:
        raise PositionError(_ERR_POSITION,
                            f"the position holds a NUL (U+0000) at {nul}, which C would take "
                            "for its end")
    try:
        return position.encode()
    except UnicodeEncodeError as e:
        raise PositionError(_ERR_POSITION, f"the position holds lone surrogate "
                            f"U+{ord(position[e.start]):04X} at {e.start}, which has no "
                            "UTF-8") from None


def _integer(name: str, value, low: int, high: int) -> int:
    """`value` as an int in [low, high] for a C integer argument (low 0: a count or a size):
    ctypes would wrap one that does not fit (2**64 into a uint64_t as 0), so it is refused here
    instead, a negative count with ValueError and any other value out of range with
    OverflowError."""
    if isinstance(value, bool):
        raise TypeError(f"{name} is an int, not a bool")
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} is an int, not {type(value).__name__}") from None
    if low == 0 and value < 0:
        raise ValueError(f"{name} is {value}: negative")
    if not low <= value <= high:
        raise OverflowError(f"{name} is {value}: out of the range from {low} to {high}")
    return value


_SIZE_MAX = (1 << (8 * ctypes.sizeof(ctypes.c_size_t))) - 1
_UINT64_MAX = (1 << 64) - 1
_INT_BITS = 8 * ctypes.sizeof(ctypes.c_int)
_INT_MIN, _INT_MAX = -(1 << (_INT_BITS - 1)), (1 << (_INT_BITS - 1)) - 1


def _seconds(name: str, value) -> float:
    """A time limit for C: a real number, 0 or more (math.inf too), never NaN."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} is a number of seconds, not {type(value).__name__}")
    value = float(value)
    if not value >= 0:
        raise ValueError(f"{name} is {value}: seconds are 0 or more")
    return value


def version() -> str:
    return _lib.mora_version().decode()


def check(folders: Folders) -> None:
    """Verifies every table checksum in `folders` (one folder or a list); raises MorabarabaError
    naming bad files."""
    _call(_lib.mora_check(*_folders(folders)))


class _Calls:
    """The calls in flight on a Database's handle, as a reader-writer lock: calls share the
    handle (`with calls:`), close() takes it alone. The C library frees the tables in
    mora_close while a call in flight may still read them, so close() waits for those calls,
    and a call after it raises instead of reaching C."""

    def __init__(self):
        self._changed = threading.Condition(threading.Lock())
        self._in_flight = 0
        self._closed = False

    def __enter__(self) -> None:
        with self._changed:
            if self._closed:
                raise MorabarabaError(_ERR_ARGUMENT, "the database is closed")
            self._in_flight += 1

    def __exit__(self, *exc) -> None:
        with self._changed:
            self._in_flight -= 1
            if not self._in_flight:
                self._changed.notify_all()

    def close(self, release) -> None:
        """Refuses new calls, waits for those in flight, then calls `release`, alone (each
        close() calls it: a second one finds nothing to free)."""
        with self._changed:
            self._closed = True
            self._changed.wait_for(lambda: not self._in_flight)
            release()


class Database:
    """The tables of one rule set in one or more folders. Safe to probe from many threads, and
    to close while they probe (the module's docstring)."""

    def __init__(self, folders: Folders, cache_bytes: Optional[int] = None):
        """`folders`: one folder (a str or os.PathLike) or a list of them, probed together (the
        first holding a subspace wins). `cache_bytes` bounds the decoded blocks kept for all
        tables (default 64 MiB)."""
        self._calls = _Calls()
        self._handle = ctypes.c_void_p()
        if cache_bytes is None:
            _call(_lib.mora_open(*_folders(folders), ctypes.byref(self._handle)))
        else:
            cache_bytes = _integer("cache_bytes", cache_bytes, 0, _SIZE_MAX)
            _call(_lib.mora_open_with_cache(*_folders(folders), cache_bytes,
                                            ctypes.byref(self._handle)))

    def close(self) -> None:
        """Frees the tables, after the calls other threads have in flight return; every call
        after it raises MorabarabaError. Closing twice is allowed."""
        def release():
            if self._handle:
                _lib.mora_close(self._handle)
                self._handle = ctypes.c_void_p()
        self._calls.close(release)

    def __enter__(self) -> "Database":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        if hasattr(self, "_calls"):  # not when __init__ failed before setting it
            self.close()

    @property
    def rules(self) -> str:
        with self._calls:
            return _lib.mora_rules_name(self._handle).decode()

    @property
    def herd(self) -> int:
        """The largest herd (cows a player starts with) whose whole game, placing included, the
        database holds; every smaller herd is held too. 0: the moving phase only."""
        with self._calls:
            return _lib.mora_herd(self._handle)

    def probe(self, position: str) -> Result:
        r = _Result()
        with self._calls:
            _call(_lib.mora_probe(self._handle, _position(position), ctypes.byref(r)))
        return Result._from_c(r)

    def probe_wdl(self, position: str) -> str:
        """The pure value alone ('win', 'draw' or 'loss'): the fastest probe, and the one a
        WDL-only folder (`morabaraba export --streams wdl`) answers; there the others raise
        TableError saying that distances are not in the folder."""
        wdl = ctypes.c_int()
        with self._calls:
            _call(_lib.mora_probe_wdl(self._handle, _position(position), ctypes.byref(wdl)))
        return _WDL[wdl.value]

    def probe_rule_wdl(self, position: str) -> str:
        """The value under the ply limit alone, at the position's count ('win', 'cursed-win',
        'draw', 'blessed-loss' or 'loss': probe().rule_value), which a WDL-only folder answers
        too, except for a rule win or loss at a count above 0: that needs the plies to the next
        mill, and raises TableError saying they are not in the folder. PositionError for rules
        without a ply limit."""
        rule = ctypes.c_int()
        with self._calls:
            _call(_lib.mora_probe_rule_wdl(self._handle, _position(position), ctypes.byref(rule)))
        return _RULE[rule.value]

    def moves(self, position: str, pure: bool = False) -> List[Tuple[str, Result]]:
        """Every legal move with the value it leads to, best first under the ply limit, or by
        pure distance with `pure` (the module's docstring)."""
        count = ctypes.c_size_t()
        encoded = _position(position)
        with self._calls:
            status = _lib.mora_moves_by(self._handle, encoded, _metric(pure), None, 0,
                                        ctypes.byref(count))
            if status not in (_OK, _ERR_BUFFER):
                _call(status)
            buf = (_Move * count.value)()
            _call(_lib.mora_moves_by(self._handle, encoded, _metric(pure), buf, count.value,
                                     ctypes.byref(count)))
        return [(m.move.decode(), Result._from_c(m.result)) for m in buf]

    def game_over(self, position: str) -> Optional[str]:
        """Why the game is over at `position` under the database's rules, in the words of every
        door ('White is down to two cows and has lost', 'drawn: 60 plies without a mill', ...),
        or None while it goes on."""
        buf = ctypes.create_string_buffer(_GAME_OVER_CHARS)
        with self._calls:
            _call(_lib.mora_game_over(self._handle, _position(position), buf, len(buf)))
        return buf.value.decode() or None

    def best_move(self, position: str, pure: bool = False) -> Optional[str]:
        """The first of moves(position, pure); None when the game is over (game_over() says why;
        at the ply limit too, whatever the metric: the metric orders the moves, the rules end the
        game)."""
        buf = ctypes.create_string_buffer(_MOVE_CHARS)
        with self._calls:
            _call(_lib.mora_best_move_by(self._handle, _position(position), _metric(pure), buf,
                                         len(buf)))
        return buf.value.decode() or None

    def best_line(self, position: str, max_plies: int = 1000, pure: bool = False) -> List[str]:
        """Best play until the game ends, a drawn line repeats, or `max_plies` moves; with
        `pure` by pure distance, the count held at 0, so that a cursed win or a blessed loss plays
        out to its end."""
        max_plies = _integer("max_plies", max_plies, _INT_MIN, _INT_MAX)
        needed = ctypes.c_size_t()
        encoded = _position(position)
        with self._calls:
            status = _lib.mora_best_line_by(self._handle, encoded, _metric(pure), max_plies, None,
                                            0, ctypes.byref(needed))
            if status != _ERR_BUFFER:
                _call(status)
            buf = ctypes.create_string_buffer(needed.value)
            _call(_lib.mora_best_line_by(self._handle, encoded, _metric(pure), max_plies, buf,
                                         len(buf), None))
        return buf.value.decode().split()

    def best_line_end(self, position: str, max_plies: int = 1000, pure: bool = False) -> str:
        """Why best_line(position, max_plies, pure) stops, in the words of every door: why the
        game is over at its end (game_over()'s words), 'a repeated board', or 'N plies'."""
        max_plies = _integer("max_plies", max_plies, _INT_MIN, _INT_MAX)
        buf = ctypes.create_string_buffer(_GAME_OVER_CHARS)
        with self._calls:
            _call(_lib.mora_best_line_end_by(self._handle, _position(position), _metric(pure),
                                             max_plies, buf, len(buf)))
        return buf.value.decode()

    def prove(self, position: str, pure: bool = False, max_nodes: int = 0,
              max_seconds: float = 0.0, memory_bytes: int = 64 << 20) -> Proof:
        """The value of `position` proved by searching forward to the positions the tables
        hold (`morabaraba prove`), for a placing position whose table the database lacks; a
        position the tables hold is answered by its probe. The pure value, then, unless `pure`
        or the rules have no ply limit, the value under the ply limit at the position's count.
        `max_nodes` and `max_seconds` (0: no limit) bound each of the two searches, checked
        every 4096 nodes; a search they stop leaves its value None and `known` False.
        `memory_bytes`: the transposition table, allocated and zeroed by each call (0: the
        library's default, 64 MiB). Each call searches afresh, so threads may prove at once.

        Raises PositionError for a position the search cannot take (as probe's, and one with
        bars), MissingTableError when the search reaches a moving-phase table the database
        lacks, ValueError for a negative limit or size (OverflowError for one too large)."""
        max_nodes = _integer("max_nodes", max_nodes, 0, _UINT64_MAX)
        max_seconds = _seconds("max_seconds", max_seconds)
        memory_bytes = _integer("memory_bytes", memory_bytes, 0, _SIZE_MAX)
        p = _Proof()
        with self._calls:
            _call(_lib.mora_prove(self._handle, _position(position), 1 if pure else 0, max_nodes,
                                  max_seconds, memory_bytes, ctypes.byref(p)))
        return Proof._from_c(p)
