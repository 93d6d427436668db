"""Launching and surviving waves: the watch loop (`wave`), the executor and every private
attribute of it (`pool`), per-worker bookkeeping (`slots`), when and whom to probe
(`probing`), what each worker runs (`spec`), the wave's cgroups and its sweep (`containment`),
the amplifiers (`levers`: their life within one wave), the warm-up and the fork server.

The names below are imported from `wave` when first used (PEP 562): a command that needs only
`supervisor.events` (the terminal's stop flag) does not import the wave machinery.

Modules (one line each, from their docstrings):

- `amplifiers`: Amplifiers: make a rare race happen more often, from outside an unmodified
  worker.
- `chaos`: Scheduling perturbation from outside an unmodified worker: strict per-thread
  starvation (rr's chaos mode) and gang scheduling (one worker owns the...
- `containment`: Nothing a wave started outlives it: the wave's cgroups, each worker handed to
  the watchdog and to the cgroup the moment it is seen, and at the...
- `delays`: The delay layer's harness half (``--delays SEED``): where it is, what each wave's
  workers are born with, and the placement it learns from hangs.
- `events`: What a wave tells the outside while it runs (`Observer`) and how it is told to stop
  (`StopFlag`).
- `forkserver`: `--preload`: import the target once in multiprocessing's fork server, and prove
  it fork-safe.
- `history`: What `watch` remembers between looks, cheaply: the processes of the job's tree and
  when each was found gone.
- `job`: The watched job: a command started in its own process group (given the terminal, as a
  shell gives it) or a running process attached to with...
- `jobio`: The watched job's side of the terminal and of its output, and what ``--pid`` may
  name.
- `levers`: The amplifiers over one wave's life: the burners before the workers start; chaos,
  the gang and ``--kill-worker`` once the workers exist...
- `pool`: The ProcessPoolExecutor of one wave, and every private attribute of it used anywhere.
- `probing`: When and whom to look at: a quiet worker once it is due, its siblings in the same
  /proc window, everyone at the launch deadline, the hung before...
- `provoke`: Levers that provoke process-level failure: a worker killed as the OOM killer would
  kill one.
- `slots`: Per-worker bookkeeping inside one wave: what the heartbeat board and the live
  statistics say of each slot, and the frozen facts the verdict rules...
- `spec`: What each worker of a wave runs, and the birth environment it is started in.
- `stops`: What watch does about the job's stopped processes (state T).
- `warmup`: The warm-up: open the target once, in one process of the workers' interpreter,
  before any wave.
- `watching`: The watch loop: a long job read from /proc until it stops making progress, then
  looked at.
- `wave`: One wave: launch N workers, watch their heartbeats, catch hangs, capture, kill, reap.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gvlstress.supervisor.wave import Observer, StopFlag, Wave, WorkerStatus, wave_seed, worker_spec

__all__ = ["Observer", "StopFlag", "Wave", "WorkerStatus", "wave_seed", "worker_spec"]


def __getattr__(name: str) -> Any:
    if name not in __all__:
        raise AttributeError(f"module 'gvlstress.supervisor' has no attribute {name!r}")
    value = getattr(importlib.import_module("gvlstress.supervisor.wave"), name)
    globals()[name] = value
    return value
