"""Kept hangs: the ELF core format both ways (pure), the bound, and real cores of real hung
workers written by a run (`--keep-core`) and judged offline (`inspect --core`) the way the run
judged them live."""

from __future__ import annotations

import gzip
import json
import os
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import cli_run, load_run, run_cli, workers_of
from gvlstress.probes import corefile, coremaps, corewriter, elfcore

PID = 4242


def _regs(**values: int) -> bytes:
    return struct.pack(f"<{len(elfcore.USER_REGS)}q", *(values.get(r, 0) for r in elfcore.USER_REGS))


def test_a_core_written_in_the_kernels_layout_reads_back_thread_by_thread() -> None:
    # GIVEN two threads: one in an untimed futex wait, one running user code (orig_rax = -1)
    ids = (1, PID, PID)
    waits = _regs(orig_rax=202, rdi=0x7F00DEAD, rsi=128, rsp=0x7FFF0000)
    runs = _regs(orig_rax=-1, rsp=0x7FFE0000)
    notes = b"".join(
        [
            elfcore.note(elfcore.NT_PRSTATUS, elfcore.prstatus(PID, ids, waits, (250, 10), 100, 19)),
            elfcore.note(
                elfcore.NT_PRPSINFO, elfcore.prpsinfo("S", PID, ids, (0, 0), "python3", "python x.py")
            ),
            elfcore.note(elfcore.NT_PRSTATUS, elfcore.prstatus(PID + 1, ids, runs, (0, 0), 100, 19)),
            elfcore.note(elfcore.NT_FILE, elfcore.file_note([(0x400000, 0x401000, 0, "/usr/bin/python3")])),
            elfcore.note(elfcore.NT_GVLSTRESS, b"gvlstress 9.9", name=b"GVLSTRESS"),
        ]
    )
    head, ranges = elfcore.layout(notes, [(elfcore.PF_R | elfcore.PF_W, 0x10000, 0x12000)])
    # WHEN its notes are read back
    found = elfcore.read_notes(head)
    # THEN each thread's syscall, futex and CPU time come from its registers and times
    assert ranges == [(0x10000, 0x12000)]
    assert (found.pid, found.fname, found.psargs, found.state) == (PID, "python3", "python x.py", "S")
    assert found.files == ("/usr/bin/python3",)
    assert (found.loads, found.saved_bytes, found.writer) == (1, 0x2000, "gvlstress 9.9")
    first, second = found.threads
    assert (first.tid, first.syscall, first.args[:2], first.utime_us) == (
        PID,
        202,
        (0x7F00DEAD, 128),
        2_500_000,
    )
    assert (second.tid, second.syscall) == (PID + 1, None)
    # AND as a /proc sample: the waiter asleep on its futex, the other running
    sample = corefile.sample(found, {PID: "main"})
    assert [(t.tid, t.state, t.futex_addr) for t in sample.threads] == [
        (PID, "S", 0x7F00DEAD),
        (PID + 1, "R", None),
    ]


def test_what_is_not_a_core_is_refused_with_a_reason() -> None:
    with pytest.raises(elfcore.NotACore, match="not a 64-bit"):
        elfcore.read_notes(b"#!/bin/sh\n" * 10)
    executable = Path(sys.executable).resolve().read_bytes()[:4096]
    with pytest.raises(elfcore.NotACore, match="not a core"):
        elfcore.read_notes(executable)


def test_the_bound_keeps_stacks_first_and_leaves_out_the_largest_buffers() -> None:
    page = elfcore.PAGE
    stack = coremaps.Mapping(0x1000_0000, 0x1000_0000 + 64 * page, "rw-p", 0, "")
    arena = coremaps.Mapping(0x2000_0000, 0x2000_0000 + 16 * page, "rw-p", 0, "")
    batch = coremaps.Mapping(0x3000_0000, 0x3000_0000 + 1024 * page, "rw-p", 0, "")
    pieces = {m: [(m.start, m.end)] for m in (stack, arena, batch)}
    chosen, left = coremaps.choose([batch, arena, stack], pieces, {stack.start + 8 * page}, limit=100 * page)
    saved = {m.start: hi - lo for m, lo, hi in chosen}
    assert saved == {stack.start: 64 * page, arena.start: 16 * page, batch.start: 20 * page}
    assert left == 1004 * page
    assert [lo for _, lo, _ in chosen] == sorted(lo for _, lo, _ in chosen)  # in address order


