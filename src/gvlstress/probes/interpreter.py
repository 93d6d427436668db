"""Another interpreter for the workers (``--python``), for every target.

The harness owns this option: the workers run that interpreter and import the target from its
environment. It is probed once (it must run and be Python 3.11+); its own sys.path is used, plus
a directory holding only a link to this gvlstress package, so nothing else of ours leaks in.
"""

from __future__ import annotations

import hashlib
import json
import os
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


def interpreter(packages: tuple[str, ...]) -> tuple[str | None, str]:
    """An interpreter with exactly the pinned `packages`: this one when it has them, else a venv
    built once under the cache; (None, why) when it cannot be had."""
    if all(installed(req) for req in packages):
        return sys.executable, ""
    key = hashlib.sha256(f"{sys.version}|{'|'.join(sorted(packages))}".encode()).hexdigest()[:12]
    venv = cache_root() / "realbugs" / key  # the catalogue made these first: one cache
    python = venv / "bin" / "python"
    marker = venv / "complete"
    if marker.exists():
        return str(python), ""
    made = tools.run([sys.executable, "-m", "venv", "--clear", str(venv)], VENV_S)
    if made.ok:
        made = tools.run([str(python), "-m", "pip", "install", "-q", *packages], VENV_S)
    if not made.ok:
        return None, f"cannot install {' '.join(packages)}: {made.error}"
    marker.write_text(json.dumps(list(packages)) + "\n")
    return str(python), ""


def installed(requirement: str) -> bool:
    """Is this exact ``name==version`` installed for this interpreter?"""
    name, _, version = requirement.partition("==")
    try:
        return metadata.version(name) == version
    except metadata.PackageNotFoundError:
        return False
