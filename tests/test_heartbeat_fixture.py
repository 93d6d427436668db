"""The shared progress board across a real spawned process, and the fixture's fault-rate draws."""

from __future__ import annotations

import functools
import multiprocessing as mp
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import all_parked_on_futex, wait_for
from gvlstress.system.heartbeat import Board, Phase


def _child_writes(raw: object) -> None:
    board = Board.attach(raw)
    board.start(1, 4242)
    board.phase(1, Phase.ITERATING, rayon_threads=16)
    for i in range(1, 6):
        board.beat(1, i, 0.01 * i, 17)


@pytest.mark.slow
def test_board_rows_written_by_a_spawned_process_are_read_whole() -> None:
    board = Board.create(3)
    before = time.monotonic()
    p = mp.get_context("spawn").Process(target=_child_writes, args=(board.raw,))
    p.start()
    p.join(30)
    assert p.exitcode == 0
    row = board.read(1)
    assert (row.pid, row.iterations, row.phase, row.rayon_threads, row.threads) == (
        4242,
        5,
        Phase.ITERATING,
        16,
        17,
    )
    assert row.batch_s_max == 0.05
    assert row.last_beat is not None
    assert before <= row.last_beat <= time.monotonic()  # one system-wide monotonic clock
    assert board.read(0).pid is None
    board.reset()
    assert board.read(1).iterations == 0


@pytest.mark.slow
def test_fault_rate_makes_the_hang_arrive_after_a_random_number_of_batches(tmp_path: Path) -> None:
    # GIVEN five fixture processes, different seeds, each batch deadlocking with probability 0.2
    log = tmp_path / "faults.log"
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gvlstress_native",
                "--fault",
                "lock_across_par_iter",
                "--fault-rate",
                "0.2",
                "--rayon",
                "2",
                "--seed",
                str(seed),
                "--fault-log",
                str(log),
            ],
            stdout=subprocess.DEVNULL,
        )
        for seed in range(5)
    ]
    try:
        # WHEN each has hung (every thread parked on a futex)
        for p in procs:
            wait_for(functools.partial(all_parked_on_futex, p.pid, 3), 30, f"fixture {p.pid} to hang")
        lines = wait_for(
            lambda: (
                log.read_text().splitlines()
                if log.exists() and len(log.read_text().splitlines()) == 5
                else None
            ),
            10,
            "five fault stamps",
        )
    finally:
        for p in procs:
            p.kill()
            p.wait(10)
    # THEN each hung exactly once, at its own batch, not all on the first
    pids = {int(line.split()[0]) for line in lines}
    assert pids == {p.pid for p in procs}
    batches = [int(line.split()[3]) for line in lines]
    assert all(line.split()[2] == "lock_across_par_iter" for line in lines)
    assert len(set(batches)) > 1
    assert max(batches) > 0
