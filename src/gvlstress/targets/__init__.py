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
"""
