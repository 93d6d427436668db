"""Regenerate the per-program sections of FACTS.md (not a test; run by hand, needs root/ptrace).

Usage: python tests/support/corpus/collect_facts.py [--out DIR] [name.py ...] > sections.md

For every corpus program: start it in its own session (process group), wait for `ready`
(60 s), snapshot /proc for the process and its descendants (per thread: comm, state,
wchan, syscall, schedstat and ctxt-switch deltas over 0.5 s and 2.5 s, 40 syscall samples
over 1 s), resolve fds named by blocked syscalls (read/write/accept4/epoll_wait, and
poll's pollfd array via /proc/PID/mem), then run py-spy, gdb, pystack and eu-stack on each
process, find every holder of the pipe/socket inodes, kill the process group (SIGKILL) and
check nothing survives. Raw results go to DIR/<name>.json; Markdown goes to stdout.
"""

# ruff: noqa: T201

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import selectors
import signal
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict, cast

CORPUS = os.path.dirname(os.path.abspath(__file__))
FD_SYSCALLS = {
    0: "read",
    1: "write",
    43: "accept",
    288: "accept4",
    45: "recvfrom",
    232: "epoll_wait",
    281: "epoll_pwait",
}


class ThreadSnap(TypedDict):
    """One /proc snapshot of a thread."""

    comm: str
    state: str
    wchan: str
    syscall: str
    schedstat: str
    ctxt: tuple[int, int]


class ThreadFacts(ThreadSnap, total=False):
    """A thread snapshot plus the deltas and samples taken around it."""

    cpu_ns_delta: int
    vol_delta: int
    nonvol_delta: int
    syscall_t0: str
    long_cpu_ns: int
    long_vol: int
    long_nonvol: int
    samples: dict[str, int]


class ToolResult(TypedDict):
    rc: int | str  # "timeout" when the tool did not finish
    out: str
    err: str
    secs: float


class ProcFacts(TypedDict):
    pid: int
    cmdline: str
    threads: dict[int, ThreadFacts]
    blocked_fds: dict[str, str]
    all_fds: dict[str, str]
    pyspy: NotRequired[ToolResult]
    gdb: NotRequired[ToolResult]
    pystack: NotRequired[ToolResult]
    eustack: NotRequired[ToolResult]


class Holder(TypedDict):
    pid: int
    fd: int
    flags: str


class RunFacts(TypedDict):
    name: str
    ready: bool
    stdout: list[str]
    procs: list[ProcFacts]
    after_tools: NotRequired[dict[int, dict[int, str]]]
    owners: NotRequired[dict[str, list[Holder]]]
    stderr: NotRequired[str]
    survivors: NotRequired[list[int]]


def rd(path: str) -> str:
    try:
        with open(path) as fh:
            return fh.read()
    except OSError as e:
        return f"<{type(e).__name__}: {e}>"


def children_of(root: int) -> list[int]:
    kids: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if d.isdigit():
            st = rd(f"/proc/{d}/stat")
            if st.startswith("<"):
                continue
            ppid = int(st.rsplit(")", 1)[1].split()[1])
            kids.setdefault(ppid, []).append(int(d))
    out: list[int] = []
    todo = [root]
    while todo:
        p = todo.pop(0)
        out.append(p)
        todo.extend(sorted(kids.get(p, [])))
    return out


def ctxt(path: str) -> tuple[int, int]:
    s = rd(path)
    v = re.search(r"^voluntary_ctxt_switches:\s+(\d+)", s, re.M)
    n = re.search(r"^nonvoluntary_ctxt_switches:\s+(\d+)", s, re.M)
    return (int(v.group(1)) if v else -1, int(n.group(1)) if n else -1)


