"""The field corpus's gate, share 1 of 3 (tests/test_field.py says what a run checks): xdist
runs the slow tier a file per worker, so the programs are split over three files."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_field import Program, field_row, params, problems

# CI: two xdist groups (test_field.py; test_field_b.py with test_field_c.py): at most two runs,
# and two runs' burners, at a time beside the rest: each "2 burners" run loads the whole host
# (tests/scheduling.py)
pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(300),
    pytest.mark.ci_seconds(18),
    pytest.mark.xdist_group("field-b"),
]


@pytest.mark.parametrize(("program", "load"), params(1))
def test_a_healthy_field_program_is_never_called_a_hang(
    program: Program, load: str, report_dir: Path
) -> None:
    run = field_row(program, load, report_dir)
    # THEN no command called any process of it a hang
    assert not run.hangs, "\n".join(run.hangs)
    # AND watch killed nothing, every inspect judged the tree, and nothing was left running
    assert not problems(run), "\n".join(problems(run))
