"""`gvlstress slurm` end to end on a real single-node Slurm (Debian's slurm-wlm and munge).

The fixture starts munged, slurmctld and slurmd on localhost as root, on free ports and with
every file under a temporary directory, so it never touches a system cluster; it skips with the
reason where they are not installed or cannot start (CI installs them).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
from collections.abc import Callable, Iterator
from contextlib import suppress
from pathlib import Path

import pytest

from conftest import run_cli, wait_for

pytestmark = pytest.mark.timeout(600)

BINARIES = ("munged", "slurmctld", "slurmd", "sbatch", "sinfo", "squeue", "scancel")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _conf(d: Path, host: str) -> str:
    return "\n".join(
        [
            "ClusterName=gvlstress-test",
            f"SlurmctldHost={host}(127.0.0.1)",
            f"SlurmctldPort={_free_port()}",
            f"SlurmdPort={_free_port()}",
            "SlurmUser=root",
            "SlurmdUser=root",
            "AuthType=auth/munge",
            "CredType=cred/munge",
            f"AuthInfo=socket={d}/munge.sock",
            f"StateSaveLocation={d}/state",
            f"SlurmdSpoolDir={d}/spool",
            f"SlurmctldPidFile={d}/slurmctld.pid",
            f"SlurmdPidFile={d}/slurmd.pid",
            f"SlurmctldLogFile={d}/slurmctld.log",
            f"SlurmdLogFile={d}/slurmd.log",
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "JobCompType=jobcomp/none",
            "MpiDefault=none",
            "SwitchType=switch/none",
            "SchedulerType=sched/backfill",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_Core",
            "ReturnToService=2",
            f"NodeName={host} NodeAddr=127.0.0.1 CPUs={os.cpu_count() or 1} State=UNKNOWN",
            "PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4",
            "",
        ]
    )


def _tail(path: Path) -> str:
    with suppress(OSError):
        return " | ".join(path.read_text(errors="replace").strip().splitlines()[-3:])
    return "(no log)"


@pytest.fixture(scope="module")
def slurm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A running one-node cluster; yields the environment that points the Slurm tools at it."""
    missing = [b for b in BINARIES if shutil.which(b) is None]
    if missing:
        pytest.skip(f"Slurm/munge not installed ({', '.join(missing)} missing; apt install slurm-wlm munge)")
    if os.geteuid() != 0:
        pytest.skip("a private slurmd must run as root")
    d = tmp_path_factory.mktemp("slurm")
    for sub in ("state", "spool"):
        (d / sub).mkdir()
    key = d / "munge.key"
    if Path("/etc/munge/munge.key").is_file():
        shutil.copyfile("/etc/munge/munge.key", key)
    else:
        key.write_bytes(os.urandom(1024))
    key.chmod(0o600)
    host = socket.gethostname()
    (d / "slurm.conf").write_text(_conf(d, host))
    env = {**os.environ, "SLURM_CONF": str(d / "slurm.conf")}
    daemons: list[subprocess.Popen[bytes]] = []

    def start(argv: list[str], log: str) -> None:
        with open(d / log, "wb") as out:
            daemons.append(
                subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
            )

    try:
        start(
            ["munged", "-F", "-f", f"--socket={d}/munge.sock", f"--key-file={key}", f"--pid-file={d}/munged.pid",
             f"--seed-file={d}/munged.seed", f"--log-file={d}/munged.log", "--num-threads=4"],
            "munged.out",
        )  # fmt: skip
        if not _until(lambda: (d / "munge.sock").exists(), 20):
            pytest.skip(f"munged did not start: {_tail(d / 'munged.out')}")
        start(["slurmctld", "-D", "-f", str(d / "slurm.conf")], "slurmctld.out")
        start(["slurmd", "-D", "-f", str(d / "slurm.conf"), "-N", host], "slurmd.out")

        def idle() -> bool:
            r = subprocess.run(
                ["sinfo", "-h", "-o", "%T"], env=env, capture_output=True, text=True, timeout=10
            )
            return r.returncode == 0 and r.stdout.strip() == "idle"

        if not _until(idle, 60):
            pytest.skip(
                f"slurmctld/slurmd did not come up: {_tail(d / 'slurmctld.out')} / {_tail(d / 'slurmd.out')}"
            )
        yield env
    finally:
        with suppress(OSError, subprocess.SubprocessError):
            subprocess.run(["scancel", "--user=root"], env=env, timeout=10, check=False)
        for p in reversed(daemons):
            with suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGTERM)
        for p in reversed(daemons):
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                with suppress(ProcessLookupError):
                    os.killpg(p.pid, signal.SIGKILL)
                p.wait(15)


