"""Native stacks of every thread, including rayon's pool threads that py-spy cannot see.

eu-stack (elfutils) is fast (~0.1-1 s) and preferred; gdb in batch mode is the fallback (~2-3 s).
Names come out raw from eu-stack (``-r``) and go through one c++filt call, so legacy and v0
Rust symbols are demangled the same way whichever tool ran.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace

from gvlstress.model import Frame, NativeThread, ToolRun
from gvlstress.probes import tools
from gvlstress.probes.demangle import readable

ENV_VAR = "GVLSTRESS_NATIVE_TOOL"
"""Force a native stack tool: 'eu-stack', 'gdb' or 'none'."""
TOOLS = ("eu-stack", "gdb")


def locate() -> tuple[str, str] | None:
    """(tool name, path) of the native stack tool this host has, best first."""
    forced = os.environ.get(ENV_VAR)
    for name in (forced,) if forced else TOOLS:
        if name == "none":
            return None
        path = tools.find(name) if name else None
        if name in TOOLS and path:
            return name, path
    return None


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
            name, _, module = m.group(1).partition(" - ")
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


def stacks(pid: int, timeout: float = 30.0) -> tuple[ToolRun, tuple[NativeThread, ...], str | None]:
    """All-thread native stacks of `pid`: (how it went, threads, raw text)."""
    found = locate()
    if found is None:
        why = (
            "forced off"
            if os.environ.get(ENV_VAR) == "none"
            else "no eu-stack or gdb (apt-get install elfutils)"
        )
        return ToolRun("native", False, 0.0, (), f"native stacks unavailable: {why}"), (), None
    name, path = found
    if name == "eu-stack":
        argv = [path, "-r", "-p", str(pid)]
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
    out = tools.run(argv, timeout)
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
