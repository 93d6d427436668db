"""`inspect`'s window (pure): what a thread did over it, from /proc samples, and whether its
stacks say it spins or computes."""

from __future__ import annotations

import pytest

from gvlstress.judge.activity import activity, which
from gvlstress.model import (
    Capture,
    Frame,
    NativeThread,
    ProcSample,
    PyThread,
    StackSample,
    ThreadSample,
    ThreadView,
    ToolRun,
)
from gvlstress.model.syscalls import CLK_TCK

PID = 4000


def sample(at: float, *, utime: int, stime: int, vol: int, reads: int, syscall: int | None) -> ProcSample:
    t = ThreadSample(
        tid=PID + 1,
        comm="handler",
        state="R" if syscall is None else "S",
        wchan=None,
        syscall=syscall,
        futex_addr=None,
        utime=utime,
        stime=stime,
        voluntary_ctxt=vol,
        nonvoluntary_ctxt=0,
        run_ns=int((utime + stime) / CLK_TCK * 1e9),
        syscr=reads,
        syscw=0,
    )
    return ProcSample(PID, at, (t,))


@pytest.mark.parametrize(
    ("utime", "stime", "vol", "reads", "syscall", "says"),
    [
        # recorded from poll_spin: poll(0) + waitpid(WNOHANG) in a loop, 65% of its CPU in the kernel
        (0.35, 0.65, 0, 0, None, "and making syscalls (0.7 CPU-s in the kernel, 0 reads/writes"),
        # numpy: all in user space, no sleep
        (1.0, 0.0, 0, 0, None, "with no syscall and no voluntary switch"),
        # a copy loop: reads counted
        (0.5, 0.5, 0, 90000, None, "90000 reads/writes"),
        # an idle service woken now and then
        (0.0, 0.0, 40, 0, 7, "0 reads/writes and 40 wake-ups (voluntary switches): waiting, and woken"),
    ],
)
def test_what_a_watch_says(
    utime: float, stime: float, vol: int, reads: int, syscall: int | None, says: str
) -> None:
    first = sample(0.0, utime=0, stime=0, vol=0, reads=0, syscall=syscall)
    last = sample(
        1.0, utime=round(utime * CLK_TCK), stime=round(stime * CLK_TCK), vol=vol, reads=reads, syscall=syscall
    )
    assert says in activity([first, last]).summary


def _at(at: float, cpu_s: float, queued_s: float = 0.0) -> ProcSample:
    t = ThreadSample(
        tid=PID + 1,
        comm="spinner",
        state="R",
        wchan=None,
        syscall=None,
        futex_addr=None,
        utime=round(cpu_s * CLK_TCK),
        stime=0,
        voluntary_ctxt=0,
        nonvoluntary_ctxt=0,
        run_ns=int(cpu_s * 1e9),
        queued_ns=int(queued_s * 1e9),
        syscr=0,
        syscw=0,
    )
    return ProcSample(PID, at, (t,))


@pytest.mark.parametrize(
    ("samples", "says"),
    [
        # held still by the first native stack dump for 1.7 s, then spinning: the dump's stop is
        # not the process's doing, so the watch counts from the sample after it
        (
            (_at(0.0, 0.0), _at(1.7, 0.0), _at(1.85, 0.14), _at(2.0, 0.29)),
            "with no syscall and no voluntary switch",
        ),
        # on a crowded host a spinner gets little CPU but is runnable all along
        ((_at(0.0, 0.0), _at(1.0, 0.1, queued_s=0.85)), "with no syscall and no voluntary switch"),
        # some CPU, no syscall, no wake-up, nowhere near busy: not "no CPU"
        ((_at(0.0, 0.0), _at(1.0, 0.05)), "a little CPU (0.05 CPU-s)"),
        ((_at(0.0, 0.0), _at(1.0, 0.0)), "no CPU, no syscall, no wake-up"),
    ],
    ids=["held-by-the-first-dump", "crowded-host", "a-little-cpu", "none"],
)
def test_a_watch_counts_what_the_process_did_not_what_the_look_did(
    samples: tuple[ProcSample, ...], says: str
) -> None:
    assert says in activity(list(samples)).summary


