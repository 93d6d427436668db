"""The documentation and the code cannot disagree: every generated table holds what the code
holds, no hand-written page keeps a copy of those tables, every command shown in the README,
the pages and the help parses with the options it names, and each `--help` fits one screen and
ends with examples."""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import types
import typing
from typing import Any

import pytest
from click.testing import CliRunner

from conftest import ROOT
from docpages import DOCS, commands, pages, problems, split
from gvlstress.cli.help import USAGES
from gvlstress.cli.main import cli
from gvlstress.cli.reference import GENERATED, MARKER, expand
from gvlstress.cli.reference import commands as cli_commands
from gvlstress.controls.catalogue import CATALOGUE
from gvlstress.controls.selftest import CONTROLS
from gvlstress.errors import ExitCode
from gvlstress.judge import names
from gvlstress.model import IN_INSPECT, IN_RUN, Capture, RunResult, Summary, Verdict
from gvlstress.model.controls import SHAPES
from gvlstress.reporters import docs
from gvlstress.reporters.json_report import EXTRA_PROPERTIES
from gvlstress.scenario_sources import list_scenarios

README = ROOT / "README.md"


def section(text: str, heading: str) -> str:
    """The text under a `## heading` of a generated page, up to the next one."""
    start = text.index(f"## {heading}")
    end = text.find("\n## ", start + 1)
    return text[start : end if end > 0 else None]


def test_every_generated_section_is_asked_for_by_a_page_and_every_ask_is_known() -> None:
    # GIVEN every page's `::: gvlstress NAME` lines
    asked = {name: p for p in pages() for name in MARKER.findall(p.read_text())}
    # THEN each names a section the code generates, and each section is on some page
    assert set(asked) == set(GENERATED), (set(asked) ^ set(GENERATED), asked)
    # AND expanding a page leaves no marker behind (what the docs extension does)
    for page in set(asked.values()):
        assert not MARKER.search(expand(page.read_text(), page.name))
    with pytest.raises(KeyError, match="no generated section 'nope'"):
        expand("::: gvlstress nope\n", "a page")


def test_the_pattern_page_has_every_pattern_with_its_sign_and_hint() -> None:
    consts = {v for k, v in vars(names).items() if k.isupper() and isinstance(v, str)}
    listed = [p for _, members in names.FAMILIES for p in members]
    assert len(listed) == len(set(listed))
    assert set(listed) == consts == set(names.HINTS) == set(names.SIGNS)
    page = docs.patterns()
    for pattern in consts:
        row = next(line for line in page.splitlines() if line.startswith(f"| {docs.cell(pattern)} |"))
        assert docs.cell(names.SIGNS[pattern]) in row
        assert docs.cell(names.HINTS[pattern]) in row


def test_the_catalogue_page_has_every_entry_under_its_shape_with_its_sources() -> None:
    page = docs.catalogue(CATALOGUE)
    for shape in SHAPES:
        part = section(page, shape.capitalize())
        for bug in CATALOGUE:
            assert (f"| `{bug.name}` |" in part) == (bug.shape == shape), (shape, bug.name)
    for bug in CATALOGUE:
        for url in re.findall(r"https?://[^\s()]+", bug.source):
            assert f"]({url})" in page, url
        assert bug.pattern in page
        assert all(pin in page for pin in bug.packages)


def test_the_controls_table_has_every_selftest_control() -> None:
    page = docs.controls(CONTROLS)
    for c in CONTROLS:
        assert f"| `{c.name}` |" in page
        assert f"`{c.expect.value}`" in page


def test_every_exit_code_has_one_meaning_shown_in_the_help_and_the_docs() -> None:
    page = docs.exit_codes()
    help_text = CliRunner().invoke(cli, ["--help"], terminal_width=100).output
    for code in ExitCode:
        assert code.meaning
        assert code.label
        assert f"| {int(code)} | `{code.name}` | {docs.cell(code.meaning)} |" in page
        assert f"  {int(code):<4} {code.meaning}" in help_text


def test_the_verdict_page_has_every_verdict_and_what_it_means() -> None:
    page = docs.verdicts()
    for v in Verdict:
        assert v in IN_RUN or v in IN_INSPECT, v
        row = next(line for line in page.splitlines() if line.startswith(f"| `{v.value}` |"))
        for meaning in (IN_RUN.get(v), IN_INSPECT.get(v)):
            assert meaning is None or docs.cell(meaning) in row


def test_the_scenario_page_lists_every_scenario_file() -> None:
    page = docs.scenarios()
    assert all(f"| `{p.stem}` |" in page for p in list_scenarios())


@functools.cache
def _schema() -> str:
    return docs.run_json()


@functools.cache
def _documented(tp: type) -> set[str]:
    """The keys the schema page gives for a dataclass, read back from the page."""
    part = section(_schema(), tp.__name__ + "\n")
    return set(re.findall(r"^\| `(\w+)` \|", part, re.M))


