"""The package's build backend (PEP 517), in the source tree so that `pip install ./python` needs
nothing beyond pip: these machines reach no Python package index, Debian's setuptools wheel is
patched for Debian's own interpreter, and pyenv's 3.12 and later come without setuptools. The
package is pure Python, so its wheel is the package folder with the metadata files of the wheel
format (PEP 427, core metadata 2.1), zipped.
"""

import ast
import base64
import hashlib
import pathlib
import zipfile

_SOURCE = pathlib.Path(__file__).resolve().parent
_NAME = "morabaraba"
_SUMMARY = "Probe Morabaraba endgame databases (over libmorabaraba's C interface)"
_REQUIRES_PYTHON = ">=3.9"


def _version() -> str:
    """__version__ of the package, read without importing it (which loads the library)."""
    tree = ast.parse((_SOURCE / _NAME / "__init__.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__version__" for t in node.targets):
            return ast.literal_eval(node.value)
    raise RuntimeError(f"no __version__ in {_NAME}/__init__.py")


def _metadata() -> str:
    return (f"Metadata-Version: 2.1\nName: {_NAME}\nVersion: {_version()}\n"
            f"Summary: {_SUMMARY}\nRequires-Python: {_REQUIRES_PYTHON}\n")


def _dist_info() -> str:
    return f"{_NAME}-{_version()}.dist-info"


def _write_dist_info(folder: pathlib.Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "METADATA").write_text(_metadata())


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    _write_dist_info(pathlib.Path(metadata_directory) / _dist_info())
    return _dist_info()


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    dist_info = _dist_info()
    files = {f"{_NAME}/{p.name}": p.read_bytes()
             for p in sorted((_SOURCE / _NAME).glob("*.py"))}
    files[f"{dist_info}/METADATA"] = _metadata().encode()
    files[f"{dist_info}/WHEEL"] = (
        "Wheel-Version: 1.0\nGenerator: morabaraba build_backend\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n").encode()
    record = []
    for name, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(data)}")
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = ("\n".join(record) + "\n").encode()
    wheel = f"{_NAME}-{_version()}-py3-none-any.whl"
    with zipfile.ZipFile(pathlib.Path(wheel_directory) / wheel, "w",
                         zipfile.ZIP_DEFLATED) as z:
        for name, data in files.items():
            z.writestr(name, data)
    return wheel