def test_present_pages_become_runs_with_short_gaps_bridged() -> None:
    page = elfcore.PAGE
    present = [True, True, False, True] + [False] * 20 + [True]
    assert coremaps.runs(present, 0) == [(0, 4 * page), (24 * page, 25 * page)]


def test_smaps_lines_and_their_flags_are_read() -> None:
    text = (
        "7f00-7f10 r--p 00000000 08:01 123 /usr/lib/libc.so.6\nSize: 4 kB\nVmFlags: rd mr mw me\n"
        "7f20-7f30 rw-p 00000000 00:00 0 \nVmFlags: rd wr mr mw me dd\n"
        "7f40-7f50 rw-s 00000000 00:05 9 /dev/nvidia0\nVmFlags: rd wr sh io\n"
    )
    libc, dontdump, device = coremaps.parse_smaps(text)
    assert (libc.path, libc.file_backed, coremaps.dumpable(libc)) == ("/usr/lib/libc.so.6", True, True)
    assert not coremaps.dumpable(dontdump)
    assert not coremaps.dumpable(device)


PYSTACK_CORE = """\
Traceback for thread 31079 (python) [Has the GIL,Garbage collecting] (most recent call last):
    (C) File "???", line 0, in _start (/usr/bin/python3.11)
    (Python) File "/tmp/hang.py", line 6, in <module>
        l.next_batch()
    (C) File "src/lib.rs", line 432, in gvlstress_native::Loader::run_batch (_native.abi3.so)
    (C) File "src/latch.rs", line 246, in rayon_core::latch::LockLatch::wait_and_reset (_native.abi3.so)
Traceback for thread 31081 [Waiting for the GIL] (most recent call last):
    (C) File "Python/ceval_gil.c", line 300, in take_gil (libpython3.11.so.1.0)
Traceback for thread 31084 [Garbage collecting] (most recent call last):
    (C) File "src/registry.rs", line 900, in rayon_core::registry::WorkerThread::wait_until_cold (_native.abi3.so)
"""


def test_pystacks_python_view_of_a_core_gives_the_gil_and_python_frames() -> None:
    py = corefile.parse_pystack_python(PYSTACK_CORE)
    assert [(t.tid, t.name, t.owns_gil, [f.name for f in t.frames]) for t in py] == [
        (31079, "python", True, ["<module>"]),
        (31081, None, False, []),  # a pool thread that called back into Python: it waits for the GIL
    ]
    assert corefile.thread_names(PYSTACK_CORE) == {31079: "python"}


# -- real processes -------------------------------------------------------------------------


@pytest.mark.slow
def test_a_core_of_a_live_process_lets_it_go_on_and_pystack_reads_it(tmp_path: Path) -> None:
    # GIVEN a live Python process that answers on stdin (a thread waiting in a condition too)
    program = (
        "import sys, threading\n"
        "ev = threading.Event()\n"
        "threading.Thread(target=ev.wait, name='waiter', daemon=True).start()\n"
        "print('ready', flush=True)\n"
        "for line in sys.stdin:\n"
        "    print('echo ' + line.strip(), flush=True)\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", program], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        assert proc.stdin is not None
        assert proc.stdout.readline() == "ready\n"
        # WHEN gvlstress writes its core
        kept = corewriter.write(proc.pid, tmp_path / "it.core.gz", limit=corewriter.LIMIT_DEFAULT)
        # THEN the process runs on as before (every thread was let go)
        proc.stdin.write("hello\n")
        proc.stdin.flush()
        assert proc.stdout.readline() == "echo hello\n"
    finally:
        proc.kill()
        proc.wait(30)
    assert kept.ok, kept.error
    assert kept.writer == "gvlstress"
    assert kept.threads == 2
    assert 0 < kept.file_bytes < kept.saved_bytes <= corewriter.LIMIT_DEFAULT
    assert kept.seconds < kept.total_s
    with gzip.open(tmp_path / "it.core.gz", "rb") as fh:
        found = elfcore.read_notes(fh.read(corefile.NOTES_BYTES))
    assert found.writer.startswith("gvlstress")
    assert len(found.threads) == 2
    # AND pystack (a pip wheel) reads both threads' Python stacks from it
    looked = corefile.stacks(tmp_path / "it.core.gz", kept.executable, proc.pid)
    assert looked.native.ok, looked.native.error
    frames = {f.name for t in looked.python for f in t.frames}
    assert "<module>" in frames
    assert "wait" in frames


