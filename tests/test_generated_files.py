"""What gvlstress writes from values it did not write itself is data, never code (issue 37).

A shrink writes three files from the run it shrinks (reproduce.py, which shrink itself runs to
measure it; scenario.toml; run.sh), and `doctor --export` writes a host profile from another
process's environment and paths. A run directory received with a bug report can be named
anything, an option key can hold anything a TOML key can. Each file is written here from hostile
strings (quotes, triple quotes, newlines, ``\\N{``, backticks, ``$(...)``, U+2028, NUL, lone
surrogates, 1 MB): each parses, runs nothing injected (no PWNED file appears where it runs), and
reads back what was put in. Then a Hypothesis property draws such strings for every value that
reaches one of these files.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import os
import pickle
import stat
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gvlstress.hosts.profile_file import parse, render
from gvlstress.model.profile import CpuProfile, HostProfile, MemoryProfile, ProcessProfile, SystemProfile
from gvlstress.model.shrink import Recipe, Reproduction
from gvlstress.reporters import reproducer, shrunk
from gvlstress.system.tomltext import lossy
from hostile import FAST, texts

PWNED = "PWNED"
HOSTILE = (
    'x""";__import__("os").system("touch PWNED");"""',
    "'''; __import__('os').system('touch PWNED'); '''",
    'a\nb = __import__("os").system("touch PWNED")\n#',
    "\\N{",
    "\\N{LATIN SMALL LETTER A} \\",
    "`touch PWNED`",
    "$(touch PWNED)",
    "'; touch PWNED; echo '",
    '"; touch PWNED; echo "',
    "\u2028__import__('os').system('touch PWNED')\u2029",
    "a\x00b",
    "\r\n[scenario]\nworkers = 99\n[target]\nx = 1\n",
    "\x85\x0b\x0c\x1c\x1d\x1e",
    "\udcff\ud800 lone surrogates",
    "é 🦀 \ufeff \u202e",
    "x" * 1_000_000,
)
NAMES = ("workers", "SECONDS", "OPTIONS", "ENV", "main")
"""Keys that are names the program or a scenario file uses itself."""


def _rep(text: str, key: str = "k") -> Reproduction:
    """A reproduction whose every value that comes from outside is `text` (option keys `key`)."""
    options: dict[str, Any] = {
        key: text,
        "n": 3,
        "inf": float("inf"),
        "list": [text, 1.5],
        "table": {key: text},
    }
    return Reproduction(
        recipe=Recipe(
            imports=("import gvlstress_native",),
            open="gvlstress_native.Loader(seed=seed, **OPTIONS)",
            next="loader.next_batch()",
            modules=(text,),
            options=options,
            warm_options={key: text},
            note=text,
        ),
        workers=2,
        iterations=3,
        duration=None,
        start_method="spawn",
        env={"RAYON_NUM_THREADS": "4", key: text},
        inherited={"RAYON_NUM_THREADS": text},
        seed=7,
        timeout_s=12.5,
        launches=3,
        python=sys.executable,
        preload=(text,),
        kill_worker=text,
        not_carried=(text,),
        scenario={
            "name": "shrunk",
            "waves": 3,
            "description": text,
            "python": text,
            "thread_env": [text, "OMP_NUM_THREADS"],
            "workers": 2,
            "timeout": 12.345678912345,
            "options": options,
        },
        source=text,
        evidence=text,
    )


def _settings_of(path: Path) -> dict[str, Any]:
    """The program's module-level names, read by importing it (not as __main__) in a process of
    its own with `path`'s directory as its working directory."""
    code = (
        "import pickle, runpy, sys\n"
        "ns = runpy.run_path(sys.argv[1], run_name='reproducer_under_test')\n"
        "keep = {k: v for k, v in ns.items() if k.isupper() or k == '__doc__'}\n"
        "sys.stdout.buffer.write(pickle.dumps(keep))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, cwd=path.parent, timeout=120, check=True
    )
    found: dict[str, Any] = pickle.loads(out.stdout)
    return found


def _fake_gvlstress(where: Path) -> Path:
    """A `gvlstress` on PATH that only writes the arguments it was given (as JSON) to a file."""
    where.mkdir()
    fake = where / "gvlstress"
    fake.write_text(
        f"#!{sys.executable}\nimport json, os, sys\njson.dump(sys.argv[1:], open(os.environ['ARGV_OUT'], 'w'))\n"
    )
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    return where