def _capture(*places: tuple[str, int] | None) -> Capture:
    """A capture of thread PID+1 seen at each look in the Python line (function, line) given
    (None: a look that did not see it)."""

    def py(place: tuple[str, int]) -> PyThread:
        return PyThread(PID + 1, "handler", True, True, (Frame(place[0], "/srv/app.py", place[1]),))

    first, *later = places
    view = ThreadView(PID + 1, "handler", "R", None, None, None, 1.0, 0, 0, py(first) if first else None, ())
    resamples = tuple(StackSample(0.4 * (i + 1), (py(p),) if p else ()) for i, p in enumerate(later))
    return Capture(
        PID, (view,), ToolRun("py-spy", True, 0.1), ToolRun("pystack", True, 0.3), resamples=resamples
    )


@pytest.mark.parametrize(
    ("capture", "faults", "says"),
    [
        (_capture(("spin", 12), ("spin", 12), ("spin", 12)), 0, "a spin: at all 3 looks it was at spin"),
        (_capture(("mean", 40), ("sum", 77), ("mean", 41)), 0, "computation: its stack moved between looks"),
        (_capture(("kernel", 9), ("kernel", 9)), 350, "computation in one place"),
        (_capture(("spin", 12), None, None), 0, "its stack was seen at one look only"),
        (None, 0, "its stack was seen at one look only"),
    ],
    ids=["still", "moved", "still-but-faulting", "one-look", "no-stacks"],
)
def test_the_stacks_say_whether_a_busy_thread_spins_or_computes(
    capture: Capture | None, faults: int, says: str
) -> None:
    assert says in which(capture, PID + 1, faults)


BLAS = "/venv/lib/python3.11/site-packages/numpy.libs/libopenblas64_p-r0.so"
EVAL = "/usr/lib/libpython3.11.so.1.0"


def _capture_native(*looks: str) -> Capture:
    """A capture of thread PID+1 at one Python line (a matmul) at every look, each look with a
    native stack whose innermost frame is `looks[i]` ('function@library')."""
    py = PyThread(PID + 1, "MainThread", False, True, (Frame("main", "/srv/app.py", 21),))

    def nat(spec: str) -> NativeThread:
        name, lib = spec.split("@")
        return NativeThread(
            PID + 1, "python", (Frame(name, module=lib), Frame("_PyEval_EvalFrameDefault", module=EVAL))
        )

    first, *later = (nat(s) for s in looks)
    view = ThreadView.of(PID + 1, py, first.frames)
    resamples = tuple(StackSample(0.4 * (i + 1), (py,), (n,)) for i, n in enumerate(later))
    return Capture(
        PID, (view,), ToolRun("py-spy", True, 0.1), ToolRun("pystack", True, 0.3), resamples=resamples
    )


@pytest.mark.parametrize(
    ("capture", "says"),
    [
        # one Python line (a matmul), but the C it called moves: computation
        (
            _capture_native(f"dgemm_kernel@{BLAS}", f"dgemm_oncopy@{BLAS}"),
            "computation: its native stack moved",
        ),
        # one function of a library at every look: a tight kernel and a spin look alike
        (_capture_native(f"dgemm_kernel@{BLAS}", f"dgemm_kernel@{BLAS}"), "the looks cannot tell which"),
        # one Python line, the interpreter's own loop at every look: a spin in Python
        (_capture_native(f"_PyEval_EvalFrameDefault@{EVAL}", f"_PyEval_EvalFrameDefault@{EVAL}"), "a spin"),
    ],
    ids=["native-moved", "one-library-function", "interpreter-only"],
)
def test_one_python_line_is_told_apart_by_the_native_code_under_it(capture: Capture, says: str) -> None:
    assert says in which(capture, PID + 1, 0)