def _keep(fault: str, report_dir: Path, *extra: str) -> tuple[dict[str, Any], Path]:
    run = cli_run(
        ["run", "--fault", fault, "--workers", "1", "--rayon", "4", "--waves", "1", "--keep-core", *extra],
        1,
        report_dir,
        GVLSTRESS_NATIVE_TOOL="pystack",  # pip-installed tools only, as in CI's first pass
    )
    (w,) = workers_of(run)
    return w, next(report_dir.glob("*/run.json")).parent


@pytest.mark.slow
@pytest.mark.parametrize("fault", ["lock_across_par_iter", "gil_held"])
def test_a_kept_core_is_judged_offline_as_the_run_judged_it_live(fault: str, report_dir: Path) -> None:
    # GIVEN a run that kept the core of its deadlocked worker
    w, run_dir = _keep(fault, report_dir)
    live = w["diagnosis"]["pattern"]
    kept = w["capture"]["core"]
    assert kept["ok"], kept
    assert kept["path"].startswith("cores/")
    assert (run_dir / kept["path"]).is_file()
    assert kept["saved_bytes"] <= kept["limit_bytes"]
    assert kept["left_out_bytes"] == 0
    report = (run_dir / "report.md").read_text()
    assert report.count("may hold secrets") == 1
    assert f"gvlstress inspect --core {kept['path']} --exe" in report
    # WHEN the core is judged offline (another process, no live worker left)
    offline = run_cli(
        ["inspect", "--core", str(run_dir / kept["path"]), "--report-dir", str(report_dir / "offline")]
    )
    # THEN the same verdict and pattern, and the report says what a core lacks
    assert offline.returncode == 1, offline.stdout + offline.stderr
    assert offline.stdout.startswith("offline, from the core")
    (inspected,) = json.loads(next((report_dir / "offline").glob("*/inspect.json")).read_text())["processes"]
    assert inspected["diagnosis"]["verdict"] == "deadlock"
    assert inspected["diagnosis"]["pattern"] == live
    text = next((report_dir / "offline").glob("*/report.md")).read_text()
    assert "CPU over a window" in text
    assert "wait channels" in text


@pytest.mark.slow
def test_the_bound_cuts_what_does_not_fit_and_says_how_much(report_dir: Path) -> None:
    w, run_dir = _keep("lock_across_par_iter", report_dir, "--core-limit", "2M")
    kept = w["capture"]["core"]
    assert kept["ok"]
    assert kept["saved_bytes"] <= 2 * 2**20 < kept["saved_bytes"] + kept["left_out_bytes"]
    assert (run_dir / kept["path"]).stat().st_size <= 2 * 2**20
    assert "left out by the bound" in (run_dir / "report.md").read_text()


