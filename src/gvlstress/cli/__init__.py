"""The command line: click commands -> Scenario -> `gvlstress.api` -> reporters -> exit code.

`main` (the console script ``gvlstress.cli:main``) is the only place that prints errors and picks
exit codes; each command module (`run`, `look`, `campaign`) is a thin layer over the API. It is
imported lazily here so that `inspect` can raise its own priority before the imports, which a
process burning every core would otherwise starve (see `gvlstress.system.priority`).
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    """The console script: `inspect` looks at the ordinary priority only where it cannot raise it."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--version"]:  # answered before click and the commands are imported: a CI step's first line
        from gvlstress import __version__

        sys.stdout.write(f"gvlstress, version {__version__}\n")
        return
    if args[:1] == ["inspect"]:
        from gvlstress.system.priority import boost

        boost()
    from gvlstress.cli.main import main as funnel

    funnel(argv)


__all__ = ["main"]
