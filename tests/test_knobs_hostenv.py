"""Thread knobs, redaction, and the CPU budget from recorded cgroup trees."""

from __future__ import annotations

from pathlib import Path

import pytest

from gvlstress.probes import host as hostenv
from gvlstress.system.knobs import is_knob, thread_knobs
from gvlstress.system.redact import REDACTED


def test_only_thread_knobs_and_never_secrets() -> None:
    env = {
        "RAYON_NUM_THREADS": "16",
        "OMP_NUM_THREADS": "4",
        "GVL_NUM_THREADS": "8",
        "GVL_API_TOKEN": "abc",
        "GVL_CACHE": "https://user:hunter2@example.invalid/x",
        "OMP_WEIRD": "sk_live_0123456789abcdefghijklmnop",
        "AWS_SECRET_ACCESS_KEY": "s3cr3t",
        "HF_TOKEN": "hf_xyz",
        "HOME": "/root",
    }
    knobs = thread_knobs(env)
    assert knobs == {
        "GVL_API_TOKEN": REDACTED,
        "GVL_CACHE": REDACTED,
        "GVL_NUM_THREADS": "8",
        "OMP_NUM_THREADS": "4",
        "OMP_WEIRD": REDACTED,
        "RAYON_NUM_THREADS": "16",
    }


def test_cgroup_v2_quota(tmp_path: Path) -> None:
    (tmp_path / "cg" / "job").mkdir(parents=True)
    (tmp_path / "cg" / "job" / "cpu.max").write_text("1530000 100000\n")
    (tmp_path / "self").write_text("0::/job\n")
    assert hostenv._cgroup_quota(tmp_path / "cg", tmp_path / "self") == (
        15.3,
        str(tmp_path / "cg/job/cpu.max"),
    )


def test_cgroup_v2_unlimited(tmp_path: Path) -> None:
    (tmp_path / "cg").mkdir()
    (tmp_path / "cg" / "cpu.max").write_text("max 100000\n")
    (tmp_path / "self").write_text("0::/\n")
    assert hostenv._cgroup_quota(tmp_path / "cg", tmp_path / "self")[0] is None


def test_cgroup_v1_quota(tmp_path: Path) -> None:
    d = tmp_path / "cg" / "cpu,cpuacct" / "docker" / "abc"
    d.mkdir(parents=True)
    (d / "cpu.cfs_quota_us").write_text("150000\n")
    (d / "cpu.cfs_period_us").write_text("100000\n")
    (tmp_path / "self").write_text("4:memory:/docker/abc\n3:cpu,cpuacct:/docker/abc\n")
    assert hostenv._cgroup_quota(tmp_path / "cg", tmp_path / "self")[0] == 1.5


@pytest.mark.slow
def test_live_budget_is_consistent() -> None:
    b = hostenv.cpu_budget()
    assert 1 <= b.affinity <= b.cpu_count
    assert 0 < b.cpus <= b.affinity
    snap = hostenv.snapshot()
    assert snap.cpu_budget == b.cpus
    assert all(is_knob(k) for k in snap.thread_knobs)
