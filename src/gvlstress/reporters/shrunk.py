"""The shrunk setting as gvlstress runs it: its scenario file (scenario.toml) and its run line
(run.sh, and what the console and shrink.md show).

Every key and value goes through the TOML writer (`system.tomltext`) or `shlex`; a setting the
command line cannot carry as it is (a NUL, a list or table option, a string ``-o`` would read
as a number or trim) is run from its scenario file instead.
"""

from __future__ import annotations

import shlex
from typing import Any

from gvlstress.model.shrink import Reproduction
from gvlstress.system import tomltext


def render_toml(rep: Reproduction) -> str:
    """The minimal setting as a scenario file (`gvlstress run --scenario THIS`): every key and
    value through the TOML writer, the source path in a comment that cannot break its line."""
    fields = {k: v for k, v in rep.scenario.items() if k != "options" and v is not None}
    out = [
        tomltext.comment(f"The smallest setting `gvlstress shrink` found from {rep.source}."),
        "# gvlstress run --scenario THIS_FILE",
        "[scenario]",
        *(f"{tomltext.key(k)} = {tomltext.value(v)}" for k, v in fields.items()),
    ]
    options = rep.scenario.get("options") or {}
    if options:
        out += [
            "",
            "[target]",
            *(f"{tomltext.key(str(k))} = {tomltext.value(v)}" for k, v in options.items()),
        ]
    return "\n".join(out) + "\n"


MAX_WORD = 100_000
"""Bytes of one word of a command line, and of all of them (Linux passes at most 128 KiB per
argument to a program it starts)."""
_BOOL_FLAGS = {"warm_parent": "--warm-parent", "preload": "--preload", "keep_core": "--keep-core"}


def _number(value: float) -> str:
    """A float as short as it reads back the same (``30`` for 30.0, every digit otherwise)."""
    short = f"{value:g}"
    return short if float(short) == value or value != value else repr(value)


def run_argv(rep: Reproduction) -> tuple[str, ...]:
    """The `gvlstress run` line of the minimal setting, flag by flag."""
    argv = ["gvlstress", "run"]
    for key, value in rep.scenario.items():
        if key in ("options", "name", "description") or value is None:
            continue
        if key in _BOOL_FLAGS:
            argv += [_BOOL_FLAGS[key]] if value else []
        elif key == "warm_up":
            argv += [] if value else ["--no-warm-up"]
        elif key == "thread_env":
            for var in value:
                argv += ["--thread-env", var]
        else:
            shown = _number(value) if isinstance(value, float) else str(value)
            argv += ["--" + key.replace("_", "-"), shown]
    for key, value in (rep.scenario.get("options") or {}).items():
        shown = _number(value) if isinstance(value, float) else value
        argv += ["-o", f"{key}={str(shown).lower() if isinstance(value, bool) else shown}"]
    return tuple(argv)


def _rides(key: str, value: Any) -> bool:
    """Does ``-o key=value`` give back this key and value (`-o` trims both, reads numbers and
    true/false, and takes the key up to the first ``=``)?"""
    if not key or key != key.strip() or "=" in key or "\0" in key:
        return False
    if isinstance(value, (bool, int, float)):
        return True
    if not isinstance(value, str) or value != value.strip() or "\0" in value:
        return False
    if value.lower() in ("true", "false"):
        return False
    for kind in (int, float):
        try:
            kind(value)
        except ValueError:
            continue
        return False
    return True


def line_carries(rep: Reproduction) -> bool:
    """Can the run line carry the setting as it is? Not a NUL (no command line holds one), a
    word longer than the kernel passes to a program, a list or table option, or a string option
    `-o` would read as a number or trim: then the run line is the scenario file's."""
    plain = all(
        not isinstance(v, (list, tuple, dict)) or k == "thread_env"
        for k, v in rep.scenario.items()
        if k != "options"
    )
    options = rep.scenario.get("options") or {}
    argv = run_argv(rep)
    return (
        plain
        and all(_rides(str(k), v) for k, v in options.items())
        and not any("\0" in a for a in argv)
        and max(len(a.encode(errors="surrogateescape")) for a in argv) < MAX_WORD
        and sum(len(a) for a in argv) < MAX_WORD
    )


def run_line(rep: Reproduction, scenario_file: str = "shrink/scenario.toml") -> str:
    """The `gvlstress run` line as a shell reads it (each word quoted by `shlex`), or the run of
    the scenario file where the line cannot carry the setting."""
    if line_carries(rep):
        return shlex.join(run_argv(rep))
    return shlex.join(("gvlstress", "run", "--scenario", scenario_file))


def render_sh(rep: Reproduction) -> str:
    """run.sh: the run line, each word quoted by `shlex`; or the scenario file beside it."""
    line = (
        shlex.join(run_argv(rep))
        if line_carries(rep)
        else 'gvlstress run --scenario "$(dirname -- "$0")/scenario.toml"'
    )
    return f"#!/bin/sh\n# the shrunk setting, run by gvlstress itself\n{line}\n"