def _toml_text(value: Any) -> Any:
    """What TOML gives back for `value` (lone surrogates become U+FFFD; tuples lists)."""
    if isinstance(value, str):
        return "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in value)
    if isinstance(value, (list, tuple)):
        return [_toml_text(v) for v in value]
    if isinstance(value, dict):
        return {_toml_text(k): _toml_text(v) for k, v in value.items()}
    return value


@pytest.mark.slow
@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: repr(t[:24]))
def test_every_generated_file_holds_hostile_text_as_data_and_reads_it_back(text: str, tmp_path: Path) -> None:
    # GIVEN a shrink's three files written from a run whose every outside value is `text`
    rep = _rep(text, key=text if "\x00" not in text and len(text) < 100 else "k")
    py, toml, sh = tmp_path / "reproduce.py", tmp_path / "scenario.toml", tmp_path / "run.sh"
    py.write_text(reproducer.render_python(rep), encoding="utf-8")
    toml.write_text(shrunk.render_toml(rep), encoding="utf-8")
    sh.write_text(shrunk.render_sh(rep), encoding="utf-8")

    # THEN reproduce.py parses, imported it runs nothing injected, and holds each value as given
    ast.parse(py.read_text(encoding="utf-8"))
    ns = _settings_of(py)
    assert (ns["OPTIONS"], ns["WARM_OPTIONS"]) == (rep.recipe.options, rep.recipe.warm_options)
    assert (ns["ENV"], ns["INHERITED"], ns["PRELOAD"], ns["KILL_WORKER"]) == (
        rep.env,
        rep.inherited,
        list(rep.preload),
        rep.kill_worker,
    )
    assert f"Written by `gvlstress shrink` (0.1.0) from {text}." in ns["__doc__"]
    assert text in ns["__doc__"]
    # AND run as a program it parses its arguments (every top-level statement ran) and exits 0
    helped = subprocess.run(
        [sys.executable, str(py), "--help"], capture_output=True, cwd=tmp_path, timeout=120, check=False
    )
    assert helped.returncode == 0, helped.stderr[-2000:]
    assert not (tmp_path / PWNED).exists()

    # AND scenario.toml parses to exactly its two tables, each value as given
    data = tomllib.loads(toml.read_text(encoding="utf-8"))
    assert set(data) == {"scenario", "target"}
    fields = {k: v for k, v in rep.scenario.items() if k != "options"}
    assert data["scenario"] == _toml_text(fields)
    assert data["target"] == _toml_text(rep.scenario["options"])

    # AND run.sh passes gvlstress exactly its words: the run line, or the scenario file beside it
    fake = _fake_gvlstress(tmp_path / "bin")
    out = tmp_path / "argv.json"
    env = {**os.environ, "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}", "ARGV_OUT": str(out)}
    ran = subprocess.run(["sh", str(sh)], capture_output=True, cwd=tmp_path, env=env, timeout=60, check=False)
    assert ran.returncode == 0, ran.stderr
    expected = (
        list(shrunk.run_argv(rep)[1:]) if shrunk.line_carries(rep) else ["run", "--scenario", str(toml)]
    )
    assert json.loads(out.read_text()) == expected
    assert not (tmp_path / PWNED).exists()


def test_a_run_line_that_cannot_carry_its_options_runs_the_scenario_file() -> None:
    # GIVEN options `-o` would read back as another type, trimmed, or not at all
    for value in (" padded", "12", "1e3", "True", "a\x00b", ["x"], {"a": 1}):
        rep = dataclasses.replace(_rep("plain"), scenario={"name": "shrunk", "options": {"key": value}})
        # THEN the run line is the scenario file's
        assert not shrunk.line_carries(rep)
        assert shrunk.run_line(rep) == "gvlstress run --scenario shrink/scenario.toml"
    # AND one it can carry stays a run line
    rep = dataclasses.replace(
        _rep("plain"), scenario={"name": "shrunk", "workers": 2, "options": {"k": "v w"}}
    )
    assert shrunk.run_line(rep) == "gvlstress run --workers 2 -o 'k=v w'"


