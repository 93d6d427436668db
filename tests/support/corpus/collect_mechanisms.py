"""Facts for the four mechanisms of issue 36 (a dead lock holder, a respawn loop, a dropped
queue item, a lost wake-up in an event loop): regenerate the per-program part of that section
of FACTS.md (not a test; run by hand as root).

Usage: python tests/support/corpus/collect_mechanisms.py [--out DIR | --render DIR] [NAME ...] > part.md

NAME is a corpus program or a catalogue trigger (controls/bugs), optionally `NAME:ARG`. Each is
started in its own session; once it prints `ready` the process to look at is its `look PID`
(a trigger) or itself (a corpus program), with its descendants. Read, in this order, so that no
tool has attached yet: per thread state, wchan, the syscall decoded (a futex's op split into
command / private / clock and its timeout; the mapping its address falls in; an fd's target
and, for a pipe, the bytes queued in it, FIONREAD on a pidfd_getfd duplicate; an epoll set's
descriptors), CPU over 0.5 s; every POSIX semaphore a thread waits on (glibc's sem_t read from
/proc/PID/mem: value and waiter count) and every process mapping it; the tree's children over 3
s (pids born and gone, lifetimes, exit codes of zombies seen); then py-spy (json, --native,
--locals) and pystack (--native-all, --locals), and /proc again. Then SIGKILL the group,
multiprocessing's resource trackers last. Raw results go to DIR/NAME.json.
"""

# ruff: noqa: T201

from __future__ import annotations

import argparse
import contextlib
import ctypes
import fcntl
import json
import os
import re
import selectors
import signal
import struct
import subprocess
import sys
import tempfile
import termios
import time
from typing import Any

from collect_facts import clean, pystack_threads, rd, run_tool, snap_threads

CORPUS = os.path.dirname(os.path.abspath(__file__))
BUGS = os.path.join(CORPUS, "..", "..", "..", "src", "gvlstress", "controls", "bugs")
FUTEX_CMDS = {0: "WAIT", 1: "WAKE", 9: "WAIT_BITSET", 128: "?"}
SYS = {"0": "read", "1": "write", "7": "poll", "61": "wait4", "202": "futex", "219": "restart_syscall"}
SYS |= {"230": "clock_nanosleep", "232": "epoll_wait", "281": "epoll_pwait", "288": "accept4"}
SYS |= {"45": "recvfrom", "23": "select", "270": "pselect6", "271": "ppoll"}
_libc = ctypes.CDLL(None, use_errno=True)
ORDER = [
    "pool_lock_kill",
    "queue_consumer_terminated",
    "mp_lock_live_holder",
    "pool_alike:between:pool",
    "pool_init_fail",
    "pool_no_main_guard",
    "pool_recycle",
    "queue_unpicklable",
    "queue_empty_producer",
    "asyncio_waitfor_cancel",
    "asyncio_condition_notify",
    "loop_sleep",
    "loop_slow_peer",
]


def path_of(name: str) -> str:
    for where in (CORPUS, BUGS):
        p = os.path.join(where, f"{name}.py")
        if os.path.exists(p):
            return os.path.normpath(p)
    raise SystemExit(f"no program {name}")


def children(pid: int) -> list[int]:
    out: set[int] = set()
    with contextlib.suppress(OSError):
        for tid in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError):
                out.update(int(k) for k in rd(f"/proc/{pid}/task/{tid}/children").split())
    return sorted(out)


