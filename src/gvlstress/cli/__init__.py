"""The command line: click commands -> Scenario -> `gvlstress.api` -> reporters -> exit code.

`main` (the console script ``gvlstress.cli:main``) is the only place that prints errors and picks
exit codes; each command module (`run`, `look`, `campaign`) is a thin layer over the API.
"""

from gvlstress.cli.group import cli
from gvlstress.cli.main import main

__all__ = ["cli", "main"]
