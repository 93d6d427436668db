"""The campaigns page's GitHub Actions matrix (docs/campaigns.md) runs as written: each shard's command, then the merge,
laid out as upload-/download-artifact would lay them out."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import GVL, ROOT, cli_env

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def workflow() -> str:
    text = (ROOT / "docs" / "campaigns.md").read_text()
    blocks = re.findall(r"```yaml\n(# \.github/workflows/stress\.yml.*?)```", text, re.S)
    assert len(blocks) == 1
    return str(blocks[0])


def command(block: str, prefix: str, shard: int | None = None) -> list[str]:
    """A step's command as the runner's shell gets it (expressions substituted first)."""
    (line,) = [x.split("run: ", 1)[1] for x in block.splitlines() if f"run: {prefix}" in x]
    if shard is not None:
        line = line.replace("${{ matrix.shard }}", str(shard))
    return shlex.split(line.split("  #")[0])


@pytest.mark.ci_seconds(28)
def test_the_documented_matrix_shards_and_merge_run_as_written(tmp_path: Path) -> None:
    block = workflow()
    shards = [int(x) for x in re.search(r"shard: \[([\d, ]+)\]", block).group(1).split(",")]  # type: ignore[union-attr]
    run = command(block, "gvlstress run", 0)
    merge = command(block, "gvlstress merge")
    assert run[-2:] == ["--report-dir", "shard"]
    for i in shards:
        job = tmp_path / f"job{i}"
        job.mkdir()
        argv = command(block, "gvlstress run", i)
        done = subprocess.run(
            [*GVL, *argv[1:]], cwd=job, env=cli_env(), capture_output=True,
            text=True, timeout=300, check=False,
        )  # fmt: skip
        assert done.returncode in (0, 1), done.stdout + done.stderr  # a hang is data (continue-on-error)
        shutil.copytree(job / "shard", tmp_path / "shards" / f"shard-{i}")  # what download-artifact makes
    glob = [str(p) + "/" for p in sorted(tmp_path.glob(merge[2]))]  # the shell's expansion of shards/*/*/
    assert len(glob) == len(shards)
    done = subprocess.run(
        [*GVL, *merge[1:2], *glob, *merge[3:]], cwd=tmp_path, env=cli_env(),
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stdout + done.stderr
    merged = json.loads((tmp_path / "merged" / "run.json").read_text())
    total = int(run[run.index("--waves") + 1])
    assert sorted(w["index"] for w in merged["waves"]) == list(range(total))
    assert sorted(h["shard"]["index"] for h in merged["hosts"]) == shards
    assert (tmp_path / "merged" / "report.md").is_file()
    assert (tmp_path / "merged" / "junit.xml").is_file()
