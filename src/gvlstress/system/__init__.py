"""Stdlib-level helpers both sides use: the harness and its spawned workers.

The heartbeat board, thread knobs, redaction, reads that cannot block, the watchdog, process
trees, helper processes fed on their stdin, the wave's cgroups and the cache directory. Nothing here imports another layer of
gvlstress (but `errors`), so the worker can import it and stay light.

Modules (one line each, from their docstrings):

- `cache`: Where gvlstress keeps what outlives a run: datasets, test environments, the warm-up
  lock.
- `cgroups`: One wave's cgroups: containment always (where a hierarchy is writable), plus the
  CPU quota and the memory limit when they are asked for.
- `failure`: A loader's exception as data: made where it is raised, bounded, encodable, and
  never raising.
- `heartbeat`: A progress board in shared memory: one row of doubles per worker slot.
- `helper`: Helper processes the harness feeds on their stdin (stdlib only: the pytest plugin
  imports it in every pytest run).
- `knobs`: Thread knobs: which environment variables a report may carry, and how workers get
  them.
- `plugin`: The pytest plugin's settings, one record each: the plugin reads them (command line >
  environment > ini > default) and the docs render their table...
- `priority`: The harness's own share of the CPU when it looks at a process that burns every
  core.
- `proctree`: Kill and reap process trees by pid, with deadlines.
- `ptracer`: ``python -m gvlstress.system.ptracer WATCHER -- COMMAND...``: declare the watcher a
  ptracer, then become COMMAND (exec: same pid, nothing of this...
- `redact`: Secret redaction, applied once at each door a secret can come in by.
- `releases`: Release numbers as a loader's behaviour changes with them: ``0.36.0`` -> ``(0, 36,
  0)``.
- `safeio`: Reads that a FIFO, a device or a huge file cannot block or stall, and writes that
  cannot destroy one (stdlib only).
- `text`: Text from outside made safe to store and show: printable, valid UTF-8, and of bounded
  size.
- `threadstop`: Stop one thread of another process, not the process: `PTRACE_SEIZE` +
  `PTRACE_INTERRUPT` on its thread id, `PTRACE_DETACH` to resume it.
- `tomltext`: TOML written for a parser to read back: every key and value quoted by what it is,
  never pasted.
- `watchdog`: Nothing the harness started outlives it, even when it is SIGKILLed.
"""
