"""Recreating another host, live: a profile exported inside a real cgroup (a CPU quota and a memory
limit, an inherited RAYON_NUM_THREADS) and replayed outside it gives waves with the same quota
fraction, the same pool size and the same memory limit in force, read back from the kernel.
Root with writable cgroup controllers (v1 or v2), as in CI; every cgroup made here is removed."""

from __future__ import annotations

import dataclasses
import json
import os
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest

from conftest import GVL, cli_env, load_run, run_cli, workers_of
from gvlstress.hosts.profile_file import read, write
from gvlstress.model.profile import HostProfile
from gvlstress.system.cgroups import WaveGroup
from test_profile import host_263

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]

QUOTA = 1.5
LIMIT = 768 * 2**20
RUN = ["--workers", "2", "--waves", "2", "--iterations", "20", "--startup-grace", "120"]


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`doctor --export` run inside a cgroup with a 1.5-core quota and a 768 MiB limit, born
    with RAYON_NUM_THREADS=16; the cgroup is removed before any test replays the profile."""
    out = tmp_path_factory.mktemp("host") / "host.toml"
    group = WaveGroup.create(f"gvlstress-test-host-{os.getpid()}", cores=QUOTA, memory_bytes=LIMIT)
    assert group is not None
    try:
        join = "; ".join(f"echo $$ > {shlex.quote(f)}" for f in group.procs_files)
        argv = [*GVL, "doctor", "--export", str(out)]
        r = subprocess.run(
            ["sh", "-c", f"{join}; exec {shlex.join(argv)}"],
            env=cli_env(RAYON_NUM_THREADS="16"),
            capture_output=True,
            text=True,
            timeout=900,
            check=False,
        )
        assert r.returncode == 0, r.stdout + r.stderr
    finally:
        group.close()
    assert not any(d.exists() for d in group.dirs)
    return out


def _waves(run: dict[str, Any]) -> list[dict[str, Any]]:
    assert run["waves"], run
    return list(run["waves"])


def test_the_export_read_the_quota_limit_and_knob_it_was_born_with(exported: Path) -> None:
    profile = read(exported)
    assert profile.cpu.quota == QUOTA
    assert profile.memory.limit == LIMIT
    assert profile.threads["RAYON_NUM_THREADS"] == "16"
    assert profile.pools["rayon"] == 16  # rayon's own pool, started in a fresh process there
    assert "genvarloader" in profile.packages


def test_replayed_outside_the_cgroup_every_wave_has_the_same_quota_fraction_pool_and_limit(
    exported: Path, report_dir: Path
) -> None:
    # WHEN the profile is replayed by a harness outside any quota, without RAYON_NUM_THREADS
    r = run_cli(["run", "--like", str(exported), *RUN, "--report-dir", str(report_dir)], timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    run = load_run(report_dir)
    profile = read(exported)
    share = QUOTA / profile.cpu.affinity
    # THEN nothing was left out, and each wave had the host's conditions, read back from the kernel
    assert run["like"]["not_recreated"] == []
    for wave in _waves(run):
        amp = wave["amplifiers"]
        assert amp["not_applied"] == []
        assert amp["cpu_quota"]["cores_in_force"] / profile.cpu.affinity == pytest.approx(share)
        assert amp["like"]["quota_fraction"] == {"there": share, "here": share}
        assert amp["memory_limit"]["bytes_in_force"] == LIMIT
        assert amp["cpu_quota"]["workers_joined"] == 2
        assert not Path(amp["cpu_quota"]["cgroup"]).exists()  # removed after the wave
    for w in workers_of(run):
        assert w["env_inherited"]["RAYON_NUM_THREADS"] == "16"
        assert w["rayon_threads"] == profile.pools["rayon"] == 16
    assert "(applied)" in r.stdout
    assert "not recreated" not in r.stdout


def _bigger(profile: HostProfile) -> HostProfile:
    """The exported profile as the reporter's 16-CPU host would have written it."""
    cpu = dataclasses.replace(host_263().cpu, cgroup_version=profile.cpu.cgroup_version)
    return dataclasses.replace(profile, cpu=cpu, host="gpu-node-7")


def test_a_bigger_hosts_quota_is_the_same_fraction_here_and_the_cores_are_said(
    exported: Path, tmp_path: Path, report_dir: Path
) -> None:
    # GIVEN the profile of a 16-CPU host with a 15.3-core quota, named by a scenario file beside it
    write(_bigger(read(exported)), tmp_path / "host.toml")
    (tmp_path / "like-263.toml").write_text('[scenario]\nlike = "host.toml"\ntarget = "native"\n')
    # WHEN it is replayed from another directory on this (smaller) machine
    r = run_cli(
        ["run", "--scenario", str(tmp_path / "like-263.toml"), *RUN, "--report-dir", str(report_dir)],
        timeout=600,
        cwd=Path("/"),
    )
    assert r.returncode == 0, r.stdout + r.stderr
    run = load_run(report_dir)
    here = os.sched_getaffinity(0)
    # THEN the quota is 15.3/16 of the CPUs here, the pool is still the host's 16, and it says so
    assert "(scaled)" in r.stdout
    assert "(not recreated)" in r.stdout
    assert run["scenario"]["cpu_quota"] == pytest.approx(15.3 / 16 * len(here), abs=1e-4)
    for wave in _waves(run):
        fraction = wave["amplifiers"]["like"]["quota_fraction"]
        assert fraction["here"] == pytest.approx(15.3 / 16, abs=1e-3)
        assert wave["amplifiers"]["like"]["pool"] == {"there": 16, "here": [16]}
        assert wave["amplifiers"]["not_applied"] == []
    assert any(
        line.startswith(f"CPUs: 16 (0-15) there, {len(here)} here") for line in run["like"]["not_recreated"]
    )
    report = (Path(run["run_dir"]) / "report.md").read_text()
    assert "## Host recreated (--like)" in report
    assert "recreating host gpu-node-7" in report


@pytest.mark.parametrize("command", ["run", "hunt", "sweep"])
def test_a_profile_this_version_does_not_read_stops_every_command_before_anything_starts(
    command: str, exported: Path, tmp_path: Path
) -> None:
    newer = tmp_path / "newer.toml"
    newer.write_text(exported.read_text().replace("gvlstress.host/1", "gvlstress.host/2"))
    reports = tmp_path / "reports"
    r = run_cli([command, "--like", str(newer), "--report-dir", str(reports), "--waves", "1"], timeout=120)
    assert r.returncode == 2, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("gvlstress: error: ")
    assert "schema 'gvlstress.host/2'" in line
    assert "(hint: " in line
    assert not reports.exists() or not any(reports.iterdir())


def test_compare_puts_the_two_hosts_side_by_side(exported: Path, tmp_path: Path) -> None:
    runs = []
    for i in range(2):
        d = tmp_path / f"r{i}"
        r = run_cli(
            ["run", "--like", str(exported), "--waves", "1", "--iterations", "5", "--report-dir", str(d)],
            timeout=600,
        )
        assert r.returncode == 0, r.stdout + r.stderr
        runs.append(json.loads((next(d.iterdir()) / "run.json").read_text())["run_dir"])
    r = run_cli(["compare", *runs, "--output", str(tmp_path / "cmp.md")], timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    text = (tmp_path / "cmp.md").read_text()
    assert "## Hosts (runs made with --like)" in text
    assert "| CPU quota | 1.5 cores (75% of the affinity" in text