def tree(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        p = todo.pop(0)
        out.append(p)
        todo.extend(children(p))
    return out


def stat(pid: int) -> list[str]:
    s = rd(f"/proc/{pid}/stat")
    return s.rsplit(")", 1)[1].split() if ")" in s else []


def maps(pid: int) -> list[tuple[int, int, int, str]]:
    """(start, end, file offset, path) of each mapping with a path."""
    out = []
    for line in rd(f"/proc/{pid}/maps").splitlines():
        parts = line.split(None, 5)
        if len(parts) == 6:
            a, b = (int(x, 16) for x in parts[0].split("-"))
            out.append((a, b, int(parts[2], 16), parts[5]))
    return out


def mapping_of(pid: int, addr: int) -> str:
    for a, b, off, path in maps(pid):
        if a <= addr < b:
            return f"{path}+0x{addr - a + off:x}"
    return "anonymous (heap/stack/private)"


def read_mem(pid: int, addr: int, n: int) -> bytes | None:
    try:
        with open(f"/proc/{pid}/mem", "rb") as fh:
            fh.seek(addr)
            return fh.read(n)
    except (OSError, ValueError, OverflowError):
        return None


def pidfd_fionread(pid: int, fd: int) -> int | None:
    try:
        pidfd = os.pidfd_open(pid)
    except OSError:
        return None
    try:
        dup = int(_libc.syscall(438, pidfd, fd, 0))
        if dup < 0:
            return None
        try:
            return int(struct.unpack("i", fcntl.ioctl(dup, termios.FIONREAD, b"\0\0\0\0"))[0])
        except OSError:
            return None
        finally:
            os.close(dup)
    finally:
        os.close(pidfd)


def fd_desc(pid: int, fd: int) -> str:
    try:
        link = os.readlink(f"/proc/{pid}/fd/{fd}")
    except OSError:
        return f"fd {fd} ?"
    extra = ""
    if link.startswith("pipe:"):
        extra = f" queued={pidfd_fionread(pid, fd)}B"
    if link == "anon_inode:[eventpoll]":
        tfds = re.findall(r"tfd:\s+(\d+)", rd(f"/proc/{pid}/fdinfo/{fd}"))
        inner = []
        for t in tfds:
            try:
                inner.append(f"{t}->{os.readlink(f'/proc/{pid}/fd/{t}')}")
            except OSError:
                inner.append(f"{t}->?")
        extra = " watching [" + ", ".join(inner) + "]"
    return f"fd {fd} {link}{extra}"


def decode(pid: int, sc: str) -> dict[str, Any]:
    """The syscall line, decoded for a rule-writer."""
    p = sc.split()
    if not p or p[0] == "running":
        return {"call": "running"}
    nr, args = p[0], [int(x, 16) for x in p[1:7]]
    out: dict[str, Any] = {"call": SYS.get(nr, nr)}
    if nr in ("202", "219") and args[1] in (0x189, 0x109, 0x89, 0x9, 0x80, 0x0, 0x181, 0x101):
        op = args[1]
        out |= {
            "futex": f"0x{args[0]:x}",
            "op": f"0x{op:x} {FUTEX_CMDS.get(op & 0x7F, op & 0x7F)}"
            + (" PRIVATE" if op & 128 else " SHARED")
            + (" CLOCK_REALTIME" if op & 256 else ""),
            "timeout": "NULL" if args[3] == 0 else "set",
            "where": mapping_of(pid, args[0]),
        }
    elif nr in ("0", "1", "45", "288"):
        out["fd"] = fd_desc(pid, args[0])
    elif nr in ("232", "281"):
        out |= {"epoll": fd_desc(pid, args[0]), "timeout_ms": ctypes.c_int(args[3] & 0xFFFFFFFF).value}
    elif nr == "7":
        out["poll_timeout_ms"] = ctypes.c_int(args[2] & 0xFFFFFFFF).value
        raw = read_mem(pid, args[0], 8 * min(args[1], 16)) or b""
        out["pollfds"] = [
            fd_desc(pid, struct.unpack("ihh", raw[i : i + 8])[0]) for i in range(0, len(raw), 8)
        ]
    elif nr == "61":
        out["waits_for"] = ctypes.c_int(args[0] & 0xFFFFFFFF).value
    return out


def semaphores(pids: list[int], threads: dict[int, dict[int, Any]]) -> list[dict[str, Any]]:
    """Every /dev/shm semaphore a thread of the tree waits on: glibc's sem_t (64-bit: value in
    the low 32 bits of its first word, waiters in the high 32), and who maps it."""
    sems: dict[str, dict[str, Any]] = {}
    for pid, ths in threads.items():
        for tid, t in ths.items():
            where = t["decoded"].get("where", "")
            if "/dev/shm/" not in where:
                continue
            path = where.split("+0x")[0]
            uaddr = int(t["decoded"]["futex"], 16)
            s = sems.setdefault(path, {"path": path, "waiters": [], "mapped_by": []})
            s["waiters"].append(f"{pid}/{tid}")
            if "value" not in s:
                raw = read_mem(pid, uaddr, 16)
                if raw:
                    data, private = struct.unpack("QI", raw[:12])
                    s |= {"value": data & 0xFFFFFFFF, "nwaiters": data >> 32, "private": private}
    everyone = [int(d) for d in os.listdir("/proc") if d.isdigit()]
    for s in sems.values():
        pid0 = int(s["waiters"][0].split("/")[0])
        inode = inode_of(pid0, s["path"])
        s["inode"] = inode
        for pid in everyone:
            paths = [
                line.split(None, 5)[-1]
                for line in rd(f"/proc/{pid}/maps").splitlines()
                if f" {inode} " in line
            ]
            if any("/dev/shm/" in x for x in paths):
                s["mapped_by"].append(f"{pid} as {paths[0]}")
        s["in_tree"] = [m for m in s["mapped_by"] if int(m.split()[0]) in pids]
    return list(sems.values())


def inode_of(pid: int, path: str) -> str:
    """The inode column of `pid`'s mapping of `path` (glibc's sem_open maps a temporary
    sem.XXXXXX it then renames: processes that created a semaphore map it under another name
    than those that opened it by name, so the inode is the key)."""
    for line in rd(f"/proc/{pid}/maps").splitlines():
        parts = line.split(None, 5)
        if len(parts) == 6 and parts[5] == path:
            return parts[4]
    return "?"


def churn(root: int, seconds: float = 3.0, dt: float = 0.02) -> dict[str, Any]:
    """Children of `root` sampled every `dt` s: who was born, who went, how long they lived."""
    first: dict[int, float] = {}
    last: dict[int, float] = {}
    codes: dict[int, str] = {}
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        now = time.monotonic() - t0
        for k in children(root):
            st = stat(k)
            first.setdefault(k, now)
            last[k] = now
            if st and st[0] == "Z" and len(st) >= 50:
                codes[k] = st[-1]  # exit_code: the wait status, (code << 8) | signal
        time.sleep(dt)  # the sampling interval
    span = time.monotonic() - t0
    gone = [k for k in first if last[k] < span - 2 * dt]
    born = [k for k in first if first[k] > 2 * dt]
    lives = [last[k] - first[k] for k in gone if k in born]
    return {
        "seconds": round(span, 2),
        "seen": len(first),
        "born": len(born),
        "gone": len(gone),
        "median_life_s": round(sorted(lives)[len(lives) // 2], 3) if lives else None,
        "zombie_exit_status": sorted(set(codes.values())),
    }


def pipes(pids: list[int]) -> dict[str, dict[str, Any]]:
    """Every pipe of the tree: who holds which end, bytes queued."""
    out: dict[str, dict[str, Any]] = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                try:
                    link = os.readlink(f"/proc/{pid}/fd/{fd}")
                except OSError:
                    continue
                if not link.startswith("pipe:"):
                    continue
                flags = re.search(r"flags:\s+(\d+)", rd(f"/proc/{pid}/fdinfo/{fd}"))
                mode = "W" if flags and int(flags.group(1), 8) & 3 == 1 else "R"
                e = out.setdefault(link, {"R": [], "W": [], "queued": None})
                e[mode].append(f"{pid}:{fd}")
                if mode == "R" and e["queued"] is None:
                    e["queued"] = pidfd_fionread(pid, int(fd))
    return out


def look_at(pid: int) -> dict[str, Any]:
    ths: dict[int, Any] = {}
    s0 = snap_threads(pid)
    for tid, t in s0.items():
        ths[tid] = {**t, "decoded": decode(pid, t["syscall"])}
    time.sleep(0.5)
    s1 = snap_threads(pid)
    for tid, t in ths.items():
        if tid in s1:
            t["cpu_ms_0_5s"] = round(
                (int(s1[tid]["schedstat"].split()[0]) - int(t["schedstat"].split()[0])) / 1e6, 1
            )
            t["vol_nonvol_0_5s"] = (s1[tid]["ctxt"][0] - t["ctxt"][0], s1[tid]["ctxt"][1] - t["ctxt"][1])
    st = stat(pid)
    return {
        "pid": pid,
        "ppid": int(st[1]) if st else None,
        "start_ticks": int(st[19]) if len(st) > 19 else None,
        "cmdline": rd(f"/proc/{pid}/cmdline").replace("\0", " ").strip()[:160],
        "threads": ths,
    }


def tools(pid: int) -> dict[str, Any]:
    return {
        "pyspy_json": run_tool(["py-spy", "dump", "--json", "--pid", str(pid)], timeout=60),
        "pyspy_native": run_tool(["py-spy", "dump", "--native", "--pid", str(pid)], timeout=60),
        "pyspy_locals": run_tool(["py-spy", "dump", "--locals", "--pid", str(pid)], timeout=60),
        "pystack": run_tool(["pystack", "remote", str(pid), "--native-all"], timeout=60),
        "pystack_locals": run_tool(["pystack", "remote", str(pid), "--locals"], timeout=60),
    }


def group(pgid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        st = stat(int(d)) if d.isdigit() else []
        if len(st) > 2 and int(st[2]) == pgid and st[0] not in ("Z", "X"):
            out.append(int(d))
    return out


def end(pgid: int) -> list[int]:
    members = group(pgid)
    trackers = [k for k in members if "resource_tracker" in rd(f"/proc/{k}/cmdline")]
    for k in members:
        if k not in trackers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(k, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while any(k in group(pgid) for k in trackers) and time.monotonic() < deadline:
        time.sleep(0.05)  # the trackers unlinking what the program leaked, then exiting
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pgid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while group(pgid) and time.monotonic() < deadline:
        time.sleep(0.05)  # init reaping the group
    return group(pgid)


def run(spec: str, out: str) -> dict[str, Any]:
    name, *args = spec.split(":")
    p = subprocess.Popen(
        [sys.executable, path_of(name), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    assert p.stdout is not None
    lines: list[str] = []
    buf = b""
    with selectors.DefaultSelector() as sel:
        sel.register(p.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + 90
        while "ready" not in lines and time.monotonic() < deadline:
            if not sel.select(timeout=1):
                continue
            chunk = os.read(p.stdout.fileno(), 4096)
            if not chunk:
                break
            *done, buf = (buf + chunk).split(b"\n")
            lines += [x.decode(errors="replace") for x in done]
    data: dict[str, Any] = {"name": spec, "stdout": lines, "ready": "ready" in lines}
    if data["ready"]:
        root = next((int(x.split()[1]) for x in lines if x.startswith("look ")), p.pid)
        pids = tree(root)
        procs = {pid: look_at(pid) for pid in pids}
        data["procs"] = procs
        data["semaphores"] = semaphores(pids, {pid: pr["threads"] for pid, pr in procs.items()})
        data["pipes"] = pipes(pids)
        data["churn"] = churn(root)
        later = tree(root)
        for pid in later:
            if pid in procs and stat(pid) and stat(pid)[0] not in ("Z", "X"):
                procs[pid]["tools"] = tools(pid)
        data["after_tools"] = {
            pid: {tid: t["syscall"].split()[0] for tid, t in snap_threads(pid).items()} for pid in later
        }
    data["left"] = end(p.pid)
    with contextlib.suppress(subprocess.TimeoutExpired):
        p.wait(timeout=10)
    with open(os.path.join(out, spec.replace(":", "_") + ".json"), "w") as fh:
        json.dump(data, fh, indent=1, default=str)
    return data


def pyspy_lines(res: dict[str, Any]) -> list[str]:
    try:
        threads = json.loads(res["out"])
    except (ValueError, KeyError):
        return [f"py-spy rc={res.get('rc')}: {str(res.get('err', ''))[:160]}"]
    out = []
    for t in threads:
        frames = " ← ".join(
            f"{f['name']}@{f['filename'].split('/')[-1]}:{f['line']}" for f in t["frames"][:4]
        )
        out.append(f"  - {t['os_thread_id']} {t.get('thread_name')} gil={t['owns_gil']}: {frames}")
    return out


def render(d: dict[str, Any]) -> str:
    o = [
        f"#### {d['name']}",
        f"stdout: `{' / '.join(d['stdout'])}`; left after the kill: {d['left'] or 'none'}",
    ]
    if not d["ready"]:
        return "\n".join([*o, "NOT READY"])
    gone = [pid for pid, pr in d["procs"].items() if pr["ppid"] is None]
    if gone:
        o.append(f"children gone between the listing and the look: {len(gone)}")
    for pid, pr in d["procs"].items():
        if pid in gone:
            continue
        o += [
            "",
            f"**pid {pid}** (ppid {pr['ppid']}, start {pr['start_ticks']} ticks) `{pr['cmdline'][-90:]}`",
        ]
        for tid, t in pr["threads"].items():
            dec = {k: v for k, v in t["decoded"].items() if k != "call"}
            o.append(
                f"- {tid}{'=pid' if int(tid) == int(pid) else ''} `{t['comm']}` {t['state']} "
                f"wchan `{t['wchan']}` **{t['decoded']['call']}** {json.dumps(dec) if dec else ''} "
                f"cpu {t.get('cpu_ms_0_5s')} ms/0.5 s, switches {t.get('vol_nonvol_0_5s')}"
            )
        tl = pr.get("tools")
        if not tl:
            o.append("- (gone before the tools ran)")
            continue
        o.append(f"- py-spy dump --json ({tl['pyspy_json']['secs']} s):")
        o += pyspy_lines(tl["pyspy_json"])
        ps = tl["pystack"]
        if ps["rc"] == 0:
            o.append(f"- pystack remote --native-all ({ps['secs']} s): innermost Python frames | native leaf")
            for tid, _tn, py, leaf, flags in pystack_threads(ps["out"]):
                o.append(
                    f"  - {tid} {flags} {' ← '.join(reversed(py)) or '(no Python frames)'} | `{clean(leaf, 50)}`"
                )
        else:
            o.append(f"- pystack rc={ps['rc']}: {ps['err'][:200]}")
    if d["semaphores"]:
        o += ["", "semaphores waited on: " + json.dumps(d["semaphores"])]
    queued = {k: v for k, v in d["pipes"].items()}
    o += ["", "pipes of the tree (R/W holders pid:fd, bytes queued): " + json.dumps(queued)]
    o += [f"children of the looked-at process over {d['churn']['seconds']} s: " + json.dumps(d["churn"])]
    changed = [
        f"{pid}/{tid}: {after}"
        for pid, ths in d["after_tools"].items()
        for tid, after in ths.items()
        if pid in d["procs"]
        and tid in d["procs"][pid]["threads"]
        and after != d["procs"][pid]["threads"][tid]["syscall"].split()[0]
    ]
    if changed:
        o.append("syscall changed after the tools attached: " + "; ".join(changed))
    return "\n".join(o)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--out", default=None)
    ap.add_argument("--render", default=None, help="only render the raw JSON of an earlier --out DIR")
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    if args.render:
        for spec in args.names or ORDER:
            with open(os.path.join(args.render, spec.replace(":", "_") + ".json")) as fh:
                print(render(json.load(fh)), "\n")
        return
    out = args.out or tempfile.mkdtemp(prefix="mechanism-facts-")
    os.makedirs(out, exist_ok=True)
    for spec in args.names or ORDER:
        d = run(spec, out)
        print(render(d), "\n", flush=True)
        print(f"{spec}: ready={d['ready']} left={d['left']}", file=sys.stderr, flush=True)
    print(f"raw JSON in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
