"""Nothing a wave started outlives it: the wave's cgroups, each worker handed to the watchdog
and to the cgroup the moment it is seen, and at the wave's end a sweep of whatever is left.

Apart from the watch loop (`wave`) because it must hold whatever the loop did or failed to do:
the cgroups exist before any worker starts, and the sweep runs from the wave's ``finally`` (also
when the loop raised). The same cgroups carry the wave's quota and memory limit (``--cpu-quota``,
``--memory-limit``: `system.cgroups.WaveGroup`); a worker kept alive (``hunt --keep-alive``)
keeps its cgroup, and its children, until `close()`.
"""

from __future__ import annotations

import os
import time
from typing import Any

from gvlstress.scenario import Scenario
from gvlstress.supervisor import amplifiers
from gvlstress.system import proctree, watchdog
from gvlstress.system.cgroups import WaveGroup


class Containment:
    """The cgroups of one wave and the processes it had to kill at its end."""

    def __init__(self, scenario: Scenario) -> None:
        self.born = proctree.boot_ticks()
        """When the wave began: a process carrying the run's token born since is the wave's."""
        self.group = WaveGroup.create(
            f"gvlstress-{os.getpid()}-{time.monotonic_ns()}",
            cores=scenario.cpu_quota,
            memory_bytes=scenario.memory_limit,
        )
        """The wave's cgroups (containment, and the quota when asked); None where none is writable."""
        for d in self.group.dirs if self.group else ():
            watchdog.watch_cgroup(str(d))
        self.leftovers: set[int] = set()
        """Processes the workers started that outlived them and were killed at the wave's end."""

    @property
    def procs_files(self) -> list[str]:
        """Where a worker writes its pid to join the wave's cgroups before the target runs."""
        return self.group.procs_files if self.group else []

    def adopt(self, pid: int) -> None:
        """A worker seen for the first time: the watchdog ends it if the harness dies, and it
        joins the wave's cgroups (a worker the executor started late joins here)."""
        watchdog.watch(pid)
        if self.group is not None:
            self.group.join(pid)

    def oom_kills(self) -> int | None:
        """Workers the kernel's OOM killer killed under ``--memory-limit`` so far."""
        return self.group.oom_kills() if self.group else 0

    def record(self) -> dict[str, dict[str, Any]]:
        """The quota and memory limit as they were in force, read before the cgroups go."""
        return amplifiers.group_record(self.group) if self.group is not None else {}

    def sweep(self, kept: set[int], spare: set[int]) -> None:
        """Everything left in the wave's cgroups (at any depth, daemonized or not) is killed and
        the cgroups removed; then, cgroup or not, every process carrying the run's token that was
        born since the wave began and is no helper nor in `spare`. A `kept` worker keeps its
        cgroup and its children until `close()`."""
        if self.group is not None and not kept:
            self.leftovers |= set(self.group.close())
            self.group = None
        if (own := watchdog.owner()) is not None:
            keep = watchdog.helpers() | kept | spare
            self.leftovers |= set(proctree.sweep_owned(own[0], self.born, keep))

    def close(self) -> None:
        """The kept worker's cgroup, once that worker is ended: its stragglers go with it."""
        if self.group is not None:
            self.group.close()
            self.group = None
