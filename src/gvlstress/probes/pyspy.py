"""py-spy's view: Python frames, ``owns_gil`` and active/idle per interpreter thread.

py-spy lists only threads the interpreter knows (not rayon's pool threads) and needs ptrace.
Its JSON has ``owns_gil``; its text output prints "(idle)" even for a thread holding the GIL,
so only the JSON is used.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from gvlstress.model import Frame, PyThread, ToolRun
from gvlstress.model.stacks import Local
from gvlstress.probes import tools
from gvlstress.probes.demangle import readable

ENV_VAR = "GVLSTRESS_PYSPY"
"""Path of the py-spy binary to use instead of the one found on PATH."""


def locate() -> str | None:
    return tools.find("py-spy", ENV_VAR)


VERSION_TIMEOUT_S = 3.0


def version(path: str | None = None) -> str | None:
    """py-spy's version, or None (not found, or it did not answer within VERSION_TIMEOUT_S)."""
    path = path or locate()
    if not path:
        return None
    out = tools.run([path, "--version"], VERSION_TIMEOUT_S, diagnostic=True)
    return out.stdout.strip().removeprefix("py-spy ").strip() if out.ok else None


def explain_error(stderr: str) -> str:
    """One line a human can act on, from py-spy's stderr."""
    text = stderr.strip()
    low = text.lower()
    if "permission denied" in low or "operation not permitted" in low or "os error 1)" in low:
        return "ptrace denied (run as the same user with ptrace allowed, or add CAP_SYS_PTRACE; see `gvlstress doctor`)"
    if "no such process" in low or "failed to find process" in low:
        return "process exited before py-spy attached"
    if "failed to find python version" in low or "failed to get python version" in low:
        return "not a Python process py-spy understands"
    if "failed to suspend process" in low:
        return "could not pause the process (stopped by a signal or traced by another tool?)"
    return tools.error_line(text, None) if text else "py-spy failed without a message"


def _retry_without_native(out: tools.Output) -> bool:
    """A --native dump that failed for a reason a plain dump does not share (not a timeout, not
    a process that is gone or cannot be traced)."""
    if out.returncode is None:
        return False
    why = explain_error(out.stderr or out.stdout)
    return not why.startswith(("ptrace denied", "process exited", "not a Python process", "could not pause"))


def _frame(f: dict[str, Any]) -> Frame:
    line, file, module = f.get("line"), f.get("filename"), f.get("module")
    return Frame(
        name=str(f.get("name") or "?")[:2000],
        file=file if isinstance(file, str) and file else None,
        line=line if isinstance(line, int) and not isinstance(line, bool) and line > 0 else None,
        module=module if isinstance(module, str) and module else None,
    )


