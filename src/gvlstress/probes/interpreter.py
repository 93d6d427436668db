"""Another interpreter for the workers (``--python``), for every target.

The harness owns this option: the workers run that interpreter and import the target from its
environment. It is probed once (it must run and be Python 3.11+); its own sys.path is used, plus
a directory holding only a link to this gvlstress package, so nothing else of ours leaks in.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

import gvlstress
from gvlstress.errors import UsageError
from gvlstress.probes import tools
from gvlstress.system.cache import cache_root

PROBE_TIMEOUT_S = 120.0
_PROBE = (
    "import json, sys\n"
    "out = {'python': sys.version.split()[0], 'version_info': list(sys.version_info[:2]),"
    " 'sys_path': sys.path, 'executable': sys.executable}\n"
)


def probe(python: str, extra: str = "") -> dict[str, Any]:
    """What the interpreter is: version, sys.path (and whatever `extra` code adds to the dict `out`)."""
    if not (Path(python).is_file() and os.access(python, os.X_OK)):
        raise UsageError(
            f"--python {python}: not an executable file", hint="pass the path of a python binary"
        )
    code = _PROBE + extra + "print(json.dumps(out))\n"
    out = tools.run([python, "-c", code], PROBE_TIMEOUT_S)
    try:
        info: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        info = {}
    if not out.ok or not info:
        raise UsageError(
            f"--python {python} is not a Python interpreter gvlstress can use ({out.error or 'no answer'})",
            hint="pass the python of a virtual environment, e.g. .venv/bin/python",
        )
    if tuple(info.get("version_info", (0, 0))) < (3, 11):
        raise UsageError(f"--python {python} is Python {info.get('python')}; workers need 3.11 or newer")
    return info


def shim() -> str:
    """A directory holding only a link to this gvlstress package, for another interpreter's
    sys.path: its own site-packages stay first and nothing else of ours leaks in. One directory
    per installed copy: two checkouts running at once must not re-point each other's workers."""
    target = Path(gvlstress.__file__).resolve().parent  # the package, wherever this module sits
    root = cache_root() / "shim" / hashlib.sha256(str(target).encode()).hexdigest()[:12]
    link = root / "gvlstress"
    if not (link.is_symlink() and link.resolve() == target):
        root.mkdir(parents=True, exist_ok=True)
        tmp = root / f".gvlstress-{os.getpid()}"
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(target, target_is_directory=True)
        os.replace(tmp, link)
    return str(root)


def sys_path(info: dict[str, Any]) -> tuple[str, ...]:
    """sys.path for workers under that interpreter: the shim, then its own (cwd kept importable)."""
    return (shim(), os.getcwd(), *[p for p in info["sys_path"] if p])


VENV_S = 900.0
"""Deadline of building a pinned venv (pip downloads)."""


def interpreter(packages: tuple[str, ...], python: str | None = None) -> tuple[str | None, str]:
    """An interpreter with exactly the pinned `packages` (on CPython `python`, "X.Y", when given):
    this one when it fits, else a venv built once under the cache from the base interpreter;
    (None, why) when it cannot be had."""
    if satisfied(packages, python):
        return sys.executable, ""
    base, why = base_interpreter(python)
    if base is None:
        return None, why
    if not packages:  # the standard library of that CPython: no venv to build
        return base, ""
    # the base interpreter is part of the key: its path and full version (a rebuilt X.Y.Z differs)
    ident = f"{sys.base_prefix}|{sys.version}" if python is None else f"{base}|{_version_of(base)}"
    key = hashlib.sha256(f"{ident}|{'|'.join(sorted(packages))}".encode()).hexdigest()[:12]
    venv = cache_root() / "realbugs" / key  # the catalogue made these first: one cache
    venv_python = venv / "bin" / "python"
    marker = venv / "complete"
    if marker.exists():
        return str(venv_python), ""
    venv.parent.mkdir(parents=True, exist_ok=True)
    with (venv.parent / f"{key}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two runs at once: one builds, the other waits for it
        if marker.exists():
            return str(venv_python), ""
        made = tools.run([base, "-m", "venv", "--clear", str(venv)], VENV_S)
        if made.ok:
            made = tools.run([str(venv_python), "-m", "pip", "install", "-q", *packages], VENV_S)
        if not made.ok:
            return None, f"cannot install {' '.join(packages)}: {made.error}"
        marker.write_text(json.dumps({"python": base, "packages": list(packages)}) + "\n")
    return str(venv_python), ""


def satisfied(packages: tuple[str, ...], python: str | None = None) -> bool:
    """Does this interpreter itself have the pins (and, given `python`, that CPython minor)?"""
    if python is not None and f"{sys.version_info[0]}.{sys.version_info[1]}" != python:
        return False
    return all(installed(req) for req in packages)


def base_interpreter(python: str | None) -> tuple[str | None, str]:
    """The CPython to build a venv from: this one by default; for "X.Y", pyenv's newest
    X.Y.* (under `pyenv root`), else pythonX.Y on PATH if it runs and is X.Y."""
    if python is None:
        return sys.executable, ""
    root = os.environ.get("PYENV_ROOT") or _pyenv_root() or str(Path.home() / ".pyenv")
    found = sorted(
        (p for p in Path(root, "versions").glob(f"{python}.*") if _patch(p.name, python) is not None),
        key=lambda p: _patch(p.name, python) or 0,
    )
    for cand in [str(p / "bin" / "python") for p in reversed(found)] + [
        shutil.which(f"python{python}") or ""
    ]:
        if cand and _version_of(cand).startswith(f"{python}."):
            return cand, ""
    return None, f"no CPython {python} here (neither pyenv's versions/{python}.* nor python{python} on PATH)"


def _patch(name: str, python: str) -> int | None:
    """The patch number of a pyenv version directory `X.Y.Z` (None for `X.Y.Z-dev`, `X.Y.Zt`...)."""
    rest = name[len(python) + 1 :]
    return int(rest) if rest.isdigit() else None


def _pyenv_root() -> str:
    pyenv = shutil.which("pyenv")
    out = tools.run([pyenv, "root"], PROBE_TIMEOUT_S) if pyenv else None
    return out.stdout.strip() if out is not None and out.ok else ""


def _version_of(python: str) -> str:
    """`X.Y.Z` of an interpreter ('' when it does not run: a pyenv shim with no such version)."""
    if not (Path(python).is_file() and os.access(python, os.X_OK)):
        return ""
    out = tools.run([python, "-c", "import sys; print(sys.version.split()[0])"], PROBE_TIMEOUT_S)
    return out.stdout.strip() if out.ok else ""


def installed(requirement: str) -> bool:
    """Is this exact ``name==version`` installed for this interpreter?"""
    name, _, version = requirement.partition("==")
    try:
        return metadata.version(name) == version
    except metadata.PackageNotFoundError:
        return False
