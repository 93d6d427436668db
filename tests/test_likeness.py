"""``--like``: a profile mapped onto this machine (pure rules, table tests), applied as a Scenario
transformation where the run's own settings win, each wave read back, and the record kept in
run.json, report.md and compare."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from builders import run as run_result
from builders import wave, worker
from gvlstress import store
from gvlstress.api.like import check_wave
from gvlstress.campaign.compare import compare
from gvlstress.errors import UsageError
from gvlstress.hosts.mapping import Here, finish, propose
from gvlstress.model.profile import (
    APPLIED,
    GIVEN,
    MISSING,
    SAME,
    SCALED,
    UNKNOWN,
    CpuProfile,
    HostProfile,
    Recreation,
)
from gvlstress.reporters import json_report
from gvlstress.reporters.markdown import render_compare
from gvlstress.reporters.markdown.run import render
from gvlstress.scenario import Scenario
from gvlstress.scenario_sources import with_settings
from gvlstress.system.redact import REDACTED
from test_profile import host_263


def this_machine(cpus: int = 2, **kw: object) -> Here:
    """A 2-CPU machine like CI's: another kernel and glibc, Python 3.11, genvarloader 0.43.1."""
    there = host_263()
    mine = dataclasses.replace(
        there,
        cpu=CpuProfile(count=cpus, affinity=cpus, affinity_list=f"0-{cpus - 1}"),
        memory=dataclasses.replace(there.memory, total=24 * 2**30, limit=None),
        system=dataclasses.replace(there.system, kernel="6.18.44", glibc="2.36"),
        threads={},
        pools={},
        host="ci",
    )
    base: dict[str, object] = {
        "profile": mine,
        "cgroups_writable": True,
        "python": "3.11.7",
        "packages": {"genvarloader": "0.36.0"},
        "pool_key": "genvarloader",
    }
    return Here(**{**base, **kw})  # type: ignore[arg-type]


def by_name(rec: Recreation) -> dict[str, tuple[str, str]]:
    return {c.name: (c.status, c.here) for c in rec.conditions}


def like(sc: Scenario, here: Here, there: HostProfile | None = None) -> tuple[Scenario, Recreation]:
    there = there or host_263()
    proposal = propose(there, here, "host.toml")
    changed, kept = with_settings(sc, proposal.settings)
    return changed, finish(proposal, kept, "host.toml", there, here.profile)


def test_the_263_host_on_two_cpus_keeps_its_quota_fraction_pool_limit_and_knobs() -> None:
    # GIVEN the reporter's host (16 CPUs, 15.3-core quota, RAYON_NUM_THREADS=16) and 0.36.0 here
    sc, rec = like(Scenario(target="genvarloader"), this_machine())
    # THEN the quota is the same fraction of 2 CPUs, the knob inherited, the limit the same
    assert sc.cpu_quota == pytest.approx(15.3 / 16 * 2)
    assert sc.inherit_rayon == 16
    assert sc.memory_limit == 8 * 2**30
    assert sc.start_method == "spawn"
    assert sc.rayon is None  # 0.36.0 keeps the inherited 16: no --rayon needed
    status = by_name(rec)
    assert status["CPU quota"][0] == SCALED
    assert "95.6%" in status["CPU quota"][1]
    assert status["RAYON_NUM_THREADS"][0] == APPLIED
    assert rec.pool == 16
    # AND what no setting can make is said, with both sides
    assert [line.split(":")[0] for line in rec.not_recreated] == ["CPUs", "Python", "kernel", "glibc"]
    assert "CPUs: 16 (0-15) there, 2 here" in rec.not_recreated[0]


def test_a_release_that_overwrites_the_knob_gets_the_hosts_pool_through_rayon() -> None:
    # genvarloader >= 0.37 replaces RAYON_NUM_THREADS with min(affinity, quota): 2 here, 16 there
    sc, rec = like(Scenario(target="genvarloader"), this_machine(keeps_inherited_rayon=False))
    assert sc.rayon == 16
    assert sc.inherit_rayon == 16
    assert by_name(rec)["pool"] == (APPLIED, "16 (--rayon 16: 2 CPUs here)")


