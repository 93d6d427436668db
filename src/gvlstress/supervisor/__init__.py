"""Launching and surviving waves: the watch loop (`wave`), the executor and every private
attribute of it (`pool`), per-worker bookkeeping (`slots`), when and whom to probe
(`probing`), what each worker runs (`spec`), the amplifiers, the warm-up and the fork server.
"""

from gvlstress.supervisor.wave import Observer, StopFlag, Wave, WorkerStatus, wave_seed, worker_spec

__all__ = ["Observer", "StopFlag", "Wave", "WorkerStatus", "wave_seed", "worker_spec"]