def _walk(tp: Any, value: Any, where: str, seen: list[str]) -> None:
    """Every key run.json holds at a dataclass's place is a key the schema page documents."""
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        kinds = [a for a in typing.get_args(tp) if a is not type(None)]
        tp = next((a for a in kinds if dataclasses.is_dataclass(a) and isinstance(value, dict)), kinds[0])
        origin = typing.get_origin(tp)
    if origin in (tuple, list) and isinstance(value, list):
        for i, item in enumerate(value):
            _walk(typing.get_args(tp)[0], item, f"{where}[{i}]", seen)
    elif isinstance(tp, type) and dataclasses.is_dataclass(tp) and isinstance(value, dict):
        keys = _documented(tp)
        extra = set(value) - keys
        assert not extra, f"{where} ({tp.__name__}) holds keys the schema page lacks: {sorted(extra)}"
        seen.append(tp.__name__)
        hints = typing.get_type_hints(tp)
        for key, item in value.items():
            if key in hints and key not in EXTRA_PROPERTIES and not isinstance(item, str):
                _walk(hints[key], item, f"{where}.{key}", seen)


def undocumented_keys(run_dir: Any) -> list[str]:
    """Check a run directory's run.json (and its captures) against the schema page; return the
    dataclasses it was checked through (the slow tour calls this on a run made today)."""
    data = json.loads((run_dir / "run.json").read_text())
    top = {"schema", "gvlstress_version", "complete", "summary"}
    on_page = set(re.findall(r"\| `(\w+)` \|", section(_schema(), "run.json")))
    assert top <= on_page
    assert (set(data) & top) <= on_page
    seen: list[str] = []
    _walk(RunResult, {k: v for k, v in data.items() if k not in top}, "run.json", seen)
    _walk(Summary, data["summary"], "summary", seen)
    for wave in data["waves"]:
        for w in wave["workers"]:
            if isinstance(w.get("capture"), str):  # by reference since run/2
                _walk(Capture, json.loads((run_dir / w["capture"]).read_text()), w["capture"], seen)
    return seen


def test_the_run_json_page_documents_every_key_of_the_committed_example() -> None:
    # GIVEN the committed example run, as the writer of its day wrote it (read still today)
    seen = undocumented_keys(ROOT / "reports" / "examples" / "lock-across-par-iter")
    # THEN every key under every dataclass's place is on the page, down to the threads
    assert {"WaveResult", "WorkerOutcome", "ProbeFinding", "Capture", "Diagnosis"} <= set(seen)


def test_the_cli_reference_covers_every_command_with_its_examples() -> None:
    page = docs_page("reference/cli.md")
    assert ".. click:: gvlstress.cli.main:cli" in page
    assert ":nested: full" in page
    for name in cli_commands():
        usage = USAGES[name]
        assert 1 <= len(usage.examples) <= 2, name
        assert usage.exits, name
        assert all(e.startswith(f"gvlstress {name}") for e in usage.examples), name


def docs_page(relative: str) -> str:
    return expand((DOCS / relative).read_text(), relative)


@pytest.mark.parametrize("name", ["", *cli_commands()])
def test_each_help_fits_one_screen_and_ends_with_examples(name: str) -> None:
    # WHEN `gvlstress [COMMAND] --help` is shown at 100 columns
    out = CliRunner().invoke(cli, [*name.split(), "--help"], terminal_width=100).output
    lines = out.rstrip().splitlines()
    # THEN it fits one screen
    assert len(lines) <= 50, f"{len(lines)} lines"
    assert max(len(line) for line in lines) <= 100
    # AND its last lines are one or two examples, which parse
    at = max(i for i, line in enumerate(lines) if line.strip() == "Examples:")
    examples = [line.strip() for line in lines[at + 1 :]]
    assert 1 <= len(examples) <= 2, examples
    assert all(e.startswith("gvlstress") for e in examples), examples
    assert [p for e in examples for p in problems(e.split("  #")[0])] == []


def test_every_command_shown_in_the_readme_the_pages_and_the_help_parses() -> None:
    shown = [(p.relative_to(ROOT).as_posix(), c) for p in pages() for c in commands(p.read_text())]
    shown += [(f"--help of {n or 'gvlstress'}", e) for n, u in USAGES.items() for e in u.examples]
    assert len(shown) > 100
    bad = [(where, p) for where, command in shown for p in problems(command.split("  #")[0])]
    assert bad == []


def test_every_benchmark_command_shown_names_options_its_script_has() -> None:
    shown = [
        (p.name, m.group(1), m.group(2))
        for p in pages()
        for b in split(p.read_text())[0]
        for line in b.lines
        if (m := re.search(r"python bench/(\w+)\.py([^#]*)", line))
    ]
    assert len(shown) >= 10
    for page, script, args in shown:
        source = (ROOT / "bench" / f"{script}.py").read_text()
        for flag in re.findall(r"(?<!\S)(--[\w-]+)", args):
            assert f'"{flag}"' in source, f"{page}: bench/{script}.py has no option {flag}"


