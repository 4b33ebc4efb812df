"""`pip install ./python` next to an installed libmorabaraba, the way the README says, with every
CPython 3.9 or later the machine has (Debian's /usr/bin/python3, the `python3` on the PATH, and
pyenv's): the package finds the library without MORABARABA_LIBRARY, under its own install prefix
or through pkg-config, and probes with it.

Run under pytest by ctest (python_install) with MORABARABA_BUILD_DIR (the build tree, installed
with `cmake --install`) and MORABARABA_TEST_DB (the probe_db fixture's folder) set.
"""

import glob
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

BUILD = os.environ["MORABARABA_BUILD_DIR"]
DB_ROOT = os.environ["MORABARABA_TEST_DB"]
SOURCE = pathlib.Path(__file__).resolve().parents[1]

# Prints what the installed package says: the library it loaded and a few probes.
PROBE = """
import json, sys, morabaraba
with morabaraba.Database([sys.argv[1]]) as db:
    start = db.probe("......../......../........ w 3 3 0")
    print(json.dumps({"library": morabaraba.library_path, "package": morabaraba.__file__,
                      "version": morabaraba.version(), "start": [start.value, start.distance],
                      "best": db.best_move("......../......../........ w 3 3 0")}))
"""


def interpreters():
    """Every CPython 3.9 or later of the machine, each once (by the real path of its
    executable: pyenv's `python3` on the PATH is a script that runs one of its versions)."""
    candidates = [sys.executable, "/usr/bin/python3", shutil.which("python3")]
    candidates += sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/*/bin/python3")))
    found = set()
    for candidate in candidates:
        if not candidate or not os.path.isfile(candidate):
            continue
        run = subprocess.run(
            [candidate, "-c", "import sys; sys.version_info >= (3, 9) and print(sys.executable)"],
            capture_output=True, text=True)
        if run.returncode == 0 and run.stdout.strip():
            found.add(os.path.realpath(run.stdout.strip()))
    return sorted(found)


def pip_install(python, prefix, tmp_path):
    """Installs the package with `python` from a copy of python/ (pip builds in the source
    folder), as the README says, but into `prefix`."""
    copy = tmp_path / f"src-{prefix.name}"
    shutil.copytree(SOURCE, copy, ignore=shutil.ignore_patterns("tests", "__pycache__"))

    def installed():
        return set(prefix.glob("**/site-packages/morabaraba")) | set(
            prefix.glob("**/dist-packages/morabaraba"))

    before = installed()
    subprocess.run([python, "-m", "pip", "install", "--disable-pip-version-check", "--quiet",
                    "--prefix", str(prefix), str(copy)], check=True)
    packages = installed() - before
    assert len(packages) == 1, packages
    return packages.pop().parent


def run_probe(python, site, extra_env):
    env = {k: v for k, v in os.environ.items()
           if k not in ("MORABARABA_LIBRARY", "PKG_CONFIG_PATH", "PYTHONPATH")}
    env.update(extra_env, PYTHONPATH=str(site), PYTHONDONTWRITEBYTECODE="1")
    run = subprocess.run([python, "-c", PROBE, os.path.join(DB_ROOT, "herd3-morabaraba")],
                         env=env, capture_output=True, text=True, cwd="/")
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@pytest.fixture(scope="module")
def library_prefix(tmp_path_factory):
    prefix = tmp_path_factory.mktemp("prefix")
    subprocess.run(["cmake", "--install", BUILD, "--prefix", str(prefix)], check=True,
                   stdout=subprocess.DEVNULL)
    return prefix


def test_interpreters():
    """Debian's interpreter is among those tested, and another where the machine has one."""
    found = interpreters()
    assert os.path.realpath("/usr/bin/python3") in found
    pyenv = [pathlib.Path(v).name.split(".") for v in
             glob.glob(os.path.expanduser("~/.pyenv/versions/3.*.*"))]
    if any(int(v[1]) >= 9 for v in pyenv if v[1].isdigit()):
        assert len(found) >= 2, found


@pytest.mark.parametrize("python", interpreters())
def test_found_under_the_install_prefix(python, library_prefix, tmp_path):
    site = pip_install(python, library_prefix, tmp_path)
    got = run_probe(python, site, {})
    assert got["package"].startswith(str(site))
    assert got["library"].startswith(str(library_prefix) + "/lib")
    assert got["start"] == ["win", 9]
    assert got["best"] == "a7"


def test_found_through_pkg_config(library_prefix, tmp_path):
    python = sys.executable
    elsewhere = tmp_path / "elsewhere"
    site = pip_install(python, elsewhere, tmp_path)
    pkgconfig = next(library_prefix.glob("lib*/**/pkgconfig/morabaraba.pc")).parent
    got = run_probe(python, site, {"PKG_CONFIG_PATH": str(pkgconfig)})
    assert got["library"].startswith(str(library_prefix) + "/lib")
    assert got["start"] == ["win", 9]
    # Without pkg-config's help and outside the prefix, the error says what to do.
    env = {k: v for k, v in os.environ.items() if k not in ("MORABARABA_LIBRARY", "PYTHONPATH")}
    run = subprocess.run([python, "-c", "import morabaraba"], capture_output=True,
                         text=True, env=dict(env, PYTHONPATH=str(site)), cwd="/")
    if run.returncode != 0:  # (unless a libmorabaraba is installed system-wide)
        assert "libmorabaraba not found" in run.stderr
