"""Controls that prove the harness on this host before anyone trusts it: `selftest` (positive and
negative controls on the built-in loader) and `doctor` (can the tools attach here).

Modules (one line each, from their docstrings):

- `catalogue`: The catalogue of real bugs used as positive controls: documented hangs in Python
  and PyPI packages, each with the documented fix or workaround as...
- `doctor`: `gvlstress doctor`: will a run on this host get full diagnostics? Checks, each with
  a hint.
- `realbug`: One entry of the real-bug catalogue (`controls.catalogue`) and the words its fields
  take.
- `realbugs`: Real bugs as positive controls: how an entry of the catalogue
  (`controls.catalogue`) fared on this host: its trigger caught and named, its control...
- `selftest`: Positive and negative controls: prove on this host that the harness catches and
  names every known failure class before anyone trusts a clean run...
"""
