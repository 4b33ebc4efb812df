"""Probe Morabaraba endgame databases from Python, over libmorabaraba's C interface (ctypes).

    import morabaraba
    db = morabaraba.Database(["/path/to/db"])
    r = db.probe("WWW...../.B....B./.....B.. w 0 0 0")
    r.value, r.distance, r.rule_value, r.plies_to_mill
    db.moves(pos)      # [(move, Result), ...], best first
    db.best_move(pos)  # "a7-g4", or None when the game is over
    db.best_line(pos)  # ["a7-g4", "d6-a7", ...]

A database solved with `morabaraba solve --whole-game --herd N` also answers placing positions
(cows in hand), e.g. "......../......../........ w 3 3 0", the start of herd 3; `db.herd` is
that N (0 when the database holds the moving phase only). A database of the Koti board
(`--rules koti`) takes the centre as a fourth part, "......../......../......../. w 3 3 0",
and a blocked player's move is "pass".

Install with `pip install --no-build-isolation ./python` from the project's folder (README.md,
"Python"). The library (libmorabaraba.so, installed by `cmake --install`) is found, in this
order: at the path in the MORABARABA_LIBRARY environment variable, if set (a build tree, say);
in the lib folders of this package's install prefix (both installed with the same prefix); in
the libdir that `pkg-config morabaraba` gives; by the system's library search.
`morabaraba.library_path` says which file was loaded.

Errors raise MorabarabaError, whose `status` is the C status code, or one of its subclasses:
PositionError (also a ValueError) for a position string that does not parse or a position the
database cannot answer (hands that do not fit the turn order, more cows than its herd, cows in
hand in a database of the moving phase only), MissingTableError (also a LookupError) when the
position's subspace is not in the database, TableError for a missing, unreadable or damaged
table file.

A draw has no distance: `Result.distance` is None for it.
"""

import ctypes
import ctypes.util
import os
import pathlib
import subprocess
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

__version__ = "0.1.0"  # the library's too (mora_version(); checked by the tests)

__all__ = ["Database", "Result", "MorabarabaError", "PositionError", "MissingTableError",
           "TableError", "check", "version"]

# The names of the C enums mora_wdl and mora_rule_wdl, as `morabaraba probe --json` prints them.
_WDL = ("loss", "draw", "win")
_RULE = ("loss", "blessed-loss", "draw", "cursed-win", "win")
_OK, _ERR_POSITION, _ERR_MISSING, _ERR_TABLE, _ERR_BUFFER = 0, 2, 3, 4, 5
_MOVE_CHARS = 16


class _Result(ctypes.Structure):
    _fields_ = [(name, ctypes.c_int) for name in
                ("wdl", "distance", "has_rule_part", "rule", "plies_to_mill")]


class _Move(ctypes.Structure):
    _fields_ = [("move", ctypes.c_char * _MOVE_CHARS), ("result", _Result)]


class MorabarabaError(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


class PositionError(MorabarabaError, ValueError):
    """Not a position string, or a position the database cannot answer (MORA_ERR_POSITION)."""


class MissingTableError(MorabarabaError, LookupError):
    """The position's subspace is not in the database (MORA_ERR_MISSING)."""


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
        "mora_moves": (handle, c_str, ctypes.POINTER(_Move), c_size, ctypes.POINTER(c_size)),
        "mora_best_move": (handle, c_str, ctypes.c_char_p, c_size),
        "mora_best_line": (handle, c_str, ctypes.c_int, ctypes.c_char_p, c_size,
                           ctypes.POINTER(c_size)),
        "mora_check": (folders, c_size),
    }.items():
        fn = getattr(lib, name)
        fn.argtypes, fn.restype = args, ctypes.c_int
    lib.mora_close.argtypes, lib.mora_close.restype = (handle,), None
    for name in ("mora_version", "mora_last_error"):
        getattr(lib, name).argtypes, getattr(lib, name).restype = (), c_str
    lib.mora_rules_name.argtypes, lib.mora_rules_name.restype = (handle,), c_str
    lib.mora_herd.argtypes, lib.mora_herd.restype = (handle,), ctypes.c_int
    return lib


