"""Write the module list of every package's docstring from each module's first sentence.

    python tests/package_docs.py   # from anywhere, after adding or renaming a module

`tests/test_layers.py` fails when a package's docstring misses one of its modules.
"""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1] / "src" / "gvlstress"
MARK = "Modules (one line each, from their docstrings):"


def packages() -> list[Path]:
    """Every package of gvlstress (a directory with an __init__.py)."""
    return sorted(p.parent for p in ROOT.rglob("__init__.py") if "__pycache__" not in p.parts)


def members(pkg: Path) -> list[Path]:
    """The modules and subpackages of `pkg`, each as the file whose docstring describes it."""
    found = [p for p in pkg.glob("*.py") if p.name != "__init__.py"]
    found += [d / "__init__.py" for d in pkg.iterdir() if (d / "__init__.py").exists()]
    return sorted(found, key=name_of)


def name_of(p: Path) -> str:
    return p.parent.name if p.name == "__init__.py" else p.stem


def docstring(path: Path) -> str:
    return ast.get_docstring(ast.parse(path.read_text())) or ""


def first_sentence(path: Path) -> str:
    text = " ".join(docstring(path).split())
    m = re.match(r"(.+?[.])(\s|$)", text)
    s = (m.group(1) if m else text).rstrip(".")
    if len(s) > 150:
        return s[:147].rsplit(" ", 1)[0].rstrip(",;:") + "..."
    return s + "."


def write(init: Path) -> None:
    """Replace the module list at the end of `init`'s docstring (or add one)."""
    src = init.read_text()
    start = src.index('"""')
    end = src.index('"""', start + 3)
    doc = src[start + 3 : end].split("\n\n" + MARK)[0].rstrip()
    lines: list[str] = []
    for p in members(init.parent):
        lines += textwrap.wrap(f"- `{name_of(p)}`: {first_sentence(p)}", 96, subsequent_indent="  ")
    init.write_text(f'{src[:start]}"""{doc}\n\n{MARK}\n\n' + "\n".join(lines) + f'\n"""{src[end + 3 :]}')


def main() -> None:
    for pkg in packages():
        if members(pkg):
            write(pkg / "__init__.py")


if __name__ == "__main__":
    main()