@pytest.mark.slow
def test_no_core_is_kept_unless_asked(report_dir: Path) -> None:
    run = cli_run(
        ["run", "--fault", "lock_across_par_iter", "--workers", "1", "--rayon", "2", "--waves", "1"],
        1,
        report_dir,
    )
    (w,) = workers_of(run)
    assert w["capture"]["core"] is None
    run_dir = next(report_dir.glob("*/run.json")).parent
    assert not (run_dir / "cores").exists()
    assert "may hold secrets" not in (run_dir / "report.md").read_text()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--core", "{tmp}/notes.txt"], "not a 64-bit little-endian ELF file"),
        (["--core", "{tmp}/missing.core"], "cannot read it"),
        (["--core", "{exe}"], "not a core"),
        (["--core", "{tmp}/notes.txt", "4242"], "not both"),
        (["--exe", "{exe}", "4242"], "--exe goes with --core"),
    ],
)
def test_a_bad_core_is_one_line_and_exit_2(args: list[str], said: str, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("no core here\n")
    given = [a.format(tmp=tmp_path, exe=Path(sys.executable).resolve()) for a in args]
    result = run_cli(["inspect", *given, "--report-dir", str(tmp_path / "r")])
    assert result.returncode == 2, result.stdout + result.stderr
    assert said in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_the_pytest_plugin_copies_reports_and_cores_to_the_artifacts_dir(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        def test_hangs(gvlstress):
            result = gvlstress.run(workers=1, rayon=4, waves=1, fault="lock_across_par_iter")
            gvlstress.assert_no_hang(result)
        """
    )
    pytester.makeini("[pytest]\ngvlstress_keep_core = true\n")
    result = pytester.runpytest_subprocess(
        "--gvlstress-report-dir", "out", "--gvlstress-artifacts", "ci", timeout=180
    )
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*artifacts: ci/*test_hangs*"])
    (copied,) = list(pytester.path.glob("ci/*test_hangs*/*"))
    assert (copied / "report.md").is_file()
    assert (copied / "run.json").is_file()
    assert len(list(copied.glob("cores/*.core.gz"))) == 1
    assert load_run(copied.parent)["summary"]["hung"] == 1


@pytest.mark.slow
def test_a_bad_keep_core_setting_names_its_source(pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\ngvlstress_keep_core = sometimes\n")
    pytester.makepyfile("def test_x():\n    pass\n")
    result = pytester.runpytest_subprocess()
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*ini option gvlstress_keep_core: expected true or false, got 'sometimes'*"])


@pytest.mark.slow
def test_a_core_is_judged_with_the_program_it_names_whatever_exe_is_given(
    report_dir: Path, tmp_path: Path
) -> None:
    # GIVEN a kept core of a deadlocked worker, and the interpreter as a venv gives it: a link
    w, run_dir = _keep("lock_across_par_iter", report_dir)
    core_path = str(run_dir / w["capture"]["core"]["path"])
    link = tmp_path / "venv-python"
    link.symlink_to(os.path.realpath(sys.executable))

    def inspect(*exe: str) -> subprocess.CompletedProcess[str]:
        out = tmp_path / f"r{len(list(tmp_path.iterdir()))}"
        return run_cli(["inspect", "--core", core_path, *exe, "--report-dir", str(out)])

    # WHEN it is judged with that link as --exe, or with none
    for exe in ((), ("--exe", str(link))):
        judged = inspect(*exe)
        # THEN the deadlock is named as it was live (issue 37: the link gave "stalled", exit 0)
        assert judged.returncode == 1, judged.stdout + judged.stderr
        assert w["diagnosis"]["pattern"] in judged.stdout
    # WHEN another program is given THEN it is refused in one line: it is not the core's
    wrong = inspect("--exe", os.path.realpath("/bin/sh"))
    assert wrong.returncode == 2, wrong.stdout + wrong.stderr
    (line,) = wrong.stderr.strip().splitlines()
    assert "is not the program the core ran" in line
    assert "(hint: drop --exe" in line


@pytest.mark.slow
def test_a_core_whose_stacks_cannot_be_read_gets_no_verdict(tmp_path: Path) -> None:
    # GIVEN a core of a process pystack cannot read (no Python in it)
    proc = subprocess.Popen(["sleep", "300"])
    try:
        kept = corewriter.write(proc.pid, tmp_path / "sleep.core.gz")
    finally:
        proc.kill()
        proc.wait(30)
    assert kept.ok, kept.error
    # WHEN it is judged THEN no clean bill of health ("idle", exit 0): one line says why not
    r = run_cli(["inspect", "--core", str(tmp_path / "sleep.core.gz"), "--report-dir", str(tmp_path / "r")])
    assert r.returncode == 4, r.stdout + r.stderr
    (line,) = r.stderr.strip().splitlines()
    assert "no stacks could be read from it" in line
    assert "without them no verdict is given" in line


def test_the_program_a_core_ran_is_told_by_its_first_page_where_its_path_is_not_here(tmp_path: Path) -> None:
    exe = Path(os.path.realpath(sys.executable))
    elsewhere = corefile.Program("/elsewhere/bin/python3", exe.read_bytes()[: elfcore.PAGE])
    assert corefile.same_program(str(exe), elsewhere) is True
    assert corefile.same_program(os.path.realpath("/bin/sh"), elsewhere) is False
    assert corefile.same_program(str(exe), corefile.Program("/elsewhere/bin/python3", None)) is None
