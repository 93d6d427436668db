"""The documentation's tables, made from the tables the code itself keeps, never typed by hand:
the verdicts (`model.verdicts`), the patterns with their signs and hints (`judge.names`), the
real-bug catalogue and the fixture's controls (handed in: `controls.catalogue.CATALOGUE` and
`controls.selftest.CONTROLS`, by `cli.reference`), the exit codes (`errors.ExitCode`), run.json's
schema (the model's dataclasses) and the scenario files.

The docs build calls these through its extension (``docs/_ext/gvlstress_docs.py``: a line ``::: gvlstress
NAME`` in a page becomes ``GENERATED[NAME]()``), and the tests call them too, so the code and
the documentation cannot disagree. Each returns Markdown.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import re
import textwrap
import types
import typing
from collections.abc import Callable, Iterable, Sequence
from enum import Enum
from typing import Any

from gvlstress.errors import ExitCode
from gvlstress.judge import names
from gvlstress.model import IN_INSPECT, IN_RUN, Capture, RunResult, Summary, Verdict, WorkerOutcome
from gvlstress.model.controls import SHAPES, Control, RealBug
from gvlstress.reporters.json_report import EXTRA_PROPERTIES, HEX_FIELDS
from gvlstress.scenario_sources import describe, list_scenarios, read_scenario_file
from gvlstress.store import SCHEMA
from gvlstress.system.plugin import PLUGIN_SETTINGS


def cell(text: object) -> str:
    """One table cell: pipes escaped, on one line."""
    return " ".join(str(text).split()).replace("|", "\\|")


def table(header: Iterable[str], rows: Iterable[Iterable[object]]) -> str:
    head = list(header)
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def verdicts() -> str:
    """Every verdict, what it means in `run` and in `inspect`, and the exit code it leads to."""

    def exit_code(v: Verdict) -> str:
        if v.is_hang:
            return f"{int(ExitCode.HANG)} (inspect: {int(ExitCode.OK)})" if v is Verdict.STALLED else "1"
        return str(int(ExitCode.WORKER_FAILED)) if v.is_failure else str(int(ExitCode.OK))

    rows = [
        (f"`{v.value}`", IN_RUN.get(v, "-"), IN_INSPECT.get(v, "-"), exit_code(v))
        for v in sorted(Verdict, key=lambda v: v.severity, reverse=True)
    ]
    return table(("verdict", "in `run` (a worker)", "in `inspect` (a process)", "exit"), rows)


def patterns() -> str:
    """The named shapes, by family: what identifies each in the facts, and what to do about it."""
    out = []
    for family, members in names.FAMILIES:
        out.append(f"## {family}\n")
        out.append(
            table(
                ("pattern", "what identifies it", "hint"),
                ((p, names.SIGNS[p], names.HINTS[p]) for p in members),
            )
        )
    return "\n".join(out)


_GITHUB = re.compile(r"https://github\.com/[^/\s]+/([^/\s]+)/(?:issues|pull)/(\d+)")
_URL = re.compile(r"https?://[^\s()]+")


def link(url: str) -> str:
    """A URL as a short Markdown link: ``repo#123`` for a GitHub issue or pull request."""
    gh = _GITHUB.fullmatch(url)
    text = f"{gh.group(1)}#{gh.group(2)}" if gh else url.split("://", 1)[1].split("#")[0].rstrip("/")
    return f"[{text}]({url})"


def sourced(text: str) -> str:
    """A catalogue source (URLs with words around them) with each URL as a short link."""
    return _URL.sub(lambda m: link(m.group(0)), text)


def _pins(bug: RealBug) -> str:
    pins = ", ".join(f"`{p}`" for p in bug.packages) or "standard library"
    if bug.python:
        pins += f"; CPython {bug.python}"
    if bug.env:
        pins += "; " + ", ".join(f"`{k}={v}`" for k, v in bug.env)
    if bug.control_packages is not None:
        pins += "; control: " + ", ".join(f"`{p}`" for p in bug.control_packages)
    return pins


SHAPE_WORDS = {
    "cycle": "threads or processes wait on each other",
    "spin": "a thread burns CPU in a loop for something that cannot come",
    "lost task": "a process pool waits for a result no worker holds",
    "peer": "a wait on a pipe, socket or thread that will never act, or on a lock whose holder died",
    "lost wake-up": "a wait for an item, a notify or a cancellation that was lost on the way",
}


def catalogue(entries: Sequence[RealBug]) -> str:
    """The real-bug catalogue (`selftest --real`), grouped by the shape of the hang."""
    out = []
    for shape in SHAPES:
        bugs = [b for b in entries if b.shape == shape]
        out.append(f"## {shape.capitalize()}: {SHAPE_WORDS[shape]} ({len(bugs)})\n")
        rows = (
            (
                f"`{b.name}`",
                b.title,
                sourced(b.source),
                f"{b.verdict} ({b.pattern})" + (", `--tree`" if b.tree else ""),
                _pins(b),
            )
            for b in bugs
        )
        out.append(table(("entry", "the hang", "source", "`inspect` must say", "pins"), rows))
    return "\n".join(out)


