"""The genvarloader target on a user's own dataset (written here by the installed genvarloader
from a FASTA, a VCF, a BED and bigWigs, as a user writes one), opened as their pipeline opens it;
and each way the dataset can be wrong refused in one line, exit 2, before any worker starts."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import userdata
from conftest import load_run, run_cli, workers_of

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


@pytest.fixture(scope="module")
def user(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return userdata.make(tmp_path_factory.mktemp("userdata"))


@pytest.mark.ci_seconds(45)  # with its module's dataset
def test_a_users_dataset_runs_with_annotated_haplotypes_and_its_tracks(
    user: dict[str, str], report_dir: Path
) -> None:
    # GIVEN the user's dataset, reference and track, opened as their pipeline does
    opts = [
        f"dataset={user['dataset']}",
        f"reference={user['reference']}",
        "seqs=annotated",
        "tracks=coverage",
        "jitter=2",
    ]
    args = ["run", "--target", "genvarloader", *[x for o in opts for x in ("-o", o)]]
    # WHEN a wave of two workers iterates it
    r = run_cli(
        [
            *args,
            "--workers",
            "2",
            "--waves",
            "1",
            "--iterations",
            "6",
            "--startup-grace",
            "300",
            "--report-dir",
            str(report_dir),
        ],
        timeout=900,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    run = load_run(report_dir)
    # THEN it ran on that dataset (not a synthetic one), opened that way, in every worker
    facts = run["target"]["facts"]["dataset"]
    assert facts["dataset"] == user["dataset"]
    assert (facts["regions"], facts["samples"], facts["written_by"]) == (60, 6, "0.43.1")
    assert run["target"]["options"]["seqs"] == "annotated"
    assert run["target"]["options"]["tracks"] == "coverage"
    for w in workers_of(run):
        assert w["iterations"] == 6
        assert w["target_info"]["genvarloader"] == "0.43.1"
        assert w["rayon_threads"]


def _newer(user: dict[str, str], tmp_path: Path) -> str:
    """The dataset as a later genvarloader with another on-disk format would have written it."""
    copy = tmp_path / "newer.gvl"
    shutil.copytree(user["dataset"], copy)
    meta = json.loads((copy / "metadata.json").read_text())
    (copy / "metadata.json").write_text(json.dumps(meta | {"version": "0.99.0", "format_version": "3.0.0"}))
    return str(copy)


@pytest.mark.parametrize(
    ("opts", "says"),
    [
        (["dataset={tmp}/nope", "reference={ref}"], "dataset={tmp}/nope: no such directory"),
        (["dataset={tmp}", "reference={ref}"], "not a genvarloader dataset (no metadata.json in it)"),
        (["dataset={ds}"], "seqs=haplotypes needs the reference genome: add -o reference=PATH"),
        (["dataset={ds}", "reference={tmp}/none.fa"], "reference={tmp}/none.fa: no such file"),
        (["dataset={newer}", "reference={ref}"], "genvarloader 0.43.1 cannot use it: ValueError: Dataset at"),
        (["dataset={ds}", "reference={ref}", "tracks=signal"], "Missing tracks: ['signal']"),
        (["dataset={ds}", "reference={ref}", "contigs=3"], "contigs: only for the synthetic dataset"),
        (["dataset={ds}", "reference={ref}", "seqs=proteins"], "seqs must be one of haplotypes"),
    ],
)
def test_a_wrong_dataset_is_one_line_and_exit_2_before_any_worker(
    user: dict[str, str], tmp_path: Path, opts: list[str], says: str
) -> None:
    names = {"tmp": str(tmp_path), "ref": user["reference"], "ds": user["dataset"]}
    if any("{newer}" in o for o in opts):
        names["newer"] = _newer(user, tmp_path)
    reports = tmp_path / "reports"
    args = [x for o in opts for x in ("-o", o.format(**names))]
    r = run_cli(["run", "--target", "genvarloader", *args, "--report-dir", str(reports)], timeout=600)
    assert r.returncode == 2, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert line.startswith("gvlstress: error: ")
    assert says.format(**names) in line
    assert "(hint: " in line
    assert not reports.exists() or not any(reports.iterdir())  # no run started, no worker


def test_a_track_the_dataset_lacks_is_exit_2_on_a_genvarloader_that_only_warns(
    tmp_path: Path, gvl036_python: str
) -> None:
    # GIVEN a dataset without tracks, written by genvarloader 0.36.0 (gvlstress's synthetic one,
    # cached), and 0.36.0 to open it: its with_tracks only warns and returns the dataset as it was
    from gvlstress.targets.gvl_data import DATA_DEFAULTS
    from gvlstress.targets.gvl_support import dataset

    data = dataset(gvl036_python, "0.36.0", dict(DATA_DEFAULTS), None)
    assert not data["tracks"]
    # WHEN a run asks for a track by name
    reports = tmp_path / "reports"
    r = run_cli(
        ["run", "--target", "genvarloader", "--python", gvl036_python, "-o", f"dataset={data['dataset']}",
         "-o", f"reference={data['reference']}", "-o", "tracks=signal", "--report-dir", str(reports)],
        timeout=900,
    )  # fmt: skip
    # THEN it is refused in one line before any worker starts, as the docs promise (issue 37: it ran clean)
    assert r.returncode == 2, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert "Missing tracks: ['signal'] (the dataset has none)" in line
    assert not reports.exists() or not any(reports.iterdir())