def snap_threads(pid: int) -> dict[int, ThreadSnap]:
    res: dict[int, ThreadSnap] = {}
    try:
        tids = sorted(int(t) for t in os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return res
    for tid in tids:
        b = f"/proc/{pid}/task/{tid}"
        stat = rd(f"{b}/stat")
        state = stat.rsplit(")", 1)[1].split()[0] if ")" in stat else "?"
        res[tid] = {
            "comm": rd(f"{b}/comm").strip(),
            "state": state,
            "wchan": rd(f"{b}/wchan").strip(),
            "syscall": rd(f"{b}/syscall").strip(),
            "schedstat": rd(f"{b}/schedstat").strip(),
            "ctxt": ctxt(f"{b}/status"),
        }
    return res


def fd_info(pid: int, threads: Mapping[int, ThreadSnap]) -> tuple[dict[str, str], dict[str, str]]:
    fds: dict[str, str] = {}
    for t in threads.values():
        parts = t["syscall"].split()
        if parts and parts[0].isdigit() and int(parts[0]) in FD_SYSCALLS and len(parts) > 1:
            fd = int(parts[1], 16)
            fds[str(fd)] = (
                os.readlink(f"/proc/{pid}/fd/{fd}") if os.path.exists(f"/proc/{pid}/fd/{fd}") else "?"
            )
    for tid, t in threads.items():
        parts = t["syscall"].split()
        if parts and parts[0] in ("7", "219") and len(parts) > 2 and int(parts[2], 16) < 64:
            try:
                with open(f"/proc/{pid}/mem", "rb") as mem:
                    mem.seek(int(parts[1], 16))
                    raw = mem.read(8 * int(parts[2], 16))
                for i in range(len(raw) // 8):
                    fd, ev, _rev = struct.unpack("ihh", raw[8 * i : 8 * i + 8])
                    try:
                        link = os.readlink(f"/proc/{pid}/fd/{fd}")
                    except OSError:
                        link = "?"
                    fds[f"poll[{tid}]:{fd}"] = f"{link} events=0x{ev & 0xFFFF:x}"
            except (OSError, ValueError) as e:
                fds[f"poll[{tid}]"] = f"<{e}>"
    for key, link in list(fds.items()):
        if link == "anon_inode:[eventpoll]":
            tf = re.findall(r"tfd:\s+(\d+)", rd(f"/proc/{pid}/fdinfo/{key}"))
            fds[key] = (
                link
                + " tfds="
                + ",".join(
                    f"{x}->{os.readlink(f'/proc/{pid}/fd/{x}') if os.path.exists(f'/proc/{pid}/fd/{x}') else '?'}"
                    for x in tf
                )
            )
    all_fds: dict[str, str] = {}
    try:
        for name in os.listdir(f"/proc/{pid}/fd"):
            with contextlib.suppress(OSError):
                all_fds[name] = os.readlink(f"/proc/{pid}/fd/{name}")
    except OSError:
        pass
    return fds, all_fds


def run_tool(cmd: list[str], timeout: float = 90) -> ToolResult:
    t0 = time.monotonic()
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
        return {
            "rc": r.returncode,
            "out": r.stdout,
            "err": r.stderr[-3000:],
            "secs": round(time.monotonic() - t0, 2),
        }
    except subprocess.TimeoutExpired as e:
        return {
            "rc": "timeout",
            "out": (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or ""),
            "err": "",
            "secs": timeout,
        }


def sample(pid: int, n: int = 40, dt: float = 0.025) -> dict[int, dict[str, int]]:
    out: dict[int, dict[str, int]] = {}
    for _ in range(n):
        for tid in os.listdir(f"/proc/{pid}/task") if os.path.isdir(f"/proc/{pid}/task") else []:
            b = f"/proc/{pid}/task/{tid}"
            st = rd(f"{b}/stat")
            state = st.rsplit(")", 1)[1].split()[0] if ")" in st else "?"
            sc = rd(f"{b}/syscall").split()
            if not sc or sc[0] == "running":
                key = f"{state}:running"
            elif sc[0] == "202":
                key = f"{state}:futex/{'T' if int(sc[4], 16) else 'NULL'}"
            else:
                key = f"{state}:{sc[0]}"
            out.setdefault(int(tid), {}).setdefault(key, 0)
            out[int(tid)][key] += 1
        time.sleep(dt)
    return out


def collect_proc(pid: int) -> ProcFacts:
    L0 = snap_threads(pid)
    s0 = snap_threads(pid)
    time.sleep(0.5)
    s1 = snap_threads(pid)
    samples = sample(pid)
    time.sleep(max(0.0, 2.5 - 0.5 - 1.0))
    L1 = snap_threads(pid)
    threads: dict[int, ThreadFacts] = {}
    for tid, a in s1.items():
        b0 = s0.get(tid)
        d = cast(ThreadFacts, dict(a))  # a copy of the snapshot, extended below
        if b0:
            d["cpu_ns_delta"] = int(a["schedstat"].split()[0]) - int(b0["schedstat"].split()[0])
            d["vol_delta"] = a["ctxt"][0] - b0["ctxt"][0]
            d["nonvol_delta"] = a["ctxt"][1] - b0["ctxt"][1]
            d["syscall_t0"] = b0["syscall"]
        l0, l1 = L0.get(tid), L1.get(tid)
        if l0 and l1:
            d["long_cpu_ns"] = int(l1["schedstat"].split()[0]) - int(l0["schedstat"].split()[0])
            d["long_vol"] = l1["ctxt"][0] - l0["ctxt"][0]
            d["long_nonvol"] = l1["ctxt"][1] - l0["ctxt"][1]
        d["samples"] = samples.get(tid, {})
        threads[tid] = d
    fds, all_fds = fd_info(pid, threads)
    return {
        "pid": pid,
        "cmdline": rd(f"/proc/{pid}/cmdline").replace("\0", " ").strip(),
        "threads": threads,
        "blocked_fds": fds,
        "all_fds": all_fds,
    }


def run_one(name: str, out: str) -> None:
    if True:
        path = os.path.join(CORPUS, name)
        p = subprocess.Popen(
            [sys.executable, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True
        )
        # both are pipes (PIPE, unbuffered=False), so stderr is a BufferedReader with read1()
        assert p.stdout is not None
        assert isinstance(p.stderr, io.BufferedReader)
        sel = selectors.DefaultSelector()
        sel.register(p.stdout, selectors.EVENT_READ)
        lines: list[str] = []
        buf, deadline = b"", time.monotonic() + 60
        ok = False
        while time.monotonic() < deadline and not ok:
            if sel.select(timeout=1):
                chunk = os.read(p.stdout.fileno(), 4096)
                if not chunk:
                    break
                buf += chunk
                while b"\n" in buf:
                    ln, buf = buf.split(b"\n", 1)
                    lines.append(ln.decode())
                    if ln == b"ready":
                        ok = True
        time.monotonic()
        data: RunFacts = {"name": name, "ready": ok, "stdout": lines, "procs": []}
        if ok:
            time.sleep(1.0)  # let things settle (ready is printed just before the final call)
            pids = children_of(p.pid)
            for pid in pids:
                info = collect_proc(pid)
                info["pyspy"] = run_tool(["py-spy", "dump", "--json", "--native", "--pid", str(pid)])
                info["gdb"] = run_tool(
                    [
                        "gdb",
                        "-p",
                        str(pid),
                        "-batch",
                        "-nx",
                        "-q",
                        "-ex",
                        "set pagination off",
                        "-ex",
                        "thread apply all bt",
                    ]
                )
                info["pystack"] = run_tool(["pystack", "remote", str(pid), "--native-all"])
                info["eustack"] = run_tool(["eu-stack", "-p", str(pid)])
                data["procs"].append(info)
            # post-tool resnapshot of syscalls (tools must not have disturbed state)
            data["after_tools"] = {
                pid: {tid: t["syscall"] for tid, t in snap_threads(pid).items()} for pid in pids
            }
            # pipe-inode ownership across the whole system for pipes/sockets in blocked fds
            owners: dict[str, list[Holder]] = {}
            for pr in data["procs"]:
                for link in pr["blocked_fds"].values():
                    if link.startswith(("pipe:", "socket:")):
                        owners[link.split()[0]] = []
            if owners:
                for d in os.listdir("/proc"):
                    if not d.isdigit():
                        continue
                    try:
                        for fd in os.listdir(f"/proc/{d}/fd"):
                            try:
                                lk = os.readlink(f"/proc/{d}/fd/{fd}")
                            except OSError:
                                continue
                            if lk in owners:
                                fl = rd(f"/proc/{d}/fdinfo/{fd}")
                                m = re.search(r"flags:\s+(\d+)", fl)
                                owners[lk].append(
                                    {"pid": int(d), "fd": int(fd), "flags": m.group(1) if m else "?"}
                                )
                    except OSError:
                        pass
            data["owners"] = owners
        else:
            data["stderr"] = p.stderr.read1(10000).decode() if p.poll() is not None else ""
        # kill process group, verify gone
        with contextlib.suppress(ProcessLookupError):
            os.killpg(p.pid, signal.SIGKILL)
        p.wait(timeout=10)
        if not ok:
            data["stderr"] = p.stderr.read().decode()[-3000:]
        time.sleep(0.5)
        survivors: list[int] = []
        for pr in data["procs"]:
            if (
                os.path.exists(f"/proc/{pr['pid']}")
                and "Z" not in rd(f"/proc/{pr['pid']}/stat").rsplit(")", 1)[-1].split()[:1]
            ):
                survivors.append(pr["pid"])
        data["survivors"] = survivors
        with open(os.path.join(out, name.replace(".py", ".json")), "w") as fh:
            json.dump(data, fh, indent=1)
        print(
            name,
            "ready" if ok else "NOT READY",
            "pids",
            [pr["pid"] for pr in data["procs"]],
            "survivors",
            survivors,
            flush=True,
            file=sys.stderr,
        )


ORDER = [
    "idle_pool_sleep",
    "read_pipe",
    "accept",
    "idle_procpool",
    "numpy_busy",
    "lock_inversion",
    "lost_wakeup",
    "mp_join_before_get",
    "polars_idle",
    "polars_fork",
    "timed_wait_loop",
    "gil_contention",
]
LIBC_PAT = re.compile(r"(\./nptl/|\.\./sysdeps/|libc\.so|\./misc/|\./stdlib/)")
SYSNAME = {
    "0": "read",
    "1": "write",
    "7": "poll",
    "61": "wait4",
    "202": "futex",
    "219": "restart_syscall",
    "230": "clock_nanosleep",
    "232": "epoll_wait",
    "288": "accept4",
}


def clean(name: str, n: int = 70) -> str:
    name = re.sub(r"\[[0-9a-f]{16}\]", "", name)
    name = re.sub(r"_RN\w+", lambda m: m.group(0), name)
    return name if len(name) <= n else name[: n - 1] + "…"


def gdb_threads(out: str) -> list[tuple[str, str, str, list[str]]]:
    res: list[tuple[str, str, str, list[str]]] = []
    for blk in out.split("\nThread ")[1:]:
        lines = blk.splitlines()
        m = re.match(r"\d+ \(Thread 0x[0-9a-f]+ \(LWP (\d+)\) \"([^\"]*)\"\)", lines[0])
        lwp, comm = (m.group(1), m.group(2)) if m else ("?", "?")
        frames: list[tuple[str, bool]] = []
        for ln in lines[1:]:
            fm = re.match(r"#\d+\s+(?:0x[0-9a-f]+ in )?(.+?) \((.*)", ln)
            if fm:
                frames.append((fm.group(1), bool(LIBC_PAT.search(ln))))
        leaf = frames[0][0] if frames else "?"
        rest = [
            f
            for f, libc in frames
            if not libc
            and not f.startswith(
                ("_PyEval_", "_PyObject_", "PyObject_Vectorcall", "method_vectorcall", "cfunction_")
            )
        ]
        res.append((lwp, comm, leaf, rest[:4]))
    return res


def pystack_threads(out: str) -> list[tuple[str, str, list[str], str, str]]:
    res: list[tuple[str, str, list[str], str, str]] = []
    for blk in out.split("Traceback for thread ")[1:]:
        head = blk.splitlines()[0]
        m = re.match(r"(\d+) \((.*?)\)", head)
        py = re.findall(r"\(Python\) File \"([^\"]+)\", line (\d+), in (\S+)", blk)
        c = re.findall(r"\(C\) File \"[^\"]*\", line \d+, in (\S+)", blk)
        res.append(
            (
                m.group(1) if m else "?",
                m.group(2) if m else "?",
                [f"{p[2]}@{p[0].split('/')[-1]}:{p[1]}" for p in py[-2:]],
                c[-1] if c else "-",
                "[" + head.split("[", 1)[1].split("]")[0] + "]" if "[" in head else "",
            )
        )
    return res


def fmt_sys(sc: str) -> str:
    p = sc.split()
    if not p or p[0] == "running":
        return "`running`"
    nm = SYSNAME.get(p[0], p[0])
    extra = ""
    if p[0] == "202":
        extra = f" op={p[2]} **timeout={'NULL' if int(p[4], 16) == 0 else 'set'}**"
    return f"`{sc}` ({nm}{extra})"


def render(name: str, out: str) -> str:
    with open(os.path.join(out, f"{name}.json")) as fh:
        d: Any = json.load(fh)  # the raw JSON written by run_one (its int keys are strings now)
    o: list[str] = []
    o.append(f"### {name}.py")
    o.append(
        f"stdout: `{' / '.join(d['stdout'])}`; ready={d['ready']}; survivors after kill: {d['survivors'] or 'none'}"
    )
    for pr in d["procs"]:
        pid = pr["pid"]
        o.append("")
        o.append(f"**pid {pid}** `{pr['cmdline'][:110]}`")
        o.append("")
        o.append(
            "| tid | =pid | comm | st | wchan | /proc syscall | cpu ms 0.5s | vol/nonvol 0.5s | 2.5s cpu ms, vol/nonvol | 40 samples/1s |"
        )
        o.append("|---|---|---|---|---|---|---|---|---|---|")
        for tid, t in pr["threads"].items():
            smp = ", ".join(f"{k} x{v}" for k, v in t.get("samples", {}).items())
            o.append(
                f"| {tid} | {'Y' if int(tid) == pid else 'n'} | {t['comm']} | {t['state']} | {t['wchan']} | {fmt_sys(t['syscall'])} | "
                f"{t.get('cpu_ns_delta', 0) / 1e6:.1f} | {t.get('vol_delta')}/{t.get('nonvol_delta')} | "
                f"{t.get('long_cpu_ns', 0) / 1e6:.0f}, {t.get('long_vol')}/{t.get('long_nonvol')} | {smp} |"
            )
        if pr["blocked_fds"]:
            o.append("")
            o.append(
                "fds named by blocked syscalls: "
                + "; ".join(f"fd {k} → `{v}`" for k, v in pr["blocked_fds"].items())
            )
        after = d.get("after_tools", {}).get(str(pid), {})
        changed = [
            f"{tid}: `{v}`"
            for tid, v in after.items()
            if tid in pr["threads"] and v.split()[0] != pr["threads"][tid]["syscall"].split()[0]
        ]
        if changed:
            o.append("")
            o.append("syscall nr changed after py-spy/gdb/pystack attached: " + "; ".join(changed))
        # py-spy
        ps = pr["pyspy"]
        o.append("")
        if ps["rc"] == 0:
            try:
                ths = json.loads(ps["out"])
            except ValueError:
                ths = []
            o.append(f"py-spy dump --native ({ps['secs']} s), {len(ths)} thread(s) listed:")
            for t in ths:
                fr = [clean(f["name"], 60) for f in t["frames"]][:3]
                o.append(
                    f"- os_tid {t['os_thread_id']} (thread_id {t['thread_id']}) name={t.get('thread_name')} owns_gil={t['owns_gil']} active={t['active']}: {' ← '.join(fr)}"
                )
        else:
            o.append(f"py-spy rc={ps['rc']}: {ps['err'][:200]}")
        # gdb
        g = pr["gdb"]
        groups: dict[tuple[str, str, str], list[str]] = {}
        for lwp, comm, leaf, rest in gdb_threads(g["out"]):
            key = (comm, clean(leaf, 50), " ← ".join(clean(x) for x in rest))
            groups.setdefault(key, []).append(lwp)
        o.append(
            f"gdb thread apply all bt (rc={g['rc']}, {g['secs']} s), leaf | next 4 non-libc, non-eval frames:"
        )
        for (comm, leaf, chain), lwps in groups.items():
            o.append(f'- LWP {",".join(lwps)} "{comm}": `{leaf}` | {chain}')
        p = pr["pystack"]
        if p["rc"] == 0:
            grp: dict[tuple[str, str, str, str], list[str]] = {}
            for tid, tn, py, cleaf, flags in pystack_threads(p["out"]):
                grp.setdefault(
                    (tn, " ← ".join(reversed(py)) or "(no Python frames)", clean(cleaf, 50), flags), []
                ).append(tid)
            o.append(f"pystack remote --native-all ({p['secs']} s), innermost Python frames | native leaf:")
            for (tn, pyframes, cl, flags), tids in grp.items():
                o.append(f"- {','.join(tids)} ({tn}) {flags}: {pyframes} | `{cl}`")
        else:
            o.append(f"pystack rc={p['rc']}: {p['err'][:200]}")
    if d.get("owners"):
        o.append("")
        o.append(
            "holders of the pipe/socket inodes (all processes): "
            + "; ".join(
                f"`{k}`: "
                + ", ".join(
                    f"pid {x['pid']} fd {x['fd']} flags {x['flags']} ({'W' if int(x['flags'], 8) & 3 == 1 else 'R' if int(x['flags'], 8) & 3 == 0 else 'RW'})"
                    for x in v
                )
                for k, v in d["owners"].items()
            )
        )
    return "\n".join(o)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=None, help="directory for the raw JSON (default: a new temp dir)")
    ap.add_argument("names", nargs="*", help="corpus programs (default: all, in FACTS.md order)")
    args = ap.parse_args()
    out = args.out or tempfile.mkdtemp(prefix="corpus-facts-")
    os.makedirs(out, exist_ok=True)
    names = [n.removesuffix(".py") for n in args.names] or ORDER
    for n in names:
        run_one(n + ".py", out)
    print("\n\n".join(render(n, out) for n in names))
    print(f"raw JSON in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
