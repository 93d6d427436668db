"""The pytest plugin's settings, one record each: the plugin reads them (command line >
environment > ini > default) and the docs render their table from the same records."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PluginSetting:
    """One setting: its option, environment variable and ini key all follow from `name`."""

    name: str
    what: str
    metavar: str
    default: str | None
    shown_default: str

    @property
    def option(self) -> str:
        return "--gvlstress-" + self.name.replace("_", "-")

    @property
    def env(self) -> str:
        return "GVLSTRESS_" + self.name.upper()

    @property
    def ini(self) -> str:
        return "gvlstress_" + self.name


PLUGIN_SETTINGS = (
    PluginSetting("report_dir", "where run directories go", "DIR", "reports", "reports"),
    PluginSetting(
        "margin",
        "seconds kept free before pytest-timeout fires, for capture, kill and reports",
        "SECONDS",
        "30",
        "30 s",
    ),
    PluginSetting(
        "artifacts",
        "copy every run's directory (reports, captures, cores) under DIR/<test>/ for CI to upload",
        "DIR",
        None,
        "none",
    ),
    PluginSetting(
        "watch",
        "watch each running test: after SECONDS without progress judge pytest's process tree as "
        "`gvlstress watch` does and put the report's path in the test's failure (0: off; capped "
        "to report before pytest-timeout fires)",
        "SECONDS",
        "0",
        "off",
    ),
    PluginSetting(
        "keep_core",
        "keep a core of each hung worker (it holds the worker's memory and may hold secrets)",
        "BOOL",
        "false",
        "false",
    ),
)
