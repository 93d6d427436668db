"""Host profiles: the TOML a person can read and the strict reader, the cgroup readers on v1 and
v2 trees, and the secrets policy (thread knobs only, redacted) on this process and on another."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from gvlstress.errors import UsageError
from gvlstress.hosts.profile_file import parse, read, render
from gvlstress.model.profile import (
    PROFILE_SCHEMA,
    CpuProfile,
    HostProfile,
    MemoryProfile,
    ProcessProfile,
    SystemProfile,
)
from gvlstress.probes import cgroupfs
from gvlstress.probes import profile as profiles
from gvlstress.system.redact import REDACTED


def host_263() -> HostProfile:
    """The reporter's host of genvarloader #263, as an export would read it."""
    return HostProfile(
        cpu=CpuProfile(
            count=16,
            affinity=16,
            affinity_list="0-15",
            quota=15.3,
            quota_us=1530000,
            period_us=100000,
            cgroup_version=2,
        ),
        memory=MemoryProfile(total=64 * 2**30, swap_total=0, limit=8 * 2**30, swap_limit=0),
        process=ProcessProfile(
            python="3.12.1", implementation="CPython", start_method="spawn", start_method_how="seen"
        ),
        system=SystemProfile(kernel="5.15.0-91-generic", glibc="2.35", machine="x86_64"),
        threads={"RAYON_NUM_THREADS": "16"},
        pools={"genvarloader": 16, "rayon": 16},
        packages={"genvarloader": "0.36.0"},
        host="gpu-node-7",
    )


def test_a_profile_reads_back_as_it_was_written() -> None:
    profile = host_263()
    text = render(profile)
    assert text.startswith("# gvlstress host profile")
    assert f'schema = "{PROFILE_SCHEMA}"' in text
    assert "quota = 15.3  # cores of CFS quota" in text  # commented for a person
    assert parse(text, "host.toml") == profile


def test_odd_names_and_values_survive_the_round_trip() -> None:
    profile = dataclasses.replace(
        host_263(), threads={"GVL_X.Y": 'a "quoted" \\ value\x7f'}, host="h\tost", packages={"my.pkg": "1.0"}
    )
    assert parse(render(profile), "x") == profile


@pytest.mark.parametrize(
    ("edit", "says"),
    [
        (
            lambda t: t.replace(PROFILE_SCHEMA, "gvlstress.host/2"),
            "schema 'gvlstress.host/2' is not the one this gvlstress reads",
        ),
        (
            lambda t: t.replace(f'schema = "{PROFILE_SCHEMA}"\n', ""),
            "not a gvlstress host profile (no `schema` key)",
        ),
        (lambda t: t.replace("[cpu]\n", "[cpu]\nturbo = true\n"), "unknown key(s) in [cpu]: turbo"),
        (lambda t: t.replace("count = 16", 'count = "sixteen"'), "[cpu] count: expected a whole number"),
        (
            lambda t: t.replace("affinity = 16", "affinity = 0"),
            "[cpu] affinity: 0 is not a value a host can have",
        ),
        (
            lambda t: t.replace("[threads]", '[threads]\nLD_PRELOAD = "evil.so"\n#'),
            "[threads] LD_PRELOAD is not a thread knob",
        ),
        (lambda t: t + "\n[gpu]\nname = 'x'\n", "unknown key(s) gpu"),
        (lambda t: t.replace("[cpu]", "[cpu"), "not valid TOML"),
        (lambda t: t.replace("count = 16  # CPUs online (os.cpu_count)\n", ""), "[cpu] lacks count"),
    ],
)
def test_the_reader_refuses_what_it_does_not_read_in_one_line(edit, says: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(UsageError) as err:
        parse(edit(render(host_263())), "host.toml")
    assert err.value.message.startswith("host.toml: ")
    assert says in err.value.message
    assert "\n" not in err.value.message
    assert err.value.hint


@pytest.mark.parametrize(
    ("threads", "says"),
    [
        ({"OMP_A=B": "2"}, "[threads] OMP_A=B is not a thread knob"),
        ({"OMP_A\x00B": "2"}, "is not a thread knob"),
        ({"OMP_NUM_THREADS": "2\x00"}, "[threads] OMP_NUM_THREADS: a NUL character"),
        ({"RAYON_NUM_THREADS": "1" * 1_000_000}, "1000000 characters, longer than any thread setting"),
        ({"OMP_PLACES": "{0}," * 2_000}, "8000 characters, longer than any thread setting (at most 4096)"),
    ],
)
def test_a_thread_knob_no_worker_environment_can_hold_is_refused_in_one_line(
    threads: dict[str, str], says: str
) -> None:
    # GIVEN a profile whose [threads] holds what no variable can be (issue 37: exit 70, or exit 1
    # with nothing said for a 1 MB value)
    text = render(dataclasses.replace(host_263(), threads=threads))
    # WHEN it is read THEN it is refused in one line that names the key, with a hint
    with pytest.raises(UsageError) as err:
        parse(text, "host.toml")
    assert says in err.value.message
    assert err.value.hint


def test_a_missing_or_binary_profile_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="no such host profile"):
        read(tmp_path / "nope.toml")
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(UsageError, match="not a host profile"):
        read(tmp_path / "bin.toml")


