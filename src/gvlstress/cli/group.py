"""The `gvlstress` command group; each command module adds its commands to it."""

from __future__ import annotations

import click

from gvlstress import __version__
from gvlstress.cli.help import group_epilog


@click.group(
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100}, epilog=group_epilog()
)
@click.version_option(__version__, prog_name="gvlstress")
def cli() -> None:
    """Reproduce, detect and explain deadlocks in native (rayon/PyO3) data loaders.

    A hung process? `gvlstress inspect PID` says what it waits for. The main job:
    `gvlstress run` launches waves of spawned workers until one hangs, and explains it.
    """
