"""Targets: what a wave's workers iterate.

A target has two halves. The supervisor half (`Target.prepare`) runs once per run in the
harness: it validates settings, builds data, and returns a `TargetPlan`. The worker half is a
'module:function' named by the plan, imported by spawned workers *after* thread knobs are
applied; that module must import only the stdlib at its top.

Built-ins: ``native``. Others: ``module:callable`` returning a Target, or an entry point in the
``gvlstress.targets`` group.
"""
