"""The Environment and Configuration sections of a report: where a run (or a look) ran, with
which tools and thread knobs, and the settings it ran with."""

from __future__ import annotations

from gvlstress.model import HostFacts, RunResult
from gvlstress.reporters.markdown.tables import code, table, value_of


def environment(result: RunResult) -> list[str]:
    """A run's Environment table."""
    return environment_rows(result.environment, result.target.versions, result)


def environment_rows(env: HostFacts, versions: dict[str, str], result: RunResult | None) -> list[str]:
    """The Environment table of a run or of a look (`result` None): host, tools, ptrace, knobs."""
    tools = env.tools
    spy = tools.get("py_spy") or {}
    nat = tools.get("native_stack_tool") or {}
    ptrace = tools.get("ptrace") or {}
    quota = env.cpu_quota
    rows = [
        ["gvlstress", env.gvlstress or "?"],
        ["Python", f"{env.python} ({env.implementation})"],
        ["platform", env.platform],
        ["kernel / libc", f"{env.kernel} / {env.libc}"],
        [
            "CPUs",
            f"{env.cpu_count} online, affinity {env.affinity}, "
            f"cgroup quota {f'{quota:g}' if quota else 'none'} -> budget {env.cpu_budget}",
        ],
        [
            "target",
            ", ".join(f"{k} {v}" for k, v in versions.items())
            or (f"`{result.scenario.target}`" if result is not None else "-"),
        ],
        ["py-spy", spy.get("version") or ("found, version unreadable" if spy.get("path") else "not found")],
        ["native stacks", f"{nat.get('name') or 'none'}"],
        [
            "ptrace",
            f"uid {ptrace.get('uid')}, CAP_SYS_PTRACE {ptrace.get('cap_sys_ptrace')}, "
            f"yama scope {ptrace.get('yama_ptrace_scope')}",
        ],
    ]
    knobs = env.thread_knobs
    rows.append(["thread knobs (parent)", ", ".join(f"{k}={v}" for k, v in knobs.items()) or "none set"])
    worker_knobs = sorted(
        {
            ", ".join(f"{k}={v}" for k, v in w.env_effective.items()) or "none set"
            for wave in (result.waves if result else ())
            for w in wave.workers
            if w.pid and (w.env_effective or w.env_inherited)
        }
    )
    if worker_knobs:
        rows.append(["thread knobs (workers)", "; ".join(worker_knobs)])
    return table(["", ""], rows)


def configuration(result: RunResult) -> list[str]:
    """A run's Configuration table: the scenario's settings that were given a value."""
    sc = result.scenario
    keys = [
        "target",
        "workers",
        "rayon",
        "inherit_rayon",
        "start_method",
        "waves",
        "iterations",
        "duration",
        "timeout",
        "stall",
        "stall_floor",
        "startup_grace",
        "warm_up",
        "fault",
        "fault_rate",
        "seed",
        "source",
    ]
    settings = sc.to_dict()
    rows = [[k, code(value_of(settings[k]))] for k in keys if settings.get(k) is not None]
    if sc.options:
        rows.append(["target options", code(", ".join(f"{k}={value_of(v)}" for k, v in sc.options.items()))])
    return table(["setting", "value"], rows)
