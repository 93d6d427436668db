"""The hardening counts, round four (issue 37): what shrink, host profiles and cores write and
read back is data, never code.

Each input is a hostile value at one surface; it is handled when the command's answer is what
the surface promises, and an escape otherwise (the way it escaped is counted):

1. A run directory with a hostile name, shrunk (shrink runs its own reproducer to measure it):
   exit 1, the three files parse, and nothing injected runs (no PWNED file appears).
2. The three generated files (reproduce.py, scenario.toml, run.sh) written from hostile values
   at every place a value reaches them: each parses, runs nothing injected, reads back.
3. Host profiles (`run --like`) whose thread knobs hold ``=``, NUL, 1 MB, digits int() refuses:
   one line and exit 2, or a run (exit 0) that inherited them as they are.
4. ``--force`` writes over what is not a regular file: one line, exit 2, left as it was.
5. shrink's numbers and its saved state (``--ratio inf``, a tampered shrink.json): one line, exit 2.
6. ``doctor --export --pid`` of a zombie, a kernel thread, no such pid: one line, exit 2.
7. ``inspect --core`` with a venv's python link, another program, a core with no stacks: the
   verdict, or one line and exit 2 / 4 (never "stalled", exit 0).
8. Cores: 0600 in a 0700 folder; on a full disk (a 3 MB tmpfs, root only) no partial file
   and the deadlock still reported (exit 1, report.md).
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import stat
import subprocess
import sys
import tomllib
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from gvlstress.hosts.profile_file import render
from gvlstress.model.profile import CpuProfile, HostProfile, MemoryProfile, ProcessProfile, SystemProfile
from gvlstress.model.shrink import Recipe, Reproduction
from gvlstress.reporters import reproducer, shrunk

Cli = Callable[..., subprocess.CompletedProcess[str]]
PWNED = "PWNED"
HOSTILE = (
    'x""";__import__("os").system("touch PWNED");"""',
    "'''; __import__('os').system('touch PWNED'); '''",
    'a\nb = __import__("os").system("touch PWNED")\n#',
    "\\N{",
    "`touch PWNED`",
    "$(touch PWNED)",
    "'; touch PWNED; echo '",
    "\u2028__import__('os').system('touch PWNED')\u2029",
    "a\x00b",
    "\r\n[scenario]\nworkers = 99\n",
    "\udcff lone surrogate",
    "x" * 1_000_000,
)
DIR_NAMES = (
    'x""";__import__("os").system("touch PWNED");"""',
    "x'''; __import__('os').system('touch PWNED'); '''",
    "a\nb = __import__('os').system('touch PWNED')",
    "\\N{oops}",
    "$(touch PWNED)`touch PWNED`",
    "a\u2028b\u2029c",
    "token=hunter2hunter2XYZ",
    "0123456789abcdef0123456789abcdef",
)


@dataclass
class Tally:
    """Inputs, handled, and the escapes by the way they escaped."""

    name: str
    inputs: int = 0
    escapes: Counter[str] = field(default_factory=Counter)

    def check(self, ok: bool, way: str) -> None:
        self.inputs += 1
        if not ok:
            self.escapes[way] += 1

    def line(self) -> str:
        handled = self.inputs - sum(self.escapes.values())
        ways = "; ".join(f"{n} {w}" for w, n in self.escapes.most_common())
        return (
            f"  {self.name}: {self.inputs} inputs, {handled} handled, {sum(self.escapes.values())} escapes"
            + (f" ({ways})" if ways else "")
        )


def one_line(r: subprocess.CompletedProcess[str], code: int = 2) -> bool:
    lines = [x for x in r.stderr.strip().splitlines() if x.strip()]
    return r.returncode == code and len(lines) == 1 and "Traceback" not in r.stderr and "(hint: " in lines[0]


def _rep(text: str) -> Reproduction:
    options = {text if len(text) < 100 and "\x00" not in text else "k": text, "n": 3}
    return Reproduction(
        recipe=Recipe(
            imports=("import gvlstress_native",),
            open="gvlstress_native.Loader(seed=seed, **OPTIONS)",
            next="loader.next_batch()",
            modules=(text,),
            options=options,
            note=text,
        ),
        workers=1,
        iterations=1,
        duration=None,
        start_method="spawn",
        env={"RAYON_NUM_THREADS": "2", "GVL_X": text},
        inherited={},
        seed=0,
        timeout_s=10.0,
        launches=3,
        python=sys.executable,
        kill_worker=text,
        not_carried=(text,),
        scenario={"name": "shrunk", "waves": 3, "description": text, "python": text, "options": options},
        source=text,
        evidence=text,
    )


def generated(tmp: Path, tally: Tally) -> None:
    """2: each hostile value everywhere a value reaches the three files."""
    for i, text in enumerate(HOSTILE):
        where = tmp / f"gen{i}"
        where.mkdir()
        rep = _rep(text)
        py = reproducer.render_python(rep)
        try:
            ast.parse(py)
            ns: dict[str, object] = {"__name__": "under_test"}
            cwd = os.getcwd()
            os.chdir(where)
            try:
                exec(compile(py, "reproduce.py", "exec"), ns)
            finally:
                os.chdir(cwd)
            ok = ns["OPTIONS"] == rep.recipe.options and ns["ENV"] == rep.env and text in str(ns["__doc__"])
        except Exception as exc:  # what the injected code did: an escape, counted by its kind
            tally.check(False, f"reproduce.py: {type(exc).__name__}")
            continue
        tally.check(ok and not (where / PWNED).exists(), "reproduce.py runs or loses a value")
        try:
            data = tomllib.loads(shrunk.render_toml(rep))
            ok = set(data) == {"scenario", "target"} and data["scenario"]["waves"] == 3
        except (tomllib.TOMLDecodeError, KeyError):
            ok = False
        tally.check(ok, "scenario.toml unparsable or injected")
        sh = where / "run.sh"
        sh.write_text(shrunk.render_sh(rep), encoding="utf-8", errors="surrogateescape")
        r = subprocess.run(["sh", "-n", str(sh)], capture_output=True, timeout=30, check=False)
        tally.check(r.returncode == 0 and len(shrunk.render_sh(rep).splitlines()) == 3, "run.sh")


def shrink_dirs(tmp: Path, cli: Cli, tally: Tally, quick: bool) -> None:
    """1: a hung run under hostile directory names, shrunk (its reproducer measured: run)."""
    base = tmp / "hung"
    r = cli(["run", "--fault", "lock_across_par_iter", "--workers", "1", "--rayon", "1", "--iterations", "1",
             "--waves", "1", "--report-dir", str(base)], tmp, timeout=120)  # fmt: skip
    (run_dir,) = (p.parent for p in base.glob("*/run.json"))
    for i, name in enumerate(DIR_NAMES[:3] if quick else DIR_NAMES):
        home = tmp / f"d{i}"
        home.mkdir()
        where = home / name
        shutil.copytree(run_dir, where)
        r = cli(["shrink", str(where), "--measure", "1"], home, timeout=300)
        files = [where / "shrink" / f for f in ("reproduce.py", "scenario.toml", "run.sh")]
        ok = r.returncode == 1 and all(f.is_file() for f in files)
        try:
            if ok:
                ast.parse(files[0].read_text())
                tomllib.loads(files[1].read_text())
        except (SyntaxError, ValueError):  # TOMLDecodeError is a ValueError
            ok = False
        pwned = list(tmp.rglob(PWNED))
        for p in pwned:
            p.unlink()
        way = "code ran (PWNED)" if pwned else f"shrink exit {r.returncode} or a file unparsable"
        tally.check(ok and not pwned, way)


def profiles(tmp: Path, cli: Cli, tally: Tally) -> None:
    """3: host profiles with thread knobs no environment can hold, or no count can be read from."""
    host = HostProfile(
        cpu=CpuProfile(count=2, affinity=2, affinity_list="0-1"),
        memory=MemoryProfile(total=2**34),
        process=ProcessProfile(python="3.11.7"),
        system=SystemProfile(kernel="6.1", glibc="2.36", machine="x86_64"),
    )
    refused = [{"OMP_A=B": "2"}, {"OMP_A\x00B": "2"}, {"OMP_NUM_THREADS": "2\x00"},
               {"RAYON_NUM_THREADS": "1" * 1_000_000}, {"OMP_NUM_THREADS": "4" * 1_000_000}]  # fmt: skip
    kept = [
        {"RAYON_NUM_THREADS": "\u00b2"},
        {"RAYON_NUM_THREADS": "9" * 4000},
        {"OMP_NUM_THREADS": "$(touch PWNED)"},
    ]
    for i, threads in enumerate(refused + kept):
        path = tmp / f"host{i}.toml"
        path.write_text(render(replace(host, threads=threads)))
        r = cli(["run", "--like", str(path), "--workers", "1", "--waves", "1", "--iterations", "1",
                 "--report-dir", str(tmp / f"like{i}")], tmp, timeout=120)  # fmt: skip
        ok = one_line(r) if threads in refused else r.returncode == 0
        tally.check(ok and not list(tmp.rglob(PWNED)), f"--like exit {r.returncode}")


def force_writes(tmp: Path, cli: Cli, tally: Tally) -> None:
    """4: doctor --export --force over what is not a regular file."""
    made: list[Path] = []
    fifo = tmp / "fifo"
    os.mkfifo(fifo)
    made.append(fifo)
    if os.geteuid() == 0:
        dev = tmp / "null"
        os.mknod(dev, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        made.append(dev)
    for target in (fifo, tmp):
        link = tmp / f"link-{target.name}"
        link.symlink_to(target)
        made.append(link)
    dangling = tmp / "dangling"
    dangling.symlink_to(tmp / "nothing")
    made.append(dangling)
    for path in made:
        before = (path.is_symlink(), os.stat(path).st_mode if path.exists() else -1)
        r = cli(["doctor", "--export", str(path), "--force"], tmp, timeout=120)
        after = (path.is_symlink(), os.stat(path).st_mode if path.exists() else -1)
        tally.check(r.returncode == 2 and before == after, f"doctor --export exit {r.returncode}")


def shrink_state(tmp: Path, cli: Cli, tally: Tally, example: Path) -> None:
    """5: shrink's numbers, and its saved state edited by hand."""
    run_dir = tmp / "example"
    shutil.copytree(example, run_dir)
    for opt, value in (("--ratio", "inf"), ("--ratio", "nan"), ("--ratio", "1e400"), ("--ratio", "1"),
                       ("--rate", "0"), ("--rate", "nan"), ("--rate", "1")):  # fmt: skip
        r = cli(["shrink", str(run_dir), opt, value, "--measure", "0"], tmp, timeout=120)
        tally.check(one_line(r), f"shrink {opt} {value}: exit {r.returncode}")
    first = cli(["shrink", str(run_dir), "--max-launches", "1", "--measure", "0"], tmp, timeout=300)
    if first.returncode != 1:
        tally.check(False, "the first shrink did not save its state")
        return
    state = json.loads((run_dir / "shrink.json").read_text())
    edits: list[dict[str, object]] = [{"stated_rate": 0}, {"ratio": -4}, {"ratio": 1e308}, {"stated_rate": float("nan")}, {"alpha": 2},
             {"step": {"changes": {"bogus": 1}}}, {"step": {"changes": {"workers": -5}}},
             {"step": {"hangs": 9}}, {"step": {"decision": "maybe"}}]  # fmt: skip
    for edit in edits:
        edited = json.loads(json.dumps(state))
        step = edit.pop("step", None)
        edited.update(edit)
        if isinstance(step, dict):
            edited["steps"][0].update(step)
        (run_dir / "shrink.json").write_text(json.dumps(edited))
        r = cli(["shrink", str(run_dir), "--measure", "0"], tmp, timeout=300)
        tally.check(one_line(r), f"tampered shrink.json: exit {r.returncode}")


