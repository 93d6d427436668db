"""The `gvlstress` command group; each command module adds its commands to it when imported.

The group is lazy: a command's module is imported only when that command runs (or its help is
asked for), so `gvlstress --version`, `gvlstress --help` and `gvlstress watch --help` do not pay
for the campaigns' imports. `COMMANDS` names each command's module and its one-line help (a
fast test checks them against the commands themselves); `load_all` imports every module, for
what lists them all (the reference, the docs).
"""

from __future__ import annotations

import importlib

import click

from gvlstress import __version__
from gvlstress.cli.help import group_epilog

COMMANDS: dict[str, tuple[str, str]] = {
    "compare": (
        "gvlstress.cli.campaign",
        "Hang rates of runs side by side (95% intervals, Fisher's exact test), e.g. two versions.",
    ),
    "doctor": (
        "gvlstress.cli.inspection",
        "Check this host: py-spy and native-stack attach, ptrace policy, CPU budget, thread knobs.",
    ),
    "hunt": (
        "gvlstress.cli.run",
        "Launch waves until a hang (or --until N), a time budget or a wave cap; report the hazard.",
    ),
    "inspect": (
        "gvlstress.cli.inspection",
        "Capture and explain a live process, such as a hung training job (it is never killed), or a core of one (--core).",
    ),
    "merge": (
        "gvlstress.cli.campaign",
        "One run from many (shards of a campaign): waves, hosts and an odd-host test; reports.",
    ),
    "plan": (
        "gvlstress.cli.campaign",
        "Clean waves needed to claim 'hang rate < RATE', and the batches and time that takes.",
    ),
    "report": ("gvlstress.cli.run", "Render report.md and junit.xml again from RUN_DIR/run.json."),
    "run": (
        "gvlstress.cli.run",
        "Launch waves of spawned workers that iterate a loader; catch, explain and survive hangs.",
    ),
    "scenarios": (
        "gvlstress.cli.run",
        "List scenario files (./scenarios and the built-in ones), one line each.",
    ),
    "selftest": (
        "gvlstress.cli.inspection",
        "Prove this host catches every known failure class (run before trusting a clean run).",
    ),
    "shrink": (
        "gvlstress.cli.shrink",
        "Cut a run that hung down to the smallest setting that still hangs; write a standalone reproducer.",
    ),
    "slurm": (
        "gvlstress.cli.campaign",
        "Write (and optionally submit) a Slurm array of `run --shard auto` plus an afterany merge job.",
    ),
    "sweep": (
        "gvlstress.cli.campaign",
        "One run per cell of workers x threads (x amplifiers): hazard table and heatmap.",
    ),
    "watch": (
        "gvlstress.cli.watch",
        "Run COMMAND (after --) and watch its whole process tree for a hang: when it stops making progress, say why (deadlock, spin, lost task, dead peer, fork hang) and report.",
    ),
}
"""Every command: the module that defines it and its help's first paragraph."""


class LazyGroup(click.Group):
    """A group whose commands are imported when used; its help lists them from `COMMANDS`."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            importlib.import_module(COMMANDS[cmd_name][0])
        return self.commands.get(cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        limit = formatter.width - 6 - max(len(name) for name in self.list_commands(ctx))
        rows = []
        for name in self.list_commands(ctx):
            loaded = self.commands.get(name)
            if loaded is not None and loaded.hidden:
                continue
            help_ = (
                loaded.get_short_help_str(limit)
                if loaded
                else click.Command(name, help=COMMANDS[name][1]).get_short_help_str(limit)
            )
            rows.append((name, help_))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)


def load_all() -> None:
    """Import every command's module (each adds its commands to the group)."""
    for module in sorted({m for m, _ in COMMANDS.values()}):
        importlib.import_module(module)


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    epilog=group_epilog(),
)
@click.version_option(__version__, prog_name="gvlstress")
def cli() -> None:
    """Reproduce, detect and explain deadlocks in native (rayon/PyO3) data loaders.

    A hung process? `gvlstress inspect PID` says what it waits for. The main job:
    `gvlstress run` launches waves of spawned workers until one hangs, and explains it.
    """