def test_a_bigger_machine_pins_the_workers_to_as_many_cpus_and_keeps_the_quota() -> None:
    sc, rec = like(Scenario(), this_machine(cpus=32, pool_key="rayon"))
    assert sc.squeeze == 16
    assert sc.cpu_quota == 15.3
    assert by_name(rec)["CPUs"][0] == APPLIED
    assert by_name(rec)["CPU quota"][0] == APPLIED
    assert not any(line.startswith("CPUs") for line in rec.not_recreated)


def test_the_runs_own_settings_win_and_are_said_to() -> None:
    given = Scenario(cpu_quota=1.0, inherit_rayon=8, inherit_env={"OMP_NUM_THREADS": "1"})
    there = dataclasses.replace(
        host_263(), threads={"RAYON_NUM_THREADS": "16", "OMP_NUM_THREADS": "16", "MKL_NUM_THREADS": "4"}
    )
    sc, rec = like(given, this_machine(), there)
    assert (sc.cpu_quota, sc.inherit_rayon) == (1.0, 8)
    assert sc.inherit_env == {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "4"}
    status = by_name(rec)
    assert status["CPU quota"] == (GIVEN, "1, the run's own setting")
    assert status["RAYON_NUM_THREADS"][0] == GIVEN
    assert status["OMP_NUM_THREADS"][0] == GIVEN
    assert status["MKL_NUM_THREADS"][0] == APPLIED
    assert "cpu_quota" not in rec.settings


def test_without_a_writable_cgroup_the_quota_and_limit_are_not_recreated() -> None:
    sc, rec = like(Scenario(), this_machine(cgroups_writable=False))
    assert sc.cpu_quota is None
    assert sc.memory_limit is None
    assert by_name(rec)["CPU quota"][0] == MISSING
    assert by_name(rec)["memory limit"][0] == MISSING


def test_knobs_redacted_there_or_set_only_here() -> None:
    there = dataclasses.replace(host_263(), threads={"GVL_TOKEN": REDACTED})
    here = this_machine()
    here = dataclasses.replace(
        here, profile=dataclasses.replace(here.profile, threads={"OMP_NUM_THREADS": "1"})
    )
    sc, rec = like(Scenario(), here, there)
    assert sc.inherit_env == {"OMP_NUM_THREADS": ""}  # born without it, as there
    assert "GVL_TOKEN" not in sc.inherit_env
    assert by_name(rec)["GVL_TOKEN"][0] == MISSING


@pytest.mark.parametrize("knob", ["\u00b2", "\u0664", "9" * 4000])
def test_a_rayon_knob_that_is_no_count_is_inherited_as_it_is_not_read_as_one(knob: str) -> None:
    # GIVEN a host whose RAYON_NUM_THREADS is a superscript two, an Arabic-Indic four, or 4,000
    # nines (each is "digits" to str.isdigit; int() refuses the first two and the last is no count)
    there = dataclasses.replace(host_263(), threads={"RAYON_NUM_THREADS": knob}, pools={})
    # WHEN it is recreated here THEN it is inherited as text, and no pool is taken from it
    sc, rec = like(Scenario(), this_machine(), there)
    assert sc.inherit_env == {"RAYON_NUM_THREADS": knob}
    assert sc.inherit_rayon is None
    assert "inherited RAYON_NUM_THREADS" not in rec.pool_how


