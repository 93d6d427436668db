"""Native stacks of every thread, including rayon's pool threads that py-spy cannot see.

eu-stack (elfutils) is tried first where it is installed (fastest: ~0.1 s a worker); pystack (a
pip dependency, so a plain ``pip install`` has it: ``pystack remote PID --native-all``, ~1 s for
a 17-thread worker) next, and gdb in batch mode (~2.5 s) last. A tool that fails (pystack on a
non-Python process) hands over to the next. Names go through one c++filt call (or the pure-Python fallback), so legacy and v0 Rust
symbols are demangled the same way whichever tool ran.
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import replace

from gvlstress.model import Frame, NativeThread, ToolRun
from gvlstress.probes import tools
from gvlstress.probes.demangle import readable

ENV_VAR = "GVLSTRESS_NATIVE_TOOL"
"""Force a native stack tool: 'pystack', 'eu-stack', 'gdb' or 'none'."""
TOOLS = ("eu-stack", "pystack", "gdb")
"""Best first. Measured here on a 5 x 16 hang: eu-stack 0.07 s per worker, pystack 1.0 s, gdb 2.5 s;
so eu-stack leads where apt installed it, and pystack (a pip dependency) gives full stacks where
it did not."""


def available() -> list[tuple[str, str]]:
    """(tool name, path) of every native stack tool this host has, best first (or the forced one)."""
    forced = os.environ.get(ENV_VAR)
    if forced == "none":
        return []
    out = []
    for name in (forced,) if forced else TOOLS:
        path = tools.find(name) if name in TOOLS else None
        if path:
            out.append((name, path))
    return out


def locate() -> tuple[str, str] | None:
    """(tool name, path) of the best native stack tool this host has."""
    found = available()
    return found[0] if found else None


_EU_THREAD = re.compile(r"^TID (\d+):\s*$")
_EU_FRAME = re.compile(r"^#\d+\s+0x[0-9a-fA-F]+\s+(.*?)\s*$")


def parse_eustack(text: str) -> tuple[NativeThread, ...]:
    """Threads from ``eu-stack -p PID`` output; lines that fit no pattern are skipped."""
    threads: list[NativeThread] = []
    tid: int | None = None
    frames: list[Frame] = []
    for line in text.splitlines():
        if m := _EU_THREAD.match(line):
            if tid is not None:
                threads.append(NativeThread(tid, None, tuple(frames)))
            tid, frames = int(m.group(1)), []
        elif tid is not None and (m := _EU_FRAME.match(line)):
            body = m.group(1)
            name, _, module = ("", "", body[2:]) if body.startswith("- ") else body.partition(" - ")
            frames.append(Frame(name=name.strip() or "??", module=module.strip() or None))
    if tid is not None:
        threads.append(NativeThread(tid, None, tuple(frames)))
    return tuple(threads)


_GDB_THREAD = re.compile(r'^Thread \d+ \((?:Thread 0x[0-9a-f]+ )?\(?LWP (\d+)\)?(?: "(.*)")?\)')
_GDB_FRAME = re.compile(r"^#\d+\s+(?:0x[0-9a-fA-F]+ in )?(.*)$")
_GDB_WHERE = re.compile(r"^(.*?) \(.*?\)(?: (?:at|from) (\S+?)(?::(\d+))?)?$")


def parse_gdb(text: str) -> tuple[NativeThread, ...]:
    """Threads from gdb's ``thread apply all bt``; inlined frames included."""
    threads: list[NativeThread] = []
    tid: int | None = None
    name: str | None = None
    frames: list[Frame] = []
    for line in text.splitlines():
        if m := _GDB_THREAD.match(line):
            if tid is not None:
                threads.append(NativeThread(tid, name, tuple(frames)))
            tid, name, frames = int(m.group(1)), m.group(2), []
        elif tid is not None and (m := _GDB_FRAME.match(line)):
            body = m.group(1)
            where = _GDB_WHERE.match(body)
            if where:
                fn, file, lineno = where.group(1), where.group(2), where.group(3)
            else:
                fn, file, lineno = body, None, None
            frames.append(Frame(name=fn.strip() or "??", file=file, line=int(lineno) if lineno else None))
    if tid is not None:
        threads.append(NativeThread(tid, name, tuple(frames)))
    return tuple(threads)