def _cg(root: Path, rel: str, files: dict[str, str]) -> None:
    d = root / rel
    d.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (d / name).write_text(text + "\n")


def test_v1_the_tightest_limit_up_the_hierarchy_binds(tmp_path: Path) -> None:
    root, me = tmp_path / "cg", tmp_path / "self"
    _cg(root, "cpu", {"cpu.cfs_quota_us": "-1", "cpu.cfs_period_us": "100000"})
    _cg(root, "cpu/batch", {"cpu.cfs_quota_us": "300000", "cpu.cfs_period_us": "100000"})
    _cg(root, "cpu/batch/job", {"cpu.cfs_quota_us": "500000", "cpu.cfs_period_us": "100000"})
    _cg(root, "memory", {"memory.limit_in_bytes": str(9223372036854771712)})
    _cg(
        root,
        "memory/batch/job",
        {"memory.limit_in_bytes": str(2**30), "memory.memsw.limit_in_bytes": str(2**30 + 2**28)},
    )
    _cg(root, "cpuset/batch/job", {"cpuset.effective_cpus": "0-3"})
    me.write_text("5:memory:/batch/job\n4:cpu:/batch/job\n3:cpuset:/batch/job\n0::/\n")
    quota = cgroupfs.cpu_quota(root, me)
    assert quota is not None
    assert quota.cores == 3.0
    assert quota.file.endswith("cpu/batch/cpu.cfs_quota_us")
    assert cgroupfs.memory_limit(root, me) == cgroupfs.MemoryLimit(
        2**30, 2**28, str(root / "memory/batch/job/memory.limit_in_bytes")
    )
    assert cgroupfs.cpuset(root, me) == "0-3"


def test_v2_limits_and_swap_and_a_container_that_sees_only_its_own_cgroup(tmp_path: Path) -> None:
    root, me = tmp_path / "cg", tmp_path / "self"
    _cg(root, "", {"cgroup.controllers": "cpu memory", "cpu.max": "max 100000"})
    _cg(
        root,
        "k8s/pod",
        {
            "cpu.max": "1530000 100000",
            "memory.max": str(8 * 2**30),
            "memory.swap.max": "0",
            "cpuset.cpus.effective": "0-15",
        },
    )
    me.write_text("0::/k8s/pod\n")
    assert cgroupfs.cpu_quota(root, me) == cgroupfs.Quota(1530000, 100000, str(root / "k8s/pod/cpu.max"), 2)
    assert cgroupfs.memory_limit(root, me).limit == 8 * 2**30
    assert cgroupfs.memory_limit(root, me).swap_limit == 0
    assert cgroupfs.cpuset(root, me) == "0-15"
    # in a container the host's path is not mounted: the mount itself is the process's cgroup
    me.write_text("0::/kubepods/burstable/pod123/abc\n")
    _cg(root, "", {"cgroup.controllers": "cpu memory", "cpu.max": "250000 100000", "memory.max": "max"})
    assert cgroupfs.cpu_quota(root, me).cores == 2.5  # type: ignore[union-attr]
    assert cgroupfs.memory_limit(root, me).limit is None


def test_this_process_profile_keeps_thread_knobs_only_and_redacts_secrets(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("RAYON_NUM_THREADS", "16")
    monkeypatch.setenv("GVL_API_TOKEN", "ghp_abcdefghijklmnopqrstuvwxyz0123456789")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
    profile = profiles.read()
    assert profile.threads["RAYON_NUM_THREADS"] == "16"
    assert profile.threads["GVL_API_TOKEN"] == REDACTED
    assert "AWS_SECRET_ACCESS_KEY" not in profile.threads
    text = render(profile)
    assert "ghp_" not in text
    assert "wJalr" not in text
    assert "AWS_" not in text
    assert profile.cpu.affinity == len(profiles.affinity(None))
    assert profile.process.python


@pytest.mark.slow
def test_another_process_is_read_through_proc_with_its_start_method(tmp_path: Path) -> None:
    # GIVEN a pipeline: a Python with a spawned worker, its environment holding a knob and a secret
    code = (
        "import multiprocessing as mp, sys\n"
        "def wait(): sys.stdin.read()\n"
        "if __name__ == '__main__':\n"
        "    p = mp.get_context('spawn').Process(target=wait); p.start()\n"
        "    print('ready', flush=True); sys.stdin.read(); p.kill()\n"
    )
    script = tmp_path / "pipeline.py"
    script.write_text(code)
    env = {"PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "3", "HF_TOKEN": "hf_abcdefghijklmnopqrstuvwxyz0123"}
    proc = subprocess.Popen(
        [sys.executable, str(script)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, text=True
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        # WHEN its profile is read by pid
        profile = profiles.read(proc.pid, packages=("pytest",))
    finally:
        proc.kill()
        proc.wait(10)
    # THEN its own knobs (not ours, no secret), its children's start method, its interpreter
    assert profile.threads == {"OMP_NUM_THREADS": "3"}
    assert profile.process.start_method == "spawn"
    assert "multiprocessing.spawn" in profile.process.start_method_how
    assert profile.process.pid == proc.pid
    assert profile.process.python == sys.version.split()[0]
    assert profile.process.executable == sys.executable  # the venv's python, not the base it links to
    assert "pytest" in profile.packages
