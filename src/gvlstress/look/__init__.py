"""The look pipeline: one way from pids (or a core) to a judged look, for every caller.

``run`` at a stall, ``inspect``, ``inspect --tree``, ``inspect --core`` and ``watch`` describe what
they know of the processes (`model.look.Subject`) and get a `Seen` back: the `Look` (every
process over the window, its relatives and wiring) and its `Judged` verdicts from
`judge.across`. Sits between the callers (``supervisor``, ``api``) and what it uses (``probes``
to read, ``judge`` to decide); it never launches nor kills anything. Every read, and the clock it
watches by, goes through one `host.Host` (`host.LIVE`, this machine, by default), so a test
replays a recorded world through the same pipeline.

Modules (one line each, from their docstrings):

- `core`: A core as a look: one process at one instant, judged by the same rules as a live one.
- `family`: Whom a look takes in besides the processes asked about: their descendants, the
  processes at the other end of what they wait on, and the parent a...
- `host`: What a look reads of the machine, and its clock: one seam between the look pipeline
  and the probes.
- `pipeline`: The look pipeline: pids and what the caller knows of them in, one `Look` out,
  judged once.
- `series`: One process over a look: its /proc samples, its stacks (first and later), its
  children over the window and the locals a rule asked for; and the...
- `windows`: How long a look watches: constants the CLI's options show as defaults, in a module
  that imports nothing (a command's ``--help`` reads them without...
"""