def pids(tmp: Path, cli: Cli, tally: Tally) -> None:
    """6: doctor --export --pid of what has no environment to read."""
    code = "import os, sys\npid = os.fork()\nif pid == 0:\n    os._exit(0)\nprint(pid, flush=True)\nsys.stdin.read()"
    parent = subprocess.Popen(
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert parent.stdout is not None
        zombie = parent.stdout.readline().strip()
        for pid in (zombie, "2", "999999999", "0"):
            r = cli(["doctor", "--export", str(tmp / f"p{pid}.toml"), "--pid", pid], tmp, timeout=120)
            tally.check(one_line(r) and "--report-dir" not in r.stderr, f"doctor --pid: exit {r.returncode}")
    finally:
        parent.kill()
        parent.wait(10)


def cores(tmp: Path, cli: Cli, tally: Tally) -> None:
    """7 and 8: inspect --core with each --exe; a core's mode; a core on a full disk."""
    reports = tmp / "cores"
    cli(["run", "--fault", "lock_across_par_iter", "--workers", "1", "--rayon", "2", "--waves", "1", "--keep-core",
         "--report-dir", str(reports)], tmp, timeout=240, GVLSTRESS_NATIVE_TOOL="pystack")  # fmt: skip
    kept = sorted(reports.glob("*/cores/*.core.gz"))
    if not kept:
        tally.check(False, "no core kept")
        return
    core = kept[0]
    tally.check(stat.S_IMODE(core.stat().st_mode) == 0o600, "a core readable by others")
    tally.check(stat.S_IMODE(core.parent.stat().st_mode) == 0o700, "a cores folder open to others")
    link = tmp / "venv-python"
    link.symlink_to(os.path.realpath(sys.executable))
    for exe, code in (((), 1), (("--exe", str(link)), 1), (("--exe", os.path.realpath("/bin/sh")), 2),
                      (("--exe", str(tmp / "nope")), 2)):  # fmt: skip
        r = cli(["inspect", "--core", str(core), *exe, "--report-dir", str(tmp / "ri")], tmp, timeout=240)
        tally.check(
            r.returncode == code, f"inspect --core {' '.join(exe) or '(no --exe)'}: exit {r.returncode}"
        )
    if os.geteuid() != 0:
        return
    disk = tmp / "small"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(disk)], check=False).returncode:
        return
    try:
        r = cli(["run", "--fault", "lock_across_par_iter", "--workers", "1", "--rayon", "2", "--waves", "1",
                 "--keep-core", "--report-dir", str(disk / "r")], tmp, timeout=240)  # fmt: skip
        partial = [p for p in disk.rglob(".*") if p.is_file()]
        tally.check(
            r.returncode == 1 and bool(list(disk.glob("r/*/report.md"))), f"full disk: exit {r.returncode}"
        )
        tally.check(not partial, "full disk: a partial core left")
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def count_data(tmp: Path, cli: Cli, quick: bool, example: Path) -> None:
    parts: list[tuple[str, Callable[[Tally], None]]] = [
        ("generated files from hostile values", lambda t: generated(tmp, t)),
        ("shrink of a run under a hostile directory name", lambda t: shrink_dirs(tmp, cli, t, quick)),
        ("host profiles (run --like)", lambda t: profiles(tmp, cli, t)),
        ("--force writes over what is not a regular file", lambda t: force_writes(tmp, cli, t)),
        ("shrink numbers and a tampered shrink.json", lambda t: shrink_state(tmp, cli, t, example)),
        ("doctor --export --pid without an environment", lambda t: pids(tmp, cli, t)),
        ("cores (inspect --core, modes, a full disk)", lambda t: cores(tmp, cli, t)),
    ]
    tallies = []
    for name, fn in parts:
        tally = Tally(name)
        fn(tally)
        tallies.append(tally)
    inputs = sum(t.inputs for t in tallies)
    escapes = sum(sum(t.escapes.values()) for t in tallies)
    print(f"data, never code (issue 37): {inputs} inputs, {inputs - escapes} handled, {escapes} escapes")
    for t in tallies:
        print(t.line())