# -- properties: every value that reaches a generated file or a host profile -----------------

keys = st.one_of(st.sampled_from(NAMES), texts.filter(lambda t: 0 < len(t) < 60))


def _program(rep: Reproduction, where: Path) -> dict[str, Any]:
    """The reproducer's module-level names, its program run in this process as a module (not as
    __main__), with `where` as the working directory an injected command would write to."""
    text = reproducer.render_python(rep)
    tree = ast.parse(text)
    assigned = {
        t.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for t in node.targets
        if isinstance(t, ast.Name)
    }
    calls = [
        node for node in tree.body if isinstance(node, ast.Expr) and not isinstance(node.value, ast.Constant)
    ]
    # nothing but imports, settings, definitions and the __main__ guard at the top level
    assert assigned <= _SETTINGS, sorted(assigned - _SETTINGS)
    assert calls == []
    ns: dict[str, Any] = {"__name__": "reproducer_under_test"}
    cwd = os.getcwd()
    os.chdir(where)
    try:
        exec(compile(text, "reproduce.py", "exec"), ns)
    finally:
        os.chdir(cwd)
    return ns


_SETTINGS = {
    "WORKERS", "BATCHES", "SECONDS", "START_METHOD", "ENV", "INHERITED", "OPTIONS", "WARM_OPTIONS", "SEED",
    "TIMEOUT_S", "LAUNCHES", "RESULT_BYTES", "SWITCH_INTERVAL", "AFFINITY", "BURNERS", "KILL_WORKER",
    "WARM_PARENT", "PRELOAD", "LOADER_IN_PARENT",
}  # fmt: skip


@FAST
@given(text=texts, key=keys, other=texts)
def test_property_the_reproducer_and_its_scenario_hold_any_text_as_data(
    text: str, key: str, other: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    where = tmp_path_factory.mktemp("run")
    rep = dataclasses.replace(_rep(text, key), source=other, evidence=other + text)
    ns = _program(rep, where)
    assert not (where / PWNED).exists()
    assert ns["OPTIONS"] == rep.recipe.options
    assert (ns["ENV"], ns["KILL_WORKER"], ns["PRELOAD"]) == (rep.env, rep.kill_worker, list(rep.preload))
    assert other in ns["__doc__"]
    data = tomllib.loads(shrunk.render_toml(rep))
    assert set(data) == {"scenario", "target"}
    assert data["target"] == _toml_text(rep.scenario["options"])
    assert data["scenario"]["description"] == _toml_text(text)
    line = shrunk.render_sh(rep).splitlines()
    assert len(line) == 3
    assert line[0] == "#!/bin/sh"


def _profile(text: str, name: str, value: str) -> HostProfile:
    """A profile whose every text is `text` (a key left empty is left out, and reads back None)."""
    maybe = text or None
    return HostProfile(
        cpu=CpuProfile(count=4, affinity=2, affinity_list=text, cpuset=maybe, quota_file=maybe),
        memory=MemoryProfile(total=2**34, limit_file=maybe),
        process=ProcessProfile(python=text, implementation=text, executable=text, start_method_how=text),
        system=SystemProfile(kernel=text, glibc=text, machine=text, os=text),
        threads={name: value},
        pools={"rayon": 2},
        packages={text or "p": text, "genvarloader": value},
        host=text,
        exported_at=text,
        gvlstress=text,
    )


@FAST
@given(text=texts, name=texts, value=texts)
def test_property_a_host_profile_reads_back_as_written_or_is_refused_in_one_line(
    text: str, name: str, value: str
) -> None:
    from gvlstress.errors import UsageError

    knob = "OMP_" + name
    profile = _profile(text, knob, value)
    written = render(profile)
    if "=" in knob or "\x00" in knob or "\x00" in value:
        # a name no variable can have, a value no variable can hold: refused, never a crash
        with pytest.raises(UsageError) as err:
            parse(written, "host.toml")
        assert err.value.hint
        return
    read = parse(written, "host.toml")
    if not any(lossy(t) for t in (text, name, value)):
        assert read == profile
    else:  # a lone surrogate (a byte of a non-UTF-8 environment) reads back as U+FFFD
        assert read.threads == {_toml_text(knob): _toml_text(value)}
        assert read.host == _toml_text(text)
