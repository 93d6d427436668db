"""The command line: click commands -> Scenario -> `gvlstress.api` -> reporters -> exit code.

`main` (the console script ``gvlstress.cli:main``) is the only place that prints errors and picks
exit codes; each command module (`run`, `inspection`, `watch`, `campaign`...) is a thin layer over the API. It is
imported lazily here so that `inspect` can raise its own priority before the imports, which a
process burning every core would otherwise starve (see `gvlstress.system.priority`).

Modules (one line each, from their docstrings):

- `campaign`: `compare`, `merge`, `sweep`, `slurm`, `plan`: campaigns of many waves.
- `group`: The `gvlstress` command group; each command module adds its commands to it when
  imported.
- `help`: What each command's ``--help`` ends with, kept as data: its exit codes (their words
  from `gvlstress.errors.ExitCode`, or the command's own) and...
- `inspection`: `inspect`, `doctor`, `selftest`: inspections of a live process, of this host, of
  the harness itself.
- `main`: The command line's entry point and its error funnel: the only place that prints errors
  and picks exit codes.
- `options`: The options `run`, `hunt`, `sweep` and `slurm` share (one list, not copies), parsed
  into a Scenario; the exit code a run's result means; the...
- `reference`: The documentation's CLI reference, made from the click commands themselves: a
  sphinx-click directive over the `gvlstress` group renders every...
- `run`: `run`, `hunt`, `report`, `scenarios`: running waves and reading what they left.
- `shrink`: `shrink`: cut a run that hung down to the smallest setting that still hangs, and
  write a standalone reproducer of it.
- `terminal`: The terminal: one console, stdout that a closed pipe cannot break, Ctrl-C and
  SIGTERM turned into a stop flag (a second one stops at once).
- `watch`: `watch`: a hang watchdog for any long job (a training run, a test suite, a pipeline
  step).
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