library_path = _find_library()
_lib = _load(library_path)


def _call(status: int) -> None:
    if status != _OK:
        raise _ERRORS.get(status, MorabarabaError)(status,
                                                    _lib.mora_last_error().decode(errors="replace"))


def _folders(folders: Sequence[str]):
    encoded = [os.fsencode(f) for f in folders]
    return (ctypes.c_char_p * len(encoded))(*encoded), len(encoded)


def version() -> str:
    return _lib.mora_version().decode()


def check(folders: Sequence[str]) -> None:
    """Verifies every table checksum in `folders`; raises MorabarabaError naming bad files."""
    _call(_lib.mora_check(*_folders(folders)))


class Database:
    """The tables of one rule set in one or more folders. Safe to probe from many threads."""

    def __init__(self, folders: Sequence[str], cache_bytes: Optional[int] = None):
        """`cache_bytes` bounds the decoded blocks kept for all tables (default 64 MiB)."""
        self._handle = ctypes.c_void_p()
        if cache_bytes is None:
            _call(_lib.mora_open(*_folders(folders), ctypes.byref(self._handle)))
        else:
            _call(_lib.mora_open_with_cache(*_folders(folders), cache_bytes,
                                            ctypes.byref(self._handle)))

    def close(self) -> None:
        if self._handle:
            _lib.mora_close(self._handle)
            self._handle = ctypes.c_void_p()

    def __enter__(self) -> "Database":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()

    @property
    def rules(self) -> str:
        return _lib.mora_rules_name(self._handle).decode()

    @property
    def herd(self) -> int:
        """The largest herd (cows a player starts with) whose whole game, placing included, the
        database holds; every smaller herd is held too. 0: the moving phase only."""
        return _lib.mora_herd(self._handle)

    def probe(self, position: str) -> Result:
        r = _Result()
        _call(_lib.mora_probe(self._handle, position.encode(), ctypes.byref(r)))
        return Result._from_c(r)

    def probe_wdl(self, position: str) -> str:
        """The pure value alone ('win', 'draw' or 'loss'): the fastest probe, and the one a
        WDL-only folder (`morabaraba export --streams wdl`) answers; there the others raise
        TableError saying that distances are not in the folder."""
        wdl = ctypes.c_int()
        _call(_lib.mora_probe_wdl(self._handle, position.encode(), ctypes.byref(wdl)))
        return _WDL[wdl.value]

    def moves(self, position: str) -> List[Tuple[str, Result]]:
        count = ctypes.c_size_t()
        status = _lib.mora_moves(self._handle, position.encode(), None, 0, ctypes.byref(count))
        if status not in (_OK, _ERR_BUFFER):
            _call(status)
        buf = (_Move * count.value)()
        _call(_lib.mora_moves(self._handle, position.encode(), buf, count.value,
                              ctypes.byref(count)))
        return [(m.move.decode(), Result._from_c(m.result)) for m in buf]

    def best_move(self, position: str) -> Optional[str]:
        buf = ctypes.create_string_buffer(_MOVE_CHARS)
        _call(_lib.mora_best_move(self._handle, position.encode(), buf, len(buf)))
        return buf.value.decode() or None

    def best_line(self, position: str, max_plies: int = 1000) -> List[str]:
        needed = ctypes.c_size_t()
        status = _lib.mora_best_line(self._handle, position.encode(), max_plies, None, 0,
                                     ctypes.byref(needed))
        if status != _ERR_BUFFER:
            _call(status)
        buf = ctypes.create_string_buffer(needed.value)
        _call(_lib.mora_best_line(self._handle, position.encode(), max_plies, buf, len(buf),
                                  None))
        return buf.value.decode().split()
