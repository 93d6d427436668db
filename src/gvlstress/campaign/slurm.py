"""`gvlstress slurm`: a Slurm job array of shards plus a merge job that runs however they end.

Each array task runs `gvlstress run --shard auto` (Slurm sets SLURM_ARRAY_TASK_ID/COUNT) into
its own report directory; a second job, submitted with `--dependency=afterany:ARRAY`, merges
whatever the shards left (a shard that hung exits 1, which Slurm calls FAILED: afterany still
runs the merge). The scripts name this interpreter, so the cluster's nodes must see the same
path (a shared filesystem or the same image).
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from gvlstress.errors import EnvironmentProblem, UsageError
from gvlstress.model.campaign import SlurmJobs

SUBMIT_S = 60.0


def _printable(what: str, value: str) -> None:
    """Nothing written into a script may hold a control character: a newline in an #SBATCH
    value would end that comment line and run the rest as a shell command."""
    bad = next((ch for ch in value if ord(ch) < 32 or ord(ch) == 127), None)
    if bad is not None:
        raise UsageError(
            f"{what} {value!r}: holds a control character ({bad!r})",
            hint="values written into the batch scripts must be one printable line",
        )


def scripts(
    directory: Path,
    shards: int,
    run_args: tuple[str, ...],
    parallel: int | None,
    sbatch: tuple[str, ...],
    waves: int | None = None,
) -> dict[str, str]:
    """The text of array.sbatch, merge.sbatch and submit.sh (pure: no file is touched)."""
    if not 1 <= shards <= 100_000:
        raise UsageError(f"--shards {shards}: must be between 1 and 100000")
    if waves is not None and shards > waves:
        raise UsageError(
            f"--shards {shards} with --waves {waves}: some shards would run no wave",
            hint="give at most as many shards as waves",
        )
    _printable("--dir", str(directory))
    for arg in sbatch:
        _printable("--sbatch", arg)
        if not arg.startswith("-"):
            raise UsageError(f"--sbatch {arg!r}: not an sbatch option", hint="e.g. --sbatch=--partition=cpu")
    for arg in run_args:
        _printable("run option", arg)
    for arg in run_args:
        if arg in ("--shard", "--report-dir") or arg.startswith(("--shard=", "--report-dir=")):
            raise UsageError(
                f"{arg} is set by `gvlstress slurm` itself", hint="leave it out of the run options"
            )
    d = shlex.quote(str(directory.resolve()))
    python = shlex.quote(sys.executable)
    extra = "".join(f"#SBATCH {shlex.quote(a)}\n" for a in sbatch)
    limit = f"%{parallel}" if parallel else ""
    run = shlex.join(run_args)
    array = (
        "#!/bin/bash\n"
        "#SBATCH --job-name=gvlstress-shards\n"
        f"#SBATCH --array=0-{shards - 1}{limit}\n"
        f"#SBATCH --output={d}/logs/shard-%a.out\n"
        f"{extra}"
        "# one shard of the campaign: global waves I, I+N, ... (I, N from SLURM_ARRAY_TASK_*)\n"
        f'exec {python} -m gvlstress run --shard auto {run} --report-dir {d}/shards/"$SLURM_ARRAY_TASK_ID"\n'
    )
    merge = (
        "#!/bin/bash\n"
        "#SBATCH --job-name=gvlstress-merge\n"
        f"#SBATCH --output={d}/logs/merge.out\n"
        f"{extra}"
        "# runs after every shard, however each ended (afterany): merges what they wrote\n"
        f"exec {python} -m gvlstress merge {d}/shards/*/*/ --output {d}/merged\n"
    )
    submit = (
        "#!/bin/bash\n"
        "set -euo pipefail\n"
        f"array=$(sbatch --parsable {d}/array.sbatch)\n"
        f"merge=$(sbatch --parsable --dependency=afterany:${{array%%;*}} {d}/merge.sbatch)\n"
        'echo "array job $array, merge job $merge"\n'
        f'echo "merged report when done: {d}/merged/report.md"\n'
    )
    return {"array.sbatch": array, "merge.sbatch": merge, "submit.sh": submit}


def write(
    directory: Path,
    shards: int,
    run_args: tuple[str, ...],
    parallel: int | None = None,
    sbatch: tuple[str, ...] = (),
    submit: bool = False,
    waves: int | None = None,
) -> SlurmJobs:
    """Write the scripts under `directory` (and logs/); with `submit`, sbatch them."""
    texts = scripts(directory, shards, run_args, parallel, sbatch, waves)
    try:
        (directory / "logs").mkdir(parents=True, exist_ok=True)
        for name, text in texts.items():
            path = directory / name
            path.write_text(text)
            path.chmod(0o755 if name == "submit.sh" else 0o644)
    except OSError as exc:
        raise EnvironmentProblem(
            f"cannot write the Slurm scripts under {directory} ({exc.strerror or exc})"
        ) from None
    jobs = SlurmJobs(
        str(directory),
        str(directory / "array.sbatch"),
        str(directory / "merge.sbatch"),
        str(directory / "submit.sh"),
    )
    if not submit:
        return jobs
    array = _sbatch(["--parsable", jobs.array_script])
    merge = _sbatch(["--parsable", f"--dependency=afterany:{array}", jobs.merge_script])
    return SlurmJobs(jobs.directory, jobs.array_script, jobs.merge_script, jobs.submit_script, array, merge)


def _sbatch(args: list[str]) -> str:
    """Submit; the job id (a cluster name after ';' is dropped)."""
    try:
        done = subprocess.run(
            ["sbatch", *args],
            capture_output=True,
            text=True,
            timeout=SUBMIT_S,
            check=False,
            start_new_session=True,
        )
    except FileNotFoundError:
        raise EnvironmentProblem(
            "sbatch is not on PATH", hint="run on a Slurm login node, or drop --submit"
        ) from None
    except subprocess.TimeoutExpired:
        raise EnvironmentProblem(
            f"sbatch did not answer within {SUBMIT_S:g}s", hint="is slurmctld up?"
        ) from None
    if done.returncode != 0:
        why = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise EnvironmentProblem(f"sbatch failed: {why}", hint="check the partition and --sbatch options")
    return done.stdout.strip().split(";")[0]
