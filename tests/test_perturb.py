"""Strict starvation and the gang on real processes: a stopped thread really does not run, every
stop is undone before a probe looks and when the perturber stops, and a tracer that dies
leaves no thread stopped."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from conftest import wait_for
from gvlstress.supervisor.chaos import Perturber
from gvlstress.system.threadstop import ThreadStopper

pytestmark = [
    pytest.mark.slow,
    pytest.mark.alone,
    pytest.mark.timeout(120),
]  # threads stopped by ptrace: load beside them changes what a state read sees

SPINNERS = """
import hashlib, sys, threading
data = bytes(1 << 20)
def spin():  # hashing a large buffer runs without the GIL: the threads really run at once
    while True:
        hashlib.sha256(data).digest()
for _ in range(int(sys.argv[1])):
    threading.Thread(target=spin, daemon=True).start()
print("up", flush=True)
threading.Event().wait()
"""


@contextmanager
def spinners(n: int) -> Iterator[subprocess.Popen[bytes]]:
    """A real process whose `n` threads burn CPU (plus its main thread, parked)."""
    proc = subprocess.Popen(
        [sys.executable, "-c", SPINNERS, str(n)], stdout=subprocess.PIPE, start_new_session=True
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == b"up\n"
        wait_for(lambda: len(tids(proc.pid)) == n + 1, 10, "the spinning threads")
        yield proc
    finally:
        proc.kill()
        proc.wait(10)


def tids(pid: int) -> list[int]:
    return sorted(int(t) for t in os.listdir(f"/proc/{pid}/task"))


def stat(pid: int, tid: int) -> tuple[str, int]:
    """(state letter, user+system ticks) of one thread."""
    with open(f"/proc/{pid}/task/{tid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return fields[0], int(fields[11]) + int(fields[12])


def states(pid: int) -> list[str]:
    return [stat(pid, t)[0] for t in tids(pid)]


def ticks_over(pid: int, tid: int, window: float) -> int:
    """CPU ticks `tid` used over a window (measured, not waited for: the window is the probe)."""
    before = stat(pid, tid)[1]
    time.sleep(window)  # a measurement window, not a synchronisation
    return stat(pid, tid)[1] - before


def test_a_stopped_thread_does_not_run_while_its_siblings_do() -> None:
    with spinners(2) as proc:
        victim, sibling = tids(proc.pid)[1:]
        stopper = ThreadStopper()
        for _ in range(5):
            assert stopper.stop(victim)
            assert stat(proc.pid, victim)[0] == "t"  # a ptrace-stop of that thread alone
            if ticks_over(proc.pid, sibling, 0.3) > 0:
                break
            stopper.resume(victim)  # it was stopped between bytecodes, holding the GIL: again
        else:
            pytest.fail("the victim held the GIL at every stop")
        assert ticks_over(proc.pid, victim, 0.3) == 0
        assert proc.poll() is None  # the harness's own waitpid never sees the stop
        stopper.resume_all()
        assert ticks_over(proc.pid, victim, 0.3) > 0


def _yama_scope() -> int:
    try:
        with open("/proc/sys/kernel/yama/ptrace_scope") as fh:
            return int(fh.read())
    except (OSError, ValueError):
        return 0  # no Yama: classic ptrace rules


@pytest.mark.skipif(
    os.geteuid() != 0 and _yama_scope() > 0, reason="a sibling tracer needs root or Yama ptrace_scope 0"
)
def test_a_thread_stopped_by_a_tracer_that_dies_runs_again() -> None:
    """No PTRACE_O_EXITKILL: the kernel detaches a dead tracer's tracees, so a SIGKILLed
    harness leaves no thread stopped."""
    with spinners(1) as proc:
        victim = tids(proc.pid)[1]
        tracer = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "import sys, threading; from gvlstress.system.threadstop import ThreadStopper;"
                "assert ThreadStopper().stop(int(sys.argv[1])); print('held', flush=True); threading.Event().wait()",
                str(victim),
            ],
            stdout=subprocess.PIPE,
        )
        assert tracer.stdout is not None
        assert tracer.stdout.readline() == b"held\n"
        assert stat(proc.pid, victim)[0] == "t"
        tracer.kill()
        tracer.wait(10)
        wait_for(lambda: stat(proc.pid, victim)[0] == "R", 10, "the victim to run again")
        assert ticks_over(proc.pid, victim, 0.3) > 0


def test_chaos_stops_threads_and_resumes_every_one_for_a_probe_and_at_the_end() -> None:
    with spinners(9) as proc:
        chaos = Perturber(7, lambda: [proc.pid], strict=True).start()
        try:
            wait_for(lambda: "t" in states(proc.pid), 30, "chaos to stop a thread")
            with chaos.quiet:
                assert "t" not in states(proc.pid)  # a probe never sees a state chaos made
                held = chaos.starvations
                for _ in range(20):  # and nothing new is stopped while it looks
                    assert "t" not in states(proc.pid)
                    os.sched_yield()
                assert chaos.starvations == held
        finally:
            did = chaos.stop()["chaos"]
        assert "t" not in states(proc.pid)
        assert did["starvations"] >= 1
        assert did["refused"] == 0
        assert did["workers_touched"] == 1
        assert did["starved_s"] > 0
        # what the stall threshold discounts: every second a thread of the worker was held
        assert chaos.held[proc.pid] == pytest.approx(did["starved_s"], abs=1e-3)  # run.json rounds to ms


def test_the_gang_runs_one_worker_at_a_time_and_resumes_all() -> None:
    with spinners(1) as a, spinners(1) as b:
        gang = Perturber(3, lambda: [a.pid, b.pid], strict=False, gang_ms=20).start()
        try:

            def one_stopped() -> bool:
                sa, sb = states(a.pid), states(b.pid)
                return ("T" in sa) != ("T" in sb)  # exactly one of the two is stopped

            wait_for(one_stopped, 30, "one worker stopped, the other running")
            wait_for(lambda: gang.turns >= 4, 30, "the gang to rotate")
            with gang.quiet:
                assert "T" not in states(a.pid) + states(b.pid)
        finally:
            did = gang.stop()["gang"]
        assert "T" not in states(a.pid) + states(b.pid)
        assert did["turns"] >= 4
        assert did["workers_touched"] == 2
        assert gang.held[a.pid] > 0  # both took turns being held stopped
        assert gang.held[b.pid] > 0
