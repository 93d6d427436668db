"""gvlstress: reproduce, detect and explain deadlocks in native (rayon/PyO3) data loaders.

This package root imports nothing: spawned workers import ``gvlstress.worker`` through it, and
the worker must stay light (stdlib + the target).

Modules (one line each, from their docstrings):

- `__main__`: ``python -m gvlstress``: the same entry point as the console script.
- `api`: The programmatic API the CLI and the pytest plugin use: one module per use case.
- `campaign`: Campaigns of many launches: shards and their merge, comparing runs, exploring
  settings, sweeps, Slurm arrays, and the statistics that decide from...
- `cli`: The command line: click commands -> Scenario -> `gvlstress.api` -> reporters -> exit
  code.
- `controls`: Controls that prove the harness on this host before anyone trusts it: `selftest`
  (positive and negative controls on the built-in loader) and...
- `errors`: One error funnel: every expected failure is a `GvlstressError` that carries its exit
  code.
- `extras`: The optional parts of the install: what each extra brings, and the one line a
  command that needs a missing one says (exit 2) before it starts...
- `hosts`: Another host's conditions, off the page: the host profile file ``doctor --export``
  writes and ``run --like`` reads (`profile_file`), and how a...
- `judge`: Pure judging: facts in (/proc samples, stacks, a wave's bookkeeping), verdict and
  explanation out.
- `look`: The look pipeline: one way from pids (or a core) to a judged look, for every caller.
- `model`: The shared types: frozen dataclasses that flow from probes to judging to reporters,
  split by stage.
- `probes`: Probes: read a live process (or a core) without changing it: /proc, py-spy, the
  native stack tools.
- `pytest_plugin`: pytest plugin (entry point ``pytest11``): stress runs in a project's CI slow
  tier.
- `pytest_watch`: pytest's side of the watchdog on every test (``--gvlstress-watch``): the
  helper process (`gvlstress.api.watch_tests`) that watches pytest's tree...
- `reporters`: Reporters: the only code that formats results (the console, Markdown, JSON,
  JUnit, raw dumps).
- `scenario`: Scenarios: a frozen description of a run, and what each of its settings may hold.
- `scenario_sources`: Where a scenario's settings come from, layered into one checked
  `Scenario`: the defaults, a scenario file (found by name or path, read from TOML)...
- `store`: A run directory read back as state: what `shrink` resumes from, what `merge`,
  `compare` and `plan` combine, what `report` renders again.
- `supervisor`: Launching and surviving waves: the watch loop (`wave`), the executor and every
  private attribute of it (`pool`), per-worker bookkeeping (`slots`)...
- `system`: Stdlib-level helpers both sides use: the harness and its spawned workers.
- `targets`: Targets: what a wave's workers iterate.
- `worker`: Spawn-safe worker entry point.
"""

__version__ = "0.1.0"
