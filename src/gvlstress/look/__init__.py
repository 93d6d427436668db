"""The look pipeline: one way from pids (or a core) to a judged look, for every caller.

``run`` at a stall, ``inspect``, ``inspect --tree``, ``inspect --core`` and ``watch`` describe what
they know of the processes (`model.look.Subject`) and get a `Seen` back: the `Look` (every
process over the window, its relatives and wiring) and its `Judged` verdicts from
`judge.across`. Sits between the callers (``supervisor``, ``api``) and what it uses (``probes``
to read, ``judge`` to decide); it never launches nor kills anything.
"""