def controls(given: Iterable[Control]) -> str:
    """The fixture's positive and negative controls (`gvlstress selftest`)."""

    def settings(c: Control) -> str:
        given = {**c.settings, **c.options}
        return ", ".join(f"`{k}={v}`" for k, v in given.items()) or "defaults"

    rows = (
        (
            f"`{c.name}`",
            "negative" if c.negative else "positive",
            f"`{c.expect.value}`",
            c.pattern or "-",
            settings(c),
        )
        for c in given
    )
    return table(("control", "kind", "expected verdict", "expected pattern", "settings"), rows)


def exit_codes() -> str:
    """Every exit code, its name in `gvlstress.errors.ExitCode` and its meaning."""
    return table(("code", "name", "meaning"), ((int(c), f"`{c.name}`", c.meaning) for c in ExitCode))


def plugin_settings() -> str:
    """The pytest plugin's settings: each as an option, an environment variable and an ini key."""
    rows = ((x.what, f"`{x.option}`", f"`{x.env}`", f"`{x.ini}`", x.shown_default) for x in PLUGIN_SETTINGS)
    return table(("setting", "option", "environment", "ini", "default"), rows)


def scenarios() -> str:
    """The scenario files that ship with gvlstress, with the settings each one makes."""
    rows = []
    for path in list_scenarios():
        raw = read_scenario_file(path)
        made = ", ".join(f"`{k}={v}`" for k, v in raw.items() if k not in _NOT_SETTINGS)
        options = ", ".join(f"`{k}={v}`" for k, v in raw["options"].items())
        rows.append((f"`{path.stem}`", describe(path), made, options or "-"))
    return table(("scenario", "what it is", "settings", "target options"), rows)


_NOT_SETTINGS = ("name", "description", "options", "source")


def field_docs(tp: type) -> dict[str, str]:
    """The docstrings written under a dataclass's fields (what `help()` does not keep)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(tp)))
    except (OSError, TypeError, SyntaxError):
        return {}
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs = {}
    for stmt, after in itertools.pairwise(body):
        if (
            isinstance(stmt, ast.AnnAssign)
            and isinstance(stmt.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[stmt.target.id] = inspect.cleandoc(after.value.value)
    return docs


def _type_words(tp: Any, seen: list[type]) -> str:
    """A field's type as a reader of the JSON sees it; dataclasses are queued for their own table."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        kinds = [_type_words(a, seen) for a in args if a is not type(None)]
        return " or ".join(kinds) + (" or null" if type(None) in args else "")
    if origin in (tuple, list):
        item = args[0] if args and (len(args) == 1 or args[1:] == (Ellipsis,)) else None
        return f"list of {_type_words(item, seen)}" if item is not None else "list"
    if origin in (dict, typing.get_origin(typing.Mapping[str, Any])) or tp is dict:
        return "object"
    if isinstance(tp, type) and issubclass(tp, Enum):
        return "string: " + ", ".join(f"`{m.value}`" for m in tp)
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        if tp not in seen:
            seen.append(tp)
        return f"[{tp.__name__}](#{tp.__name__.lower()})"
    return {int: "integer", float: "number", str: "string", bool: "boolean"}.get(tp, "any")


def _fields_table(tp: type, seen: list[type]) -> str:
    hints = typing.get_type_hints(tp)
    docs = field_docs(tp)
    rows = []
    for f in dataclasses.fields(tp):
        if f.metadata.get("file_only") or f.metadata.get("local"):  # not in run.json
            continue
        kind = "hex string" if f.name in HEX_FIELDS else _type_words(hints[f.name], seen)
        doc = docs.get(f.name, "")
        if tp is WorkerOutcome and f.name == "capture":  # written by reference (json_report.capture_ref)
            holds = _type_words(Capture, seen)
            kind, doc = "string or null", f"the path of this worker's capture.json, which holds a {holds}"
        rows.append((f"`{f.name}`", kind, doc))
    rows += [(f"`{x}`", "integer", "derived, for readers") for x in EXTRA_PROPERTIES if hasattr(tp, x)]
    return table(("key", "type", "meaning"), rows)


def run_json() -> str:
    """run.json's schema, from the dataclasses the writer serialises (`reporters.json_report`)."""
    seen: list[type] = []
    top = table(
        ("key", "type", "meaning"),
        (
            ("`schema`", "string", f"`{SCHEMA}`"),
            ("`gvlstress_version`", "string", "the version that wrote the file"),
            ("`complete`", "boolean", "false while the run is going (its waves are then in waves.jsonl)"),
            ("`summary`", "[Summary](#summary)", "the counts a reader looks at first"),
        ),
    )
    out = [f"## run.json (top level)\n\nThese keys first, then those of [RunResult](#runresult).\n\n{top}"]
    seen += [RunResult, Summary]
    done = 0
    while done < len(seen):
        tp = seen[done]
        done += 1
        doc = (
            inspect.cleandoc(tp.__doc__ or "")
            if tp.__doc__ and not tp.__doc__.startswith(tp.__name__ + "(")
            else ""
        )
        out.append(f"## {tp.__name__}\n\n{doc}\n\n{_fields_table(tp, seen)}")
    return "\n".join(out)


GENERATED: dict[str, Callable[[], str]] = {
    "verdicts": verdicts,
    "patterns": patterns,
    "exit-codes": exit_codes,
    "run-json": run_json,
    "scenarios": scenarios,
    "plugin-settings": plugin_settings,
}
"""What a page can ask for with a line ``::: gvlstress NAME`` (the CLI reference, the catalogue
and the controls are added by `gvlstress.cli.reference`, which hands the tables in)."""