def parse_json(text: str) -> tuple[PyThread, ...]:
    """Threads from ``py-spy dump --json``; ValueError on anything that is not that shape."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:  # junk, or nested too deep to read
        raise ValueError(f"py-spy output is not JSON: {type(exc).__name__}") from None
    if not isinstance(data, list):
        raise ValueError("py-spy JSON is not a list of threads")
    threads = []
    for t in data:
        if not isinstance(t, dict) or not isinstance(t.get("frames"), list):
            raise ValueError("py-spy JSON thread without frames")
        tid = t.get("os_thread_id") or t.get("thread_id")
        if not isinstance(tid, int):
            raise ValueError("py-spy JSON thread without a thread id")
        threads.append(
            PyThread(
                tid=tid,
                name=t["thread_name"] if isinstance(t.get("thread_name"), str) else None,
                owns_gil=bool(t.get("owns_gil")),
                active=bool(t.get("active")),
                frames=tuple(_frame(f) for f in t["frames"] if isinstance(f, dict)),
            )
        )
    return tuple(threads)


def dump(
    pid: int, timeout: float = 20.0, native: bool = True
) -> tuple[ToolRun, tuple[PyThread, ...], str | None]:
    """Run py-spy on `pid`: (how it went, threads, raw JSON)."""
    path = locate()
    if path is None:
        return (
            ToolRun("py-spy", False, 0.0, (), f"py-spy not found (pip install py-spy, or set {ENV_VAR})"),
            (),
            None,
        )
    argv = [path, "dump", "--json", "--pid", str(pid)] + (["--native"] if native else [])
    out = tools.run(argv, timeout, diagnostic=True)
    if native and not out.ok and _retry_without_native(out):
        # "Failed to merge native and python frames" (seen on PyO3 crates): the plain dump
        # still names every thread and the GIL holder; native frames come from the native tool
        argv = argv[:-1]
        out = tools.run(argv, max(1.0, timeout - out.elapsed_s), diagnostic=True)
    if not out.ok:
        error = out.error if out.returncode is None else explain_error(out.stderr or out.stdout)
        return ToolRun("py-spy", False, out.elapsed_s, tuple(argv), error), (), out.stdout or None
    try:
        threads = parse_json(out.stdout)
    except ValueError as exc:
        return ToolRun("py-spy", False, out.elapsed_s, tuple(argv), str(exc)), (), out.stdout
    # --native mixes raw Rust symbols into the Python stacks: make them readable too
    threads = tuple(
        replace(t, frames=f) for t, f in zip(threads, readable([t.frames for t in threads]), strict=True)
    )
    return ToolRun("py-spy", True, out.elapsed_s, tuple(argv)), threads, out.stdout


_NUMBER = re.compile(r"-?\d+(\.\d+)?(e-?\d+)?")


def _plain(text: str) -> str:
    """A local's repr reduced to what cannot hold a secret: None, a bool, a number, else the
    object's type ('<Result at 0x7f...>' -> '<Result>', a string -> '<str>')."""
    if text in ("None", "True", "False") or _NUMBER.fullmatch(text):
        return text
    if text[:1] in ("'", '"'):
        return "<str>"
    m = re.match(r"<([A-Za-z_][\w.]*)", text)
    return f"<{m.group(1)}>" if m else "<object>"


def parse_locals(text: str, wanted: Mapping[tuple[str, str], tuple[str, ...]]) -> tuple[Local, ...]:
    """The `wanted` locals ((file suffix, function) -> names) from ``py-spy dump --json --locals``,
    reduced by `_plain`; ValueError on anything that is not that shape."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise ValueError(f"py-spy output is not JSON: {type(exc).__name__}") from None
    if not isinstance(data, list):
        raise ValueError("py-spy JSON is not a list of threads")
    out = []
    for t in data:
        tid = t.get("os_thread_id") if isinstance(t, dict) else None
        if not isinstance(tid, int):
            continue
        for f in t.get("frames") or ():
            if not isinstance(f, dict):
                continue
            name, file = str(f.get("name") or ""), str(f.get("filename") or "")
            function = name.rsplit(".", 1)[-1]
            names = next(
                (v for (suffix, fn), v in wanted.items() if fn == function and file.endswith(suffix)), ()
            )
            for var in f.get("locals") or ():
                if isinstance(var, dict) and var.get("name") in names and isinstance(var.get("repr"), str):
                    out.append(Local(tid, function, str(var["name"]), _plain(var["repr"])))
    return tuple(out)


def frame_locals(
    pid: int, wanted: Mapping[tuple[str, str], tuple[str, ...]], timeout: float = 20.0
) -> tuple[ToolRun, tuple[Local, ...]]:
    """The `wanted` locals of `pid`'s frames (``py-spy dump --json --locals``): a second look, taken
    only where the first showed a frame whose locals a rule reads."""
    path = locate()
    if path is None:
        return ToolRun("py-spy", False, 0.0, (), "py-spy not found"), ()
    argv = [path, "dump", "--json", "--locals", "--pid", str(pid)]
    out = tools.run(argv, timeout, diagnostic=True)
    if not out.ok:
        return ToolRun("py-spy", False, out.elapsed_s, tuple(argv), out.error), ()
    try:
        return ToolRun("py-spy", True, out.elapsed_s, tuple(argv)), parse_locals(out.stdout, wanted)
    except ValueError as exc:
        return ToolRun("py-spy", False, out.elapsed_s, tuple(argv), str(exc)), ()
