"""Parsers of py-spy JSON, eu-stack and gdb output on recorded samples (and junk), and demangling.

The recordings in tests/data/ are from a real lock_across_par_iter hang of the native fixture.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gvlstress.judge.frames import collapse_recursion
from gvlstress.judge.vocab import telling_frame
from gvlstress.model import Frame
from gvlstress.probes import demangle, native, pyspy, tools

DATA = Path(__file__).parent / "data"


def test_eustack_raw_recording() -> None:
    threads = native.parse_eustack((DATA / "eustack_raw_lock.txt").read_text())
    assert len(threads) == 5
    main, *pool = threads
    assert main.tid == 13810
    assert main.frames[0].name == "syscall"
    assert any("LockLatch" in f.name for f in main.frames)
    assert all(t.frames for t in pool)


@pytest.mark.slow
def test_pystack_recording_gives_c_frames_innermost_first() -> None:
    threads = native.parse_pystack((DATA / "pystack_lock.txt").read_text())
    assert len(threads) == 5
    stacks = demangle.readable([t.frames for t in threads])  # as native.stacks does
    main = next(fs for fs in stacks if any("LockLatch::wait_and_reset" in f.name for f in fs))
    assert main[0].name == "syscall"  # innermost first
    assert main[-1].name == "_start"
    pool = [fs for fs in stacks if any("Mutex::lock_contended" in f.name for f in fs)]
    assert len(pool) == 4
    assert all(f.line is None or f.line >= 0 for t in threads for f in t.frames)


def test_pystack_junk_is_no_threads() -> None:
    assert native.parse_pystack("Engine error: Could not determine python version\n") == ()
    assert native.parse_pystack("Traceback for thread x (y)\n    garbage") == ()


def test_gdb_recording_keeps_names_files_and_lines() -> None:
    threads = native.parse_gdb((DATA / "gdb_lock.txt").read_text())
    assert threads
    first = threads[0]
    assert first.name == "python3"
    names = [f.name for f in first.frames]
    assert "std::sys::sync::mutex::futex::Mutex::lock_contended" in names
    futex_wait = first.frames[1]
    assert (futex_wait.file, futex_wait.line) == ("library/std/src/sys/pal/unix/futex.rs", 73)


@pytest.mark.parametrize("junk", ["", "garbage\n#0 nothing", "TID x:\n#0 0xzz foo", "\x00\x01"])
def test_stack_parsers_survive_junk(junk: str) -> None:
    assert native.parse_eustack(junk) == ()
    assert native.parse_gdb(junk) == ()


def test_pyspy_json_recording() -> None:
    (t,) = pyspy.parse_json((DATA / "pyspy_native_lock.json").read_text())
    assert (t.tid, t.name, t.owns_gil, t.active) == (13810, "MainThread", False, False)
    assert [f.name for f in t.frames][-3:] == ["<module>", "_run_code", "_run_module_as_main"]


@pytest.mark.parametrize(
    ("junk", "message"),
    [
        ("not json", "not JSON"),
        ("{}", "not a list"),
        ('[{"frames": "x"}]', "without frames"),
        ('[{"frames": []}]', "without a thread id"),
    ],
)
def test_pyspy_json_junk(junk: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pyspy.parse_json(junk)


@pytest.mark.parametrize(
    ("stderr", "says"),
    [
        ("Error: Permission denied (os error 13)", "ptrace denied"),
        ("Error: Operation not permitted (os error 1)", "ptrace denied"),
        ("Error: No such process (os error 3)", "exited"),
        ("Error: Failed to find python version from target process", "not a Python process"),
        ("", "without a message"),
    ],
)
def test_pyspy_errors_become_one_actionable_line(stderr: str, says: str) -> None:
    assert says in pyspy.explain_error(stderr)


def test_legacy_rust_symbols_decode_without_cxxfilt() -> None:
    sym = "_ZN10rayon_core4join12join_context28_$u7b$$u7b$closure$u7d$$u7d$17h5f38e94808c3d895E.llvm.12744"
    assert demangle.clean(demangle.legacy(sym) or "") == "rayon_core::join::join_context::{{closure}}"
    assert demangle.legacy("_ZN3foo") is None
    assert demangle.legacy("not_mangled") is None


def test_half_demangled_eustack_names_are_cleaned() -> None:
    name = (
        "core::ops::function::impls::_$LT$impl$u20$core..ops..function..FnMut$LT$A$GT$$u20$for$u20$"
        "$RF$F$GT$::call_mut::h0e7fb19486864200"
    )
    assert (
        demangle.clean(name)
        == "core::ops::function::impls::<impl core::ops::function::FnMut<A> for &F>::call_mut"
    )


@pytest.mark.slow
@pytest.mark.skipif(tools.find("c++filt") is None, reason="c++filt (binutils) not installed")
def test_v0_and_legacy_symbols_demangle_through_cxxfilt() -> None:
    v0 = "_RNvMNtNtNtNtCsjrHSEGnQ3l9_3std3sys4sync5mutex5futexNtB2_5Mutex14lock_contended"
    legacy = "_ZN10rayon_core5latch9LockLatch14wait_and_reset17hd97ca17b1f51d4c3E"
    out = demangle.demangle_all([v0, legacy, "syscall"])
    assert out == {
        v0: "std::sys::sync::mutex::futex::Mutex::lock_contended",
        legacy: "rayon_core::latch::LockLatch::wait_and_reset",
        "syscall": "syscall",
    }


def test_recursion_collapses_so_pool_stacks_group() -> None:
    a = ("lock", "helper", "join", "in_worker", "helper", "join", "in_worker", "helper", "execute")
    b = ("lock", "helper", "join", "in_worker", "helper", "execute")
    assert (
        collapse_recursion(a)
        == collapse_recursion(b)
        == ("lock", "helper", "join", "in_worker", "helper", "execute")
    )


def test_telling_frame_skips_futex_plumbing() -> None:
    frames = tuple(
        Frame(n)
        for n in (
            "syscall",
            "std::sys::sync::condvar::futex::Condvar::wait",
            "rayon_core::latch::LockLatch::wait_and_reset",
            "main",
        )
    )
    assert telling_frame(frames) == "rayon_core::latch::LockLatch::wait_and_reset"


def test_recorded_pyspy_json_is_really_json() -> None:
    assert isinstance(json.loads((DATA / "pyspy_native_lock.json").read_text()), list)


def test_eustack_with_modules_keeps_frames_that_have_no_symbol() -> None:
    """`eu-stack -m` (recorded on a libgomp process): a frame with no symbol still says its
    module, which is how an OpenMP runtime's stripped internals are recognised."""
    main, worker = native.parse_eustack((DATA / "eustack_modules_gomp.txt").read_text())
    assert [f.name for f in main.frames][:3] == ["??", "??", "GOMP_parallel"]
    assert main.frames[0].module == "/usr/lib/x86_64-linux-gnu/libgomp.so.1.0.0"
    assert main.frames[-1].module == "/root/.pyenv/versions/3.11.7/bin/python3.11"
    assert [f.name for f in worker.frames][-2:] == ["start_thread", "__clone3"]


def test_a_fork_inside_fork_gets_the_forking_threads_python_view() -> None:
    """py-spy on a child still inside fork() lists the parent's thread ids (recorded: 9790 the
    parent's main thread, 9792 its holder; the child's one thread is 9793): the child's thread
    gets the forking thread's Python frames, and nothing else is invented."""
    from gvlstress.model import Frame, ProbeFinding, ProbeKind, PyThread, ThreadDelta
    from gvlstress.probes.capture import merge

    child = ThreadDelta(9793, "python", "S", "futex_wait_queue", 202, 0xA0, 0.0, 0, 0)
    finding = ProbeFinding(9793, ProbeKind.STALLED, 0.5, 0.0, (child,), (), "")
    forking = PyThread(9790, "MainThread", False, True, (Frame("main", "atfork_lock.py", 23),))
    holder = PyThread(9792, "holder", False, True, (Frame("Condition.wait", "threading.py", 327),))
    (view,) = merge(finding, (forking, holder), {}, forked_from=9790)
    assert view.python is not None
    assert (view.tid, view.python.tid, view.python.frames) == (9793, 9793, forking.frames)
    (unmapped,) = merge(finding, (forking, holder), {}, forked_from=None)  # not a fork: no guess
    assert unmapped.python is None
