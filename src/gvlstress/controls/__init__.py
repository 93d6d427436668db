"""Controls that prove the harness on this host before anyone trusts it: `selftest` (positive and
negative controls on the built-in loader) and `doctor` (can the tools attach here).

Modules (one line each, from their docstrings):

- `catalogue`: The catalogue of real bugs used as positive controls: documented hangs in Python
  and PyPI packages, each with the documented fix or workaround as...
- `doctor`: `gvlstress doctor`: will a run on this host get full diagnostics? Checks, each with
  a hint.
- `realbug`: Where a real-bug entry's trigger runs from: its program in ``controls/bugs``, and
  the exit code of a host that cannot run it.
- `realbugs`: Real bugs as positive controls: which catalogue entries to run, and how they fared
  on this host as JSON (`gvlstress selftest --real`; the entries...
- `selftest`: Positive and negative controls: prove on this host that the harness catches and
  names every known failure class before anyone trusts a clean run...
"""
