"""The warm-up before the first wave, per-wave environment, and what a dying worker printed.

Real spawned workers running a test target (tests/support/probe_target.py); the genvarloader
side (a real cold numba cache) is in test_genvarloader_e2e.py.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from conftest import load_run, run_cli, workers_of
from gvlstress.judge.patterns import failure_cause
from gvlstress.system.redact import REDACTED, redact_text


def probe_run(report_dir: Path, *args: str) -> tuple[int, str, str]:
    result = run_cli(
        [
            "run",
            "--target",
            "probe_target:ProbeTarget",
            "--report-dir",
            str(report_dir),
            "--waves",
            "1",
            *args,
        ]
    )
    return result.returncode, result.stdout, result.stderr


@pytest.mark.slow
def test_a_worker_that_prints_an_llvm_error_and_aborts_is_explained_from_its_stderr(
    report_dir: Path,
) -> None:
    # GIVEN a worker that prints what a poisoned numba cache prints (and a secret) before aborting
    code, out, err = probe_run(
        report_dir, "-o", "mode=llvm_abort", "-o", "at=2", "--workers", "3", "--iterations", "100000"
    )
    # THEN it is a crash, blamed on that worker alone, explained by the line it printed
    assert code == 3, out + err
    run = load_run(report_dir)
    culprit, *siblings = workers_of(run)
    assert (culprit["verdict"], culprit["signal"]) == ("crash", signal.SIGABRT)
    assert {w["verdict"] for w in siblings} <= {"ok", "cancelled"}
    tail = culprit["stderr_tail"]
    assert any(line.startswith("LLVM ERROR: Symbol not found: __gufunc__") for line in tail), tail
    diagnosis = culprit["diagnosis"]
    assert "LLVM/numba JIT error" in diagnosis["summary"]
    assert "crash (crash)" not in diagnosis["summary"]
    assert "NUMBA_CACHE_DIR" in diagnosis["hint"]
    # AND the report shows the stderr tail; the planted password is nowhere in the run directory
    run_dir = next(report_dir.iterdir())
    md = (run_dir / "report.md").read_text()
    assert "stderr of the worker" in md
    assert "LLVM ERROR: Symbol not found" in md
    assert "A worker crashed in 1 of 1 wave" in md
    for path in run_dir.rglob("*"):
        if path.is_file():
            assert "hunter2" not in path.read_text(errors="replace"), path
    assert "hunter2" not in out + err


@pytest.mark.slow
def test_the_warm_up_runs_once_in_its_own_process_before_the_workers(
    report_dir: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "warm.json"
    code, out, err = probe_run(
        report_dir, "-o", f"warm_marker={marker}", "--workers", "2", "--iterations", "3", "--rayon", "3"
    )
    assert code == 0, out + err
    run = load_run(report_dir)
    warmed = json.loads(marker.read_text())
    # a process of its own, not one of the workers, with the workers' thread settings applied
    assert warmed["pid"] not in {w["pid"] for w in workers_of(run)}
    assert warmed["env"]["RAYON_NUM_THREADS"] == "3"
    assert warmed["env"]["PROBE_WAVE"] == "wave-warm-up"
    facts = run["target"]["warm_up"]
    assert facts["done"] is True
    assert facts["elapsed_s"] > 0


@pytest.mark.slow
def test_no_warm_up_skips_it_and_says_so(report_dir: Path, tmp_path: Path) -> None:
    marker = tmp_path / "warm.json"
    code, out, err = probe_run(
        report_dir, "-o", f"warm_marker={marker}", "--no-warm-up", "--workers", "1", "--iterations", "2"
    )
    assert code == 0, out + err
    assert not marker.exists()
    assert load_run(report_dir)["target"]["warm_up"]["done"] is False


@pytest.mark.slow
def test_a_failing_warm_up_is_one_line_and_exit_4(report_dir: Path, tmp_path: Path) -> None:
    code, out, err = probe_run(
        report_dir, "-o", f"warm_marker={tmp_path / 'w.json'}", "-o", "warm=raise", "--workers", "1"
    )
    assert code == 4, out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("gvlstress: error: the warm-up of target 'probe_target:ProbeTarget' failed: ")
    assert "RuntimeError: warm-up failed on purpose" in lines[0]
    assert "--no-warm-up" in lines[0]


@pytest.mark.slow
def test_env_values_name_their_wave(report_dir: Path) -> None:
    code, out, err = probe_run(report_dir, "--workers", "1", "--iterations", "1", "--waves", "2")
    assert code == 0, out + err
    # probe_target asks for PROBE_WAVE=wave-{wave}; the harness fills the index in per wave
    run = load_run(report_dir)
    seen = [[w["target_info"]["probe_wave"] for w in wave["workers"]] for wave in run["waves"]]
    assert seen == [["wave-0"], ["wave-1"]]


@pytest.mark.parametrize(
    ("lines", "sig", "cause"),
    [
        (
            ("x", "LLVM ERROR: Symbol not found: __gufunc__._ZN6seqpro"),
            signal.SIGABRT,
            "LLVM/numba JIT error",
        ),
        (("thread '<unnamed>' panicked at src/lib.rs:3:5:", "boom"), signal.SIGABRT, "Rust panic"),
        (("Fatal Python error: PyThreadState_Get: no current thread",), signal.SIGABRT, "fatal Python error"),
        (("memory allocation of 8589934592 bytes failed",), signal.SIGABRT, "out of memory"),
        (("terminate called after throwing an instance of 'std::runtime_error'",), None, "C++ exception"),
        ((), signal.SIGKILL, "killed by SIGKILL"),
        (("some unrelated line",), signal.SIGABRT, None),
        ((), None, None),
    ],
)
def test_failure_causes_are_read_from_stderr(
    lines: tuple[str, ...], sig: int | None, cause: str | None
) -> None:
    found = failure_cause(lines, sig)
    assert (found.name if found else None) == cause


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("postgres://u:p/w@h/db", "p/w"),
        ("Authorization: Bearer sk-abcdef0123456789", "sk-abcdef0123456789"),
        ("GITHUB_TOKEN=ghp_abcdefghijklmnop0123", "ghp_abcdefghijklmnop0123"),
        ("--password=hunter2", "hunter2"),
        ("aws AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
        ("jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "eyJhbGciOiJIUzI1NiJ9"),
        ("key aZ3kQ9pL2mN8vB4cX7tY1wE5rU6iO0pA", "aZ3kQ9pL2mN8vB4cX7tY1wE5rU6iO0pA"),
        # a secret beside a run directory's stamp is still a secret
        ("/r/20261122T064720Z-x/aZ3kQ9pL2mN8vB4cX7tY1wE5rU6iO0pA", "aZ3kQ9pL2mN8vB4cX7tY1wE5rU6iO0pA"),
    ],
)
def test_secrets_in_free_text_are_redacted_by_value(text: str, secret: str) -> None:
    out = redact_text(text)
    assert secret not in out
    assert REDACTED in out


def test_mangled_symbols_and_plain_lines_are_kept() -> None:
    for text in (
        "LLVM ERROR: Symbol not found: __gufunc__._ZN6seqpro6_numba16gufunc_translate241B104c8tJTAgIEp2E5ArrayIhLi1E",
        "rayon_core::latch::LockLatch::wait_and_reset",
        "TOKENIZERS_PARALLELISM=false",
        "gvlstress merge /tmp/shards/s0/20261122T064720Z-adhoc /tmp/shards/s1/20261122T064722Z-adhoc",
        "(pass them with -o KEY=VALUE)",  # a usage placeholder before punctuation
        "--token TOKEN.",
    ):
        assert redact_text(text) == text
