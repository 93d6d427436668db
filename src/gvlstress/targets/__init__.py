"""Targets: what a wave's workers iterate.

A target has two halves. The supervisor half (`Target.prepare`) runs once per run in the
harness: it validates settings, builds data, and returns a `TargetPlan`. The worker half is a
'module:function' named by the plan, imported by spawned workers *after* thread knobs are
applied; that module must import only the stdlib at its top.

A target may also carry ``loader``: the record of what its loader knows about itself
(`base.LoaderFacts`: its pool's variable and key, whether it keeps an inherited setting, its
cap, its known hang). This package is the only place a loader is named; the audit, the reports,
``--like``, ``doctor`` and ``compare`` read the record as data.

Built-ins: ``native``, ``genvarloader``, ``shapes``, ``race``, ``program``. Others:
``module:callable`` returning a Target, or an entry point in the ``gvlstress.targets`` group.

Modules (one line each, from their docstrings):

- `base`: The target contract shared by built-in and third-party targets: `Target` (a name, the
  record of what its loader knows about itself, and `prepare`)...
- `callable`: The ten-line target contract: ``--target MODULE:CALLABLE``.
- `gvl`: The ``genvarloader`` target: the real loader from PyPI, as in genvarloader issue #263.
- `gvl_data`: The genvarloader target's shared constants: its modes and the synthetic dataset's
  defaults.
- `gvl_support`: Supervisor-side support for the genvarloader target: interpreter probe, cached
  data, plan.
- `native`: The built-in target: the ``gvlstress_native`` rayon loader (``native/`` in this
  repository).
- `program`: ``--target program -o path=SCRIPT [-o args="A B"]``: any Python program as a
  target.
- `races`: The ``race`` target: real, pinned races from PyPI as amplification yardsticks.
- `registry`: Find a target by name: built-ins, ``module:callable``, or a ``gvlstress.targets``
  entry point.
- `shapes`: The ``shapes`` target: workers that wait the ways real loaders wait, healthy or
  hung.
- `standalone`: How a standalone program opens each target's loader with the standard library
  alone: the worker half of a target, written out without gvlstress...
"""
