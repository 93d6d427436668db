"""The hardening counts: malformed invocations, injected faults, planted secrets.

1. Malformed invocations: every command with bad values of every kind (not a number, NaN, inf,
   negative, huge, empty, control characters, a FIFO or a missing path, unknown options).
   Handled = one line on stderr, no traceback, and an exit code that is neither 1 ("hang found")
   nor 70 ("a bug in gvlstress").
2. Faults: a harness SIGKILLed (alone, or with its whole process group) at several moments of a
   run whose workers start children, daemonize grandchildren and hang. Survived = afterwards no
   process of the run, no cgroup of it and no semaphore of it is left.
3. Secrets: planted at every door (environment, argv, options, a scenario's keys, stderr, a
   traceback, a path, a PEM key); leaked = found in anything written or printed.
4. Data, never code (`hardening_data.py`): hostile values where shrink, host profiles and cores
   write and read back; inputs, handled, escapes (and the ways they escaped).

    python bench/hardening.py [--quick] [--only malformed,secrets,faults,data]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

from hardening_data import count_data

ROOT = Path(__file__).resolve().parent.parent
SUPPORT = ROOT / "tests" / "support"


def env(**extra: str) -> dict[str, str]:
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join([str(SUPPORT), e.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    e["NO_COLOR"] = "1"
    e.update(extra)
    return e


def cli(args: list[str], cwd: Path, timeout: float = 60, **extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "gvlstress", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env(**extra),
        cwd=cwd,
        check=False,
    )


BAD_NUMBERS = ["x", "nan", "inf", "-1", "0", "1e400", "99999999999999999999", "", "1.5e", "\x07", "1\n2"]
NUMERIC = {
    "run": ["--workers", "--rayon", "--waves", "--iterations", "--timeout", "--stall", "--stall-floor",
            "--startup-grace", "--fault-rate", "--seed", "--squeeze", "--cpu-quota", "--burners", "--chaos",
            "--duration", "--inherit-rayon"],
    "hunt": ["--until", "--max-waves", "--budget", "--keep-alive", "--alpha", "--beta"],
    "sweep": ["--workers", "--rayon"],
    "plan": ["--rate", "--confidence", "--hosts"],
    "inspect": ["--watch"],
    "selftest": ["--repeat", "--workers", "--rayon"],
    "compare": ["--ratio", "--alpha"],
}  # fmt: skip


def malformed(tmp: Path) -> list[list[str]]:
    fifo = tmp / "fifo"
    os.mkfifo(fifo)
    fifo_dir = tmp / "fifodir"
    fifo_dir.mkdir()
    os.mkfifo(fifo_dir / "run.json")
    out: list[list[str]] = []
    for command, options in NUMERIC.items():
        for opt in options:
            for bad in BAD_NUMBERS:
                args = [command, opt, bad]
                if command == "inspect":
                    args = ["inspect", str(os.getpid()), opt, bad]
                if command == "compare":
                    args = ["compare", str(fifo_dir), str(fifo_dir), opt, bad]
                if command == "hunt":  # an accepted value would start a hunt: keep it to one wave
                    args = ["hunt", "--max-waves", "1", "--iterations", "1", opt, bad]
                out.append(args)
    out += [
        ["run", "--target", t] for t in ("nope", "nope:x", ":", "os:", "os:path", "a b:c", "\x1b[31m:x")
    ] + [
        ["run", "--scenario", s] for s in ("nope", str(fifo), str(tmp), "/dev/null", "x.toml")
    ] + [
        ["run", "-o", o] for o in ("novalue", "=1", "batch_size=1e12", "region_len=-3", "samples=x", "bogus=1")
    ] + [
        ["run", "--fault", "nope"], ["run", "--start-method", "thread"], ["run", "--python", "/nonexistent"],
        ["run", "--python", str(fifo)], ["run", "--report-dir", "/proc/1"], ["run", "--shard", "3/2"],
        ["run", "--shard", "x"], ["run", "--preload"], ["run", "--warm-parent"], ["run", "--bogus"],
        ["inspect", "0"], ["inspect", "-5"], ["inspect", "2"], ["inspect", "999999999"], ["inspect", "x"],
        ["report", str(fifo_dir)], ["report", str(tmp / "missing")], ["report", "/"],
        ["merge", str(fifo_dir), "--output", str(tmp / "m")], ["merge", "--output", str(tmp / "m2")],
        ["compare", str(fifo_dir)], ["sweep", "--amplifiers", "turbo"], ["sweep", "--workers", "1,10000"],
        ["slurm", "--shards", "0", "--dir", str(tmp / "s")], ["slurm", "--shards", "8", "--dir", str(tmp / "s"), "--", "--waves", "4"],
        ["slurm", "--shards", "2", "--dir", str(tmp / "s"), "--sbatch", "--x=1\nid"],
        ["slurm", "--shards", "2", "--dir", str(tmp / "s"), "--", "--target", "nope:x"],
        ["plan"], ["plan", "--rate", "2"], ["selftest", "--only", "nope"], ["hunt", "--explore"],
        ["hunt", "--sequential", "0.5,0.1"], ["nope"], [],
    ]  # fmt: skip
    # issue 44: watch's --pid, values and the built-in dataset's tracks (each: one line, exit 2)
    job = ["--", "true"]
    out += [
        ["watch", "--pid", "2"], ["watch", "--pid", "0"], ["watch", "--pid", "-1"], ["watch", "--pid", "999999999"],
        ["watch", "--stall", "1_0", *job], ["watch", "--stall", "1e1", *job], ["watch", "--stall", "nan", *job],
        ["watch", "--window", "1_0", *job], ["watch", "--hang-exit-code", "8_6", *job],
        ["watch", "--core-limit", "-1", *job], ["watch", "--core-limit", "99999999T", *job],
        ["watch", "--core-limit", "978", *job], ["watch", "--on-hang", "keep:", *job],
        ["watch", "--on-hang", "kill:", *job], ["watch", "--on-hang", "signal:", *job],
        ["watch", "--log", str(tmp), *job], ["watch", "--", str(tmp / "no-such-program")],
        ["run", "--target", "genvarloader", "-o", "tracks=nonexistent-track"],
        ["run", "--target", "genvarloader", "-o", "tracks=signal,nope"],
    ]  # fmt: skip
    return out


def handled(r: subprocess.CompletedProcess[str]) -> bool:
    lines = [line for line in r.stderr.strip().splitlines() if line.strip()]
    return (r.returncode not in (0, 1, 70) and "Traceback" not in r.stderr and len(lines) <= 1) or (
        r.returncode == 0 and not r.stderr.strip()
    )


def count_malformed(tmp: Path, quick: bool) -> None:
    cases = malformed(tmp)
    if quick:
        cases = cases[::7]
    bad = []
    for args in cases:
        try:
            r = cli(args, tmp, timeout=60)
        except subprocess.TimeoutExpired:
            bad.append((args, "timed out (blocked)"))
            continue
        if not handled(r):
            bad.append((args, f"exit {r.returncode}: {r.stderr.strip()[:160]!r}"))
    print(f"malformed invocations: {len(cases) - len(bad)} of {len(cases)} handled (one line, exit not 1/70)")
    for args, why in bad[:10]:
        print(f"  NOT handled: {args!r}: {why}")


SPAWNING = """
import os, subprocess, sys, threading
def batches(out="", slot=0):
    child = subprocess.Popen(["sleep", "1000"])
    with open(os.path.join(out, f"pids-{slot}"), "a") as fh:
        fh.write(f"{child.pid}\\n")
    subprocess.run([sys.executable, "-c", DAEMON, os.path.join(out, f"pids-{slot}")], check=True)
    yield b"x"
    threading.Event().wait()
