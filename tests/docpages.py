"""Reading the README and the documentation's pages as the tests need them: fenced blocks (with
the `<!-- output: NAME -->` marker of a block of real output before it), the `gvlstress`
commands they show, and a check of one command against the CLI's own options."""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import click

from conftest import ROOT
from gvlstress.cli.group import load_all
from gvlstress.cli.main import cli

load_all()  # every command, as the reference lists them

DOCS = ROOT / "docs"


def pages() -> list[Path]:
    """The README and every page of the site (not the build's output)."""
    return [ROOT / "README.md", *sorted(p for p in DOCS.rglob("*.md") if "_build" not in p.parts)]


@dataclass(frozen=True)
class Block:
    lang: str
    lines: tuple[str, ...]
    output: str | None
    """The NAME of a `<!-- output: NAME -->` line right before the block: real output a test checks."""


_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
_OUTPUT = re.compile(r"^<!-- output: ([\w-]+) -->$")


def split(text: str) -> tuple[list[Block], list[str]]:
    """(the fenced blocks, the lines of prose outside them)."""
    blocks: list[Block] = []
    prose: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            prose.append(lines[i])
            i += 1
            continue
        fence, lang = m.group(2), m.group(3)
        before = next((x for x in reversed(prose) if x.strip()), "")
        marker = _OUTPUT.match(before.strip())
        body = []
        i += 1
        while i < len(lines) and not (
            lines[i].strip().startswith(fence) and lines[i].strip().strip(fence[0]) == ""
        ):
            body.append(lines[i])
            i += 1
        i += 1
        blocks.append(Block(lang, tuple(body), marker.group(1) if marker else None))
    return blocks, prose


_SHELL = ("sh", "bash", "shell", "console", "yaml")
_INLINE = re.compile(r"`(gvlstress(?: [^`]*)?)`")


def commands(text: str) -> list[str]:
    """Every `gvlstress ...` command a page shows: in shell, console ($ lines) and workflow (run:)
    blocks, and in inline code in its prose."""
    blocks, prose = split(text)
    found: list[str] = []
    for block in blocks:
        if block.lang not in _SHELL:
            continue
        joined = "\n".join(block.lines).replace("\\\n", " ")
        for line in joined.splitlines():
            if block.lang == "console":
                if not line.startswith("$ "):
                    continue
                line = line[2:]
            if block.lang == "yaml":
                if "run: " not in line:
                    continue
                line = line.split("run: ", 1)[1]
            found += _segments(line)
    for line in prose:
        for span in _INLINE.findall(line):
            found += _segments(span)
    return found


def _segments(line: str) -> list[str]:
    """The `gvlstress` commands of one shell line (after `&&`, `;` or `|`, env assignments first)."""
    line = re.sub(r"\$\{\{[^}]*\}\}", "0", line)  # a workflow's expressions
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    try:
        tokens = list(lexer)
    except ValueError:
        return [line]  # unbalanced quotes: reported by the check
    out: list[str] = []
    segment: list[str] = []
    for token in [*tokens, ";"]:
        if token and set(token) <= set("();<>|&"):
            words = [t for t in segment if not re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", t)]
            if words[:1] == ["gvlstress"]:
                out.append(shlex.join(words))
            segment = []
        else:
            segment.append(token)
    return out


def problems(command: str) -> list[str]:
    """What is wrong with one shown command: an unknown command, an unknown option, a value not
    among an option's choices, arguments the command does not take. Values are not converted
    (placeholders such as PID stay), as click's resilient parsing does."""
    args = shlex.split(command)[1:]
    if not args or args[0].startswith("-"):
        return _check(cli, "gvlstress", args)
    name, rest = args[0], args[1:]
    if name.isupper():  # a placeholder: `gvlstress COMMAND --help`
        return []
    cmd = cli.commands.get(name)
    if cmd is None:
        return [f"{command}: no command {name!r}"]
    if name == "slurm" and "--" in rest:
        cut = rest.index("--")
        found = _check(cmd, name, rest[:cut]) + _check(cli.commands["run"], "run", rest[cut + 1 :])
        return [f"{command}: {p}" for p in found]
    return [f"{command}: {p}" for p in _check(cmd, name, rest)]


def _check(cmd: click.Command, name: str, args: list[str]) -> list[str]:
    options = {o: p for p in cmd.params if isinstance(p, click.Option) for o in (*p.opts, *p.secondary_opts)}
    found = []
    i = 0
    while i < len(args):
        token = args[i]
        i += 1
        if token == "--":
            break
        if not token.startswith("-") or token == "-" or token[1:2].isdigit():
            continue
        flag, eq, value = token.partition("=")
        if flag not in options and flag not in ("-h", "--help"):
            found.append(f"{name} has no option {flag}")
            continue
        param = options.get(flag)
        if param is not None and param.hidden:
            found.append(f"{flag} is hidden (an old name): show the current one")
        if param is None or param.is_flag or param.count:
            continue
        if not eq:
            value = args[i] if i < len(args) else ""
            i += 1
        if isinstance(param.type, click.Choice) and value not in param.type.choices:
            found.append(f"{flag} {value!r} is not one of {', '.join(map(str, param.type.choices))}")
    try:
        ctx = cmd.make_context(name, list(args), resilient_parsing=True)
    except click.ClickException as exc:
        return [*found, exc.format_message()]
    if ctx.args and not cmd.ignore_unknown_options and not cmd.allow_extra_args:
        found.append(f"{name} takes no more arguments: {' '.join(ctx.args)}")
    return found