def _until(predicate: Callable[[], bool], timeout: float) -> bool:
    """wait_for, but False instead of a failure: a daemon that cannot start is a skip here."""
    try:
        wait_for(predicate, timeout, "a daemon", every=0.2)
    except pytest.fail.Exception:
        return False
    return True


@pytest.mark.slow
def test_a_slurm_array_of_shards_and_its_afterany_merge(slurm: dict[str, str], tmp_path: Path) -> None:
    campaign = tmp_path / "campaign"
    r = run_cli(
        ["slurm", "--shards", "2", "--dir", str(campaign), "--submit", "--",
         "--workers", "2", "--rayon", "2", "--waves", "4", "--iterations", "3", "--seed", "5"],
        SLURM_CONF=slurm["SLURM_CONF"],
    )  # fmt: skip
    assert r.returncode == 0, r.stdout + r.stderr
    assert "submitted array job" in r.stdout
    merged = campaign / "merged" / "run.json"
    wait_for(merged.exists, 420, f"the merge job to write {merged}", every=0.5)
    # the merge job writes run.json first: wait for its last file too
    wait_for((campaign / "merged" / "junit.xml").exists, 60, "the merged junit.xml", every=0.5)
    run = json.loads(merged.read_text())
    assert [w["index"] for w in run["waves"]] == [0, 1, 2, 3]
    assert [w["shard"] for w in run["waves"]] == [0, 1, 0, 1]
    assert len({w["seed"] for w in run["waves"]}) == 4
    assert sorted(h["shard"]["index"] for h in run["hosts"]) == [0, 1]
    assert all(h["environment"]["host"] == socket.gethostname() for h in run["hosts"])
    assert all(w["verdict"] == "ok" for w in run["waves"])
    logs = sorted(p.name for p in (campaign / "logs").iterdir())
    assert logs == ["merge.out", "shard-0.out", "shard-1.out"]
    assert "ok: 4 waves" in (campaign / "logs" / "merge.out").read_text()


@pytest.mark.slow
def test_slurm_refuses_bad_run_options_before_writing(tmp_path: Path) -> None:
    r = run_cli(["slurm", "--shards", "2", "--dir", str(tmp_path / "c"), "--", "--workers", "two"])
    assert r.returncode == 2
    (line,) = r.stderr.strip().splitlines()
    assert "'two' is not a valid integer" in line
    assert not (tmp_path / "c").exists()
    r = run_cli(["slurm", "--shards", "2", "--dir", str(tmp_path / "c"), "--", "--shard", "1/2"])
    assert r.returncode == 2
    assert "--shard is set by `gvlstress slurm` itself" in r.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "says"),
    [
        # a newline in an #SBATCH value would run the rest of it as a shell line
        (
            ["--sbatch", "--partition=cpu\ntouch /tmp/gvlstress-pwned", "--", "--waves", "4"],
            "control character",
        ),
        (["--sbatch", "partition=cpu", "--", "--waves", "4"], "not an sbatch option"),
        (["--", "--waves", "4", "-o", "x=a\rb"], "control character"),
        (["--shards", "8", "--", "--waves", "4"], "some shards would run no wave"),
        (["--shards", "100000", "--", "--waves", "4"], "some shards would run no wave"),
        (["--", "--target", "nope:x"], "cannot import 'nope'"),
    ],
)
def test_slurm_refuses_what_would_break_or_escape_its_scripts(
    tmp_path: Path, args: list[str], says: str
) -> None:
    shards = [] if args[0] == "--shards" else ["--shards", "2"]
    r = run_cli(["slurm", *shards, "--dir", str(tmp_path / "c"), *args])
    assert r.returncode == 2, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert says in line
    assert not (tmp_path / "c").exists()  # nothing written
    assert not Path("/tmp/gvlstress-pwned").exists()


def test_slurm_quotes_hostile_but_printable_values() -> None:
    from gvlstress.campaign.slurm import scripts

    hostile = "--comment=$(touch /tmp/x); `id` 'q' \"d\" & | ;"
    text = scripts(Path("/tmp/c d"), 2, ("--seed", "1", "-o", "note=$(id)"), None, (hostile,), waves=4)
    array = text["array.sbatch"]
    # every value is one shell word (single-quoted), so bash never expands or runs any of it
    assert f"#SBATCH {shlex.quote(hostile)}\n" in array
    assert "-o 'note=$(id)'" in array
    assert all(line.startswith(("#", "exec ")) for line in array.splitlines())
    assert "note=$(id)" in shlex.split(array.splitlines()[-1])  # one word, never run