DAEMON = '''
import os, sys
if os.fork(): os._exit(0)
os.setsid()
if os.fork(): os._exit(0)
open(sys.argv[1], "a").write(f"{os.getpid()}\\\\n")
os.execvp("sleep", ["sleep", "1000"])
'''
"""


def count_faults(tmp: Path, quick: bool) -> None:
    (tmp / "spawning.py").write_text(SPAWNING)
    moments = [0.3, 1.0, 2.0, 3.5, 5.0, 8.0] if not quick else [1.0, 5.0]
    survived = 0
    trials = 0
    for group in (False, True):
        for at in moments:
            trials += 1
            out = tmp / f"f-{group}-{at}"
            out.mkdir()
            before = {p.name for p in Path("/dev/shm").glob("sem.mp-*")}
            harness = subprocess.Popen(
                [sys.executable, "-m", "gvlstress", "run", "--target", "spawning:batches", "-o", f"out={out}",
                 "--workers", "2", "--waves", "1", "--stall", "3", "--timeout", "60",
                 "--report-dir", str(out / "r")],
                cwd=tmp, env=env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
            )  # fmt: skip
            time.sleep(at)  # the moment of the fault is the variable under test
            if group:
                os.killpg(harness.pid, signal.SIGKILL)
            else:
                os.kill(harness.pid, signal.SIGKILL)
            harness.wait(10)
            deadline = time.monotonic() + 15
            pids: list[int] = []
            left: list[int] = []
            while time.monotonic() < deadline:
                pids = [int(x) for f in out.glob("pids-*") for x in f.read_text().split()]
                left = [p for p in pids if psutil.pid_exists(p) and psutil.Process(p).status() != "zombie"]
                cg = list(Path("/sys/fs/cgroup").glob(f"*/gvlstress-{harness.pid}-*"))
                sems = {p.name for p in Path("/dev/shm").glob("sem.mp-*")} - before
                if not left and not cg and not sems:
                    break
                time.sleep(0.2)  # polling what the watchdog cleans up, with a deadline
            ok = not left and not cg and not sems
            survived += ok
            if not ok:
                print(
                    f"  left behind (group kill {group}, at {at}s): pids {left}, cgroups {cg}, semaphores {sems}"
                )
    print(
        f"faults: {survived} of {trials} harness kills left nothing behind (children, daemons, cgroups, semaphores)"
    )


def count_secrets(tmp: Path) -> None:
    import base64

    secrets = {
        "url": "postgres://u:pw-url-secret-1@h/db",
        "bearer": "Bearer sk-bearersecret0123456789",
        "ghp": "ghp_ghpsecret0123456789abcdef",
        "hf": "hf_hfsecret0123456789abcdefghij",
        "aws": "AKIAAWSSECRET0000001",
        "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJqd3RzZWNyZXQifQ.c2lnbmF0dXJlc2VjcmV0",
        "opt_password": "optpasswordsecret",
        "opt_api_key": "optapikeysecret",
        "toml_token": "tomltokensecret",
        "toml_private": "tomlprivatesecret",
        "env_license": "envlicensesecret",
        "env_gvl_token": "envgvltokensecret",
        "env_omp_auth": "Bearer envompauthsecret",
        "stderr_assign": "stderrsecretvalue",
        "raise_cookie": "raisecookiesecret",
        "path": "pathsecretvalue9",
        "pem": base64.b64encode(os.urandom(48)).decode(),
    }
    (tmp / "leaky3.py").write_text(
        "import sys\n"
        "def batches(password='', api_key='', dsn='', note='', token=''):\n"
        f"    sys.stderr.write('session_token={secrets['stderr_assign']}\\n')\n"
        f"    sys.stderr.write('-----BEGIN PRIVATE KEY-----\\n{secrets['pem']}\\n-----END PRIVATE KEY-----\\n')\n"
        f"    sys.stderr.write('using {secrets['bearer']} and {secrets['jwt']}\\n')\n"
        "    yield b'x'\n"
        f"    raise RuntimeError('cookie={secrets['raise_cookie']} {secrets['aws']}')\n"
    )
    (tmp / "s3.toml").write_text(
        '[scenario]\nworkers = 1\nwaves = 1\niterations = 3\ntarget = "leaky3:batches"\n'
        f'[target]\ntoken = "{secrets["toml_token"]}"\n'
    )
    reports = tmp / f"api_key={secrets['path']}"
    r = cli(
        ["run", "--scenario", str(tmp / "s3.toml"), "-o", f"password={secrets['opt_password']}",
         "-o", f"api_key={secrets['opt_api_key']}", "-o", f"dsn={secrets['url']}",
         "-o", f"note={secrets['ghp']} {secrets['hf']}", "--report-dir", str(reports)],
        tmp, timeout=120,
        MKL_LICENSE=secrets["env_license"], GVL_API_TOKEN=secrets["env_gvl_token"],
        OMP_AUTHORIZATION=secrets["env_omp_auth"],
    )  # fmt: skip
    texts = [("console", r.stdout + r.stderr)] + [
        (str(p), p.read_text(errors="replace")) for p in reports.rglob("*") if p.is_file()
    ]
    leaked = []
    for name, value in secrets.items():
        core = value.split()[-1].split("@")[0].split(":")[-1]
        if any(core in text for _, text in texts):
            leaked.append(name)
    print(f"secrets: {len(secrets)} planted at every door, {len(leaked)} leaked {leaked or ''}")
    count_watch_secrets(tmp)


def count_watch_secrets(tmp: Path) -> None:
    """issue 44: secrets after short options (-p, -P, -k, also in a shell's script) in every file
    watch writes and on its console."""
    secrets = {"mysql_p": "shortpsecret1", "zip_P": "shortPsecret2", "openssl_k": "shortksecret3"}
    reports = tmp / "watch-secrets"
    script = f"exit 0; mysql -p {secrets['mysql_p']}"
    r = cli(
        ["watch", "--report-dir", str(reports), "--", "sh", "-c", script, "-P", secrets["zip_P"],
         "-k", secrets["openssl_k"]],
        tmp, timeout=60,
    )  # fmt: skip
    texts = [("console", r.stdout + r.stderr)] + [
        (str(p), p.read_text(errors="replace")) for p in reports.rglob("*") if p.is_file()
    ]
    leaked = [name for name, value in secrets.items() if any(value in text for _, text in texts)]
    files = sum(1 for p in reports.rglob("*") if p.is_file())
    print(
        f"watch secrets: {len(secrets)} after short options, {files} files written, {len(leaked)} leaked {leaked or ''}"
    )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="a seventh of the invocations, two fault moments")
    ap.add_argument(
        "--only", default="malformed,secrets,faults,data", help="the parts to run (comma-separated)"
    )
    args = ap.parse_args()
    parts = set(args.only.split(","))
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        if "malformed" in parts:
            count_malformed(tmp, args.quick)
        if "secrets" in parts:
            count_secrets(tmp)
        if "faults" in parts:
            count_faults(tmp, args.quick)
        if "data" in parts:
            (tmp / "data").mkdir()
            count_data(tmp / "data", cli, args.quick, ROOT / "reports" / "examples" / "lock-across-par-iter")
    return 0


if __name__ == "__main__":
    sys.exit(main())