def test_start_method_python_and_packages() -> None:
    there = dataclasses.replace(
        host_263(), process=dataclasses.replace(host_263().process, start_method="fork")
    )
    _, rec = like(
        Scenario(python="/x/python"),
        this_machine(uses_spawn_only=True, python_found="/py312/bin/python"),
        there,
    )
    assert by_name(rec)["start method"][0] == MISSING
    assert any("CPython 3.12 is at /py312/bin/python" in line for line in rec.not_recreated)
    unseen = dataclasses.replace(
        host_263(), process=dataclasses.replace(host_263().process, start_method=None)
    )
    _, rec = like(Scenario(), this_machine(packages={"genvarloader": "0.43.1"}), unseen)
    assert by_name(rec)["start method"][0] == UNKNOWN
    assert "genvarloader: 0.36.0 there, 0.43.1 here" in " ".join(rec.not_recreated)
    same = dataclasses.replace(this_machine(), profile=host_263(), python="3.12.1")
    _, rec = like(Scenario(), same)
    assert rec.not_recreated == ()
    assert {c.status for c in rec.conditions} <= {SAME, APPLIED}


def test_a_profile_value_a_run_refuses_names_the_profile() -> None:
    tiny = dataclasses.replace(host_263(), threads={"RAYON_NUM_THREADS": "16", "OMP_NUM_THREADS": "4"})
    proposal = propose(tiny, this_machine(), "host.toml")
    bad = {**proposal.settings, "cpu_quota": (0.0001, "host.toml [cpu] quota, scaled")}
    with pytest.raises(UsageError, match=r"host.toml \[cpu\] quota, scaled: must be in"):
        with_settings(Scenario(), bad)


def _recreated() -> tuple[Scenario, Recreation]:
    return like(Scenario(workers=2, target="genvarloader"), this_machine())


def _amplified(cores: float, limit: int) -> dict[str, object]:
    return {
        "cpu_quota": {"cores_in_force": cores},
        "memory_limit": {"bytes_in_force": limit},
        "not_applied": [],
    }


def test_each_wave_is_read_back_and_what_it_lacked_joins_not_applied() -> None:
    sc, rec = _recreated()
    born = {"RAYON_NUM_THREADS": "16"}
    good = wave(
        workers=(worker(rayon_threads=16, env_inherited=born, target_info={"python": "3.11"}),),
        amplifiers=_amplified(1.9125, 8 * 2**30),
    )
    said: list[str] = []
    checked = check_wave(good, rec, sc, said.append)
    assert checked.amplifiers["like"]["quota_fraction"] == {"there": 0.9563, "here": 0.9563}
    assert checked.amplifiers["like"]["pool"] == {"there": 16, "here": [16]}
    assert checked.amplifiers["not_applied"] == []
    assert said == []
    bad = wave(
        workers=(worker(rayon_threads=2, env_inherited={}, target_info={"python": "3.11"}),),
        amplifiers=_amplified(1.0, 2**30),
    )
    gaps = check_wave(bad, rec, sc, said.append).amplifiers["not_applied"]
    assert [g.split(" ")[1:3] for g in gaps] == [
        ["the", "CPU"],
        ["the", "memory"],
        ["0", "of"],
        ["pools", "of"],
    ]
    assert said == [f"wave 1: {g}" for g in gaps]


def test_the_record_survives_run_json_and_shows_in_report_and_compare(tmp_path: Path) -> None:
    sc, rec = _recreated()
    result = dataclasses.replace(run_result(scenario=sc), like=rec, run_dir=str(tmp_path))
    json_report.write(result, tmp_path)
    back = store.read(tmp_path)
    assert back.like == rec
    md = render(back)
    assert "## Host recreated (--like)" in md
    assert "| CPU quota | 15.3 of 16 CPUs (95.6%) |" in md
    assert "- kernel: 5.15.0-91-generic there, 6.18.44 here" in md
    hosts = render_compare(compare([back, back]))
    assert "## Hosts (runs made with --like)" in hosts
    assert "gpu-node-7" in hosts
    assert "| CPU quota |" in hosts


def test_a_limit_above_this_machines_ram_is_set_but_said_not_to_bind() -> None:
    big = dataclasses.replace(
        host_263(),
        memory=dataclasses.replace(host_263().memory, limit=32 * 2**30, swap_limit=None, swap_total=2**30),
    )
    sc, rec = like(Scenario(), this_machine(), big)
    assert sc.memory_limit == 32 * 2**30
    assert by_name(rec)["RAM"][0] == MISSING
    assert by_name(rec)["swap"][0] == MISSING
