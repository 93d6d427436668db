"""Run the loader loop in the foreground: ``python -m gvlstress_native --fault MODE``.

It prints its pid first, so anyone can make a hung process to point ``gvlstress inspect``,
py-spy or gdb at. ``--rayon`` sets ``RAYON_NUM_THREADS`` before the pool is built.
"""

from __future__ import annotations

import argparse
import os
import sys
import time


def _die_with_parent() -> None:
    """The forked child must not outlive the parent that reports its pid."""
    import ctypes
    import signal

    try:
        ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gvlstress_native", description=__doc__)
    parser.add_argument("--fault", default="none", help="fault mode (default: none)")
    parser.add_argument("--fault-rate", type=float, default=1.0, help="probability per batch")
    parser.add_argument("--rayon", type=int, default=None, help="rayon pool threads")
    parser.add_argument("--batches", type=int, default=0, help="stop after N batches (0: forever)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--slow-ms", type=int, default=1500)
    parser.add_argument("--fault-log", default=None, help="append 'pid epoch mode batch' when a hang fires")
    parser.add_argument("--window-us", type=int, default=0, help="lock_order / init_race window (microseconds)")
    args = parser.parse_args(argv)
    if args.rayon is not None:
        if args.rayon < 1:
            parser.error("--rayon must be >= 1")
        os.environ["RAYON_NUM_THREADS"] = str(args.rayon)

    import gvlstress_native as gn  # after RAYON_NUM_THREADS is set

    try:
        loader = gn.Loader(
            seed=args.seed,
            fault=args.fault,
            fault_rate=args.fault_rate,
            slow_ms=args.slow_ms,
            fault_log=args.fault_log,
            window_us=args.window_us,
        )
    except ValueError as exc:
        parser.error(str(exc))
    if loader.fault == "fork_after_init":
        loader.next_batch()  # the pool's threads exist now, in this process only
        child = os.fork()
        if child:
            print(f"pid {child} fault=fork_after_init (forked after the pool started; parent {os.getpid()})",
                  flush=True)
            _, status = os.waitpid(child, 0)
            return os.waitstatus_to_exitcode(status)
        _die_with_parent()
    else:
        print(f"pid {os.getpid()} fault={loader.fault} rate={args.fault_rate}", flush=True)
    started = time.monotonic()
    while args.batches == 0 or loader.batches < args.batches:
        loader.next_batch()
        if loader.batches == 1:
            print(f"rayon threads {gn.current_num_threads()}", flush=True)
        if loader.batches % 50 == 0 or loader.batches == 1:
            rate = loader.batches / max(time.monotonic() - started, 1e-9)
            print(f"batch {loader.batches} ({rate:.1f}/s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