_PS_THREAD = re.compile(r"^Traceback for thread (\d+)(?: \((.*?)\))?")
"""A thread's header; a core's threads have no name when their process is gone."""
_PS_FRAME = re.compile(
    r'^\s+\((C|Python)\) File "(.*?)", line (\d+), in (.*?)(?: \(inlined\))?(?: \((/[^()]*)\))?\s*$'
)


def parse_pystack(text: str) -> tuple[NativeThread, ...]:
    """Threads from ``pystack remote PID --native-all``: its C frames, innermost first.

    pystack prints outermost first and interleaves Python frames (py-spy supplies those)."""
    threads: list[NativeThread] = []
    tid: int | None = None
    name: str | None = None
    frames: list[Frame] = []
    for line in text.splitlines():
        if m := _PS_THREAD.match(line):
            if tid is not None:
                threads.append(NativeThread(tid, name, tuple(reversed(frames))))
            tid, name, frames = int(m.group(1)), m.group(2), []
        elif tid is not None and (m := _PS_FRAME.match(line)) and m.group(1) == "C":
            file = m.group(2) if m.group(2) != "???" else None
            frames.append(
                Frame(
                    name=m.group(4).strip() or "??",
                    file=file,
                    line=int(m.group(3)) or None,
                    module=m.group(5),
                )
            )
    if tid is not None:
        threads.append(NativeThread(tid, name, tuple(reversed(frames))))
    return tuple(threads)


def stacks(
    pid: int, timeout: float = 30.0, hung: tools.Hung | None = None
) -> tuple[ToolRun, tuple[NativeThread, ...], str | None]:
    """All-thread native stacks of `pid`: (how it went, threads, raw text). The best tool that
    gives stacks wins; one that fails (pystack on a non-Python process) hands over to the next.
    Tools in `hung` (timed out earlier in the same look) are skipped, and one that times out
    now is added to it."""
    found = [(n, p) for n, p in available() if hung is None or n not in hung]
    if not found and hung is not None and available():
        return (
            ToolRun("native", False, 0.0, (), "every native stack tool ran out of time earlier in this look"),
            (),
            None,
        )
    if not found:
        why = (
            "forced off"
            if os.environ.get(ENV_VAR) == "none"
            else "no pystack, eu-stack or gdb (pip install pystack)"
        )
        return ToolRun("native", False, 0.0, (), f"native stacks unavailable: {why}"), (), None
    failed: list[str] = []
    started = time.monotonic()
    for name, path in found:
        left = timeout - (time.monotonic() - started)
        if left <= 1.0:
            break
        run, threads, raw = _one(name, path, pid, left)
        if not run.ok and run.error and "timed out" in run.error and hung is not None:
            hung.add(name)
        if threads:
            if failed:
                run = replace(run, error="; ".join([*failed, run.error or ""]).strip("; ") or None)
            return run, threads, raw
        failed.append(f"{name}: {run.error}")
    return (
        ToolRun("native", False, time.monotonic() - started, (), "; ".join(failed) or "no time left"),
        (),
        None,
    )


def _one(
    name: str, path: str, pid: int, timeout: float
) -> tuple[ToolRun, tuple[NativeThread, ...], str | None]:
    if name == "pystack":
        argv = [path, "remote", str(pid), "--native-all", "--no-color"]
        parse = parse_pystack
    elif name == "eu-stack":
        argv = [path, "-r", "-m", "-p", str(pid)]  # -m: the module of frames with no symbol
        parse = parse_eustack
    else:
        argv = [
            path,
            "-p",
            str(pid),
            "-batch",
            "-nx",
            "-q",
            "-ex",
            "set pagination off",
            "-ex",
            "set print frame-arguments none",
            "-ex",
            "thread apply all bt",
        ]
        parse = parse_gdb
    out = tools.run(argv, timeout, diagnostic=True)
    threads = parse(out.stdout)
    if not threads:
        error = out.error or f"{name} printed no stacks"
        if "ptrace" in (out.stderr or "").lower() or "not permitted" in (out.stderr or "").lower():
            error = f"ptrace denied ({error})"
        return ToolRun(name, False, out.elapsed_s, tuple(argv), error), (), (out.stdout + out.stderr) or None
    threads = tuple(
        replace(t, frames=f) for t, f in zip(threads, readable([t.frames for t in threads]), strict=True)
    )
    # eu-stack exits non-zero when one thread could not be unwound; the others still count.
    return (
        ToolRun(name, True, out.elapsed_s, tuple(argv), out.error if not out.ok else None),
        threads,
        out.stdout,
    )