def _hand_written(path: Any) -> str:
    """A page's own text: its generated sections not expanded, its checked real output left out."""
    blocks, prose = split(path.read_text())
    return "\n".join(prose + [line for b in blocks if b.output is None for line in b.lines])


def test_no_hand_written_page_keeps_a_copy_of_a_generated_table() -> None:
    texts = (
        [*names.HINTS.values(), *names.SIGNS.values(), *IN_RUN.values(), *IN_INSPECT.values()]
        + [c.meaning for c in ExitCode]
        + [b.title for b in CATALOGUE]
        + [b.source for b in CATALOGUE]
    )
    found = []
    for path in pages():
        own = " ".join(_hand_written(path).split())
        found += [(path.name, t[:60]) for t in texts if " ".join(t.split()) in own]
        rows = re.findall(r"^\| `([\w-]+)` \|(.*)$", _hand_written(path), re.M)
        for name, rest in rows:
            bug = next((b for b in CATALOGUE if b.name == name), None)
            if bug is not None and (bug.pattern in rest or "github.com" in rest):
                found.append((path.name, f"catalogue row {name} repeats its pattern or source"))
    assert found == []


def test_the_readme_is_a_short_front_page_with_the_setup_commands() -> None:
    text = README.read_text()
    assert len(text.splitlines()) <= 250
    blocks, _ = split(text)
    sh = [b.lines for b in blocks if b.lang == "sh"]
    assert ("pip install ./native . && gvlstress run --workers 5 --rayon 16",) in sh
    assert ("pip install ./native -e '.[test]' && pytest",) in sh
    assert "pip install ./native -e '.[test]'\n" in (ROOT / ".ci" / "run").read_text()
    # AND a new user finds how to judge a hung process and run the main job in its first lines
    head = "\n".join(text.splitlines()[:15])
    assert "gvlstress inspect PID" in head
    assert "gvlstress run --workers 5 --rayon 16" in head
    # AND its links into the docs resolve
    for link in re.findall(r"\]\((docs/[^)#]*)", text):
        assert (ROOT / link).exists(), link


def test_every_page_is_in_the_table_of_contents() -> None:
    index = (DOCS / "index.md").read_text()
    listed = set(re.findall(r"^([\w/-]+)$", index, re.M))
    pages_ = {p.relative_to(DOCS).with_suffix("").as_posix() for p in pages()[1:]} - {"index"}
    assert pages_ <= listed, pages_ - listed


def test_the_agreement_page_has_a_row_for_every_hang_and_every_row_agrees() -> None:
    """docs/reference/agreement.md is written by tests/test_agreement.py; a catalogue entry or a
    hang added since (or a row that disagreed) makes it stale, and this says so."""
    from test_agreement import HANGS

    page = (ROOT / "docs" / "reference" / "agreement.md").read_text()
    table = page.split("<!-- agreement table: begin -->")[1].split("<!-- agreement table: end -->")[0]
    rows = [line.split("|")[1:-1] for line in table.strip().splitlines()[2:]]
    named = {cells[0].strip(): cells[-1].strip() for cells in rows}
    assert set(named) == {h.name for h in HANGS}, (
        "regenerate: GVLSTRESS_AGREEMENT=docs/reference/agreement.md"
    )
    assert all(v == "yes" for v in named.values()), {k: v for k, v in named.items() if v != "yes"}


def test_the_field_page_has_a_row_for_every_program_and_load_and_every_row_is_healthy() -> None:
    """docs/reference/field.md is written by tests/test_field*.py; a program added since (or a
    false alarm the gate caught) makes it stale, and this says so. Every program of
    tests/support/field/ is in the corpus's list, and the other way round."""
    from test_field import BEGIN, END, FIELD, FIELD_DIR, LOADS, PLUGIN, PLUGIN_BEGIN, PLUGIN_END

    assert {p.stem for p in FIELD_DIR.glob("*.py")} - {"_field"} == {p.name for p in FIELD}
    page = (ROOT / "docs" / "reference" / "field.md").read_text()
    for begin, end, programs, known, load_col in (
        (BEGIN, END, {p.name for p in FIELD}, {p.name for p in FIELD}, 3),
        (PLUGIN_BEGIN, PLUGIN_END, set(PLUGIN[:3]), set(PLUGIN), 1),
    ):
        table = page.split(begin)[1].split(end)[0]
        rows = [[c.strip() for c in line.split(" | ")] for line in table.strip().splitlines()[2:]]
        said = {(cells[0].lstrip("| "), cells[load_col]): cells[-1].rstrip(" |") for cells in rows}
        # each program at least once (CI: alone or loaded in turn; the full gate: both)
        regenerate = 'regenerate: GVLSTRESS_FIELD=docs/reference/field.md pytest -m "slow or pypi" tests/test_field*.py'
        assert programs <= {name for name, _ in said} <= known, regenerate
        assert {load for _, load in said} <= set(LOADS), regenerate
        unhealthy = {k: v for k, v in said.items() if v != "ok"}
        assert not unhealthy, unhealthy
