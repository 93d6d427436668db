"""The standalone reproducer a shrink writes: one Python file that imports the standard library
and the user's loader only (formatting only: the setting, the recipe, the timeout and the
launches were worked out before). Its scenario TOML and run line are `reporters.shrunk`'s.

Every value the file holds that gvlstress did not write itself (a path, an option, a variable)
is quoted by `repr`, or escaped into its docstring, never pasted into code: a run directory
whose name closes a docstring and calls ``os.system`` is text in the file, not a statement.

The file is a spawn ``ProcessPoolExecutor`` loop: each launch starts fresh workers, each sets
the thread variables that matter before it imports the loader and takes its batches; a launch
not done within the timeout is a hang. Its workers are killed (with whatever they started) by
pid, read from /proc, and the program ends with ``os._exit`` so a wedged executor's thread
cannot keep it alive. It prints each launch and how often it hung, and exits 1 on a hang.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Mapping
from typing import Any

from gvlstress import __version__
from gvlstress.model.shrink import Reproduction

_DOC = """A hang, reproduced without gvlstress: {what}.

Written by `gvlstress shrink` ({version}) from {source}.
It imports the standard library and {modules} only. Each launch starts {workers} fresh
`{start}` worker process(es) in a ProcessPoolExecutor; each worker sets {env} before it
imports the loader, then takes {batches}. A launch not done within TIMEOUT_S is a hang.
{measured}{carried}
Run:  python3 {name} [--launches N] [--timeout SECONDS] [--json PATH]
Exit: 1 a launch hung; 0 none did; 3 a launch failed otherwise (the loader raised, a worker
died); 2 bad arguments; 4 this script failed (its traceback is printed). Workers left
hanging are killed by pid before it exits.
"""
"""The file's docstring, as text: filled in, then written as a literal (`_doc_literal`)."""

_IMPORTS = """
import argparse
import concurrent.futures as cf
import json
import math
import multiprocessing
import os
import random
import signal
import sys
import threading
import time
import traceback
from concurrent.futures.process import BrokenProcessPool

"""

_BODY = '''

def open_loader(seed, slot):
    """The loader, opened as the worker half of the run did (after ENV is set)."""
{imports}
    return {open}


def take(loader):
    """One batch."""
    {next}
{helpers}

def announce(queue):
    queue.put(os.getpid())


def work(slot, seed, kill_at):
    """One worker's share of a launch: its environment first, then the loader, then batches."""
    os.environ.update(ENV)
    if SWITCH_INTERVAL is not None:
        sys.setswitchinterval(SWITCH_INTERVAL)
    if AFFINITY:
        os.sched_setaffinity(0, AFFINITY)
    loader = open_loader(seed, slot)
    end = time.monotonic() + SECONDS if SECONDS else None
    done = 0
    while (end is None and done < BATCHES) or (end is not None and time.monotonic() < end):
        if kill_at == done + 1:  # --kill-worker random: as the OOM killer would, mid-batch
            os.kill(os.getpid(), signal.SIGKILL)
        try:
            take(loader)
        except StopIteration:
            break
        done += 1
    return done, bytes(RESULT_BYTES)


def burn():
    while True:
        pass


def descendants(roots):
    """Every process under `roots` (read from /proc: a loader's own children too)."""
    parents = {{}}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{{entry}}/stat", "rb") as fh:  # bytes: a name may be any bytes
                    stat = fh.read()
            except OSError:
                continue
            parents.setdefault(int(stat[stat.rindex(b")") + 2 :].split()[1]), []).append(int(entry))
    found, todo = set(), list(roots)
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo.extend(parents.get(pid, ()))
    return found


def writing_a_pipe(pid):
    """Is its main thread in write() on a pipe (a result on its way to the parent)?"""
    try:
        with open(f"/proc/{{pid}}/syscall") as fh:
            parts = fh.read().split()
        return parts[0] in ("1", "20") and os.readlink(f"/proc/{{pid}}/fd/{{int(parts[1], 16)}}").startswith("pipe:")
    except (OSError, ValueError, IndexError):
        return False


def kill_sending(pids, stop):
    """--kill-worker sending: SIGKILL the first worker caught writing its result."""
    while not stop.wait(0.0005):
        for pid in list(pids):
            if writing_a_pipe(pid):
                os.kill(pid, signal.SIGKILL)
                return


def drain(queue, pids):
    while not queue.empty():
        pids.append(queue.get())


def launch(n, timeout):
    """One launch: 'ok', 'hung', 'crashed' (a worker died) or 'error: ...' (the loader raised)."""
    ctx = multiprocessing.get_context(START_METHOD)
    if PRELOAD and START_METHOD == "forkserver":
        ctx.set_forkserver_preload(PRELOAD)
    seed = (SEED * 1_000_003 + n * 1009) % 2**63  # as gvlstress seeds its waves
    rng = random.Random(seed)
    kill_slot, kill_batch = rng.randrange(WORKERS), rng.randint(1, max(1, BATCHES))
    queue = ctx.SimpleQueue()  # a worker's pid is in the pipe before its first batch
    burners = [ctx.Process(target=burn, daemon=True) for _ in range(BURNERS)]
    for b in burners:
        b.start()
    pool = cf.ProcessPoolExecutor(WORKERS, mp_context=ctx, initializer=announce, initargs=(queue,))
    pids, stop = [], threading.Event()
    try:
        futures = [
            pool.submit(work, slot, (seed + slot) % 2**63, kill_batch if KILL_WORKER == "random" and slot == kill_slot else None)
            for slot in range(WORKERS)
        ]
        if KILL_WORKER == "sending":
            threading.Thread(target=kill_sending, args=(pids, stop), daemon=True).start()
        end = time.monotonic() + timeout
        done, pending = set(), set(futures)
        while pending and time.monotonic() < end:
            drain(queue, pids)
            done, pending = cf.wait(futures, timeout=0.05)
        if pending:
            return "hung"
        failed = [f.exception() for f in done if f.exception() is not None]
        if any(isinstance(e, BrokenProcessPool) for e in failed):
            return "crashed"
        return f"error: {{failed[0]!r}}"[:300] if failed else "ok"
    finally:
        stop.set()
        drain(queue, pids)
        roots = {{*pids, *(p.pid for p in multiprocessing.active_children())}}
        for pid in descendants(roots):
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        pool.shutdown(wait=False, cancel_futures=True)


def wilson(k, n, z=1.959963984540054):
    if n == 0:
        return 0.0, 1.0
    p, d = k / n, 1 + z * z / n
    c, h = (p + z * z / (2 * n)) / d, z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, default=LAUNCHES)
    parser.add_argument("--timeout", type=float, default=TIMEOUT_S)
    parser.add_argument("--json", metavar="PATH", help="write the tally here as JSON")
    args = parser.parse_args()
    if args.launches < 1 or not args.timeout > 0:
        parser.error("--launches must be >= 1 and --timeout > 0")
    os.environ.update(INHERITED)
    if WARM_PARENT:  # one batch here, so forked workers inherit the loader's started pools
        saved = dict(os.environ)
        os.environ.update(ENV)
        take(open_loader_with(WARM_OPTIONS))
        os.environ.clear()
        os.environ.update(saved)
    started = time.monotonic()
    tally = {{"ok": 0, "hung": 0, "crashed": 0, "error": 0}}
    for n in range(args.launches):
        t0 = time.monotonic()
        outcome = launch(n, args.timeout)
        tally[outcome.partition(":")[0]] += 1
        print(f"launch {{n + 1}}/{{args.launches}}: {{outcome}} ({{time.monotonic() - t0:.1f}}s)", flush=True)
    k, n = tally["hung"], args.launches
    low, high = wilson(k, n)
    print(f"hung {{k}} of {{n}} launches ({{100 * k / n:.0f}}%, 95% interval {{100 * low:.0f}}-{{100 * high:.0f}}%)", flush=True)
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({{**tally, "launches": n, "seconds": time.monotonic() - started}}, fh)
    code = 1 if k else (3 if tally["crashed"] or tally["error"] else 0)
    sys.stdout.flush()
    os._exit(code)  # a wedged executor's manager thread must not keep this process alive


def open_loader_with(options):
    global OPTIONS
    OPTIONS, kept = options, OPTIONS
    try:
        return open_loader(SEED, 0)
    finally:
        OPTIONS = kept


if __name__ == "__main__":
    try:
        main()
    except SystemExit:  # bad arguments (2), before any process started
        raise
    except BaseException:  # still end: a wedged executor's thread must not keep this alive
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(4)
'''


def _py(value: Any) -> str:
    """A Python expression that evaluates to `value`, a plain value (None, booleans, numbers
    with inf and nan, strings, dates and times, lists, tuples, mappings): quoted by `repr`, so no
    value can be read as code."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, str):
        return str.__repr__(value)
    if isinstance(value, float):
        return float.__repr__(value) if math.isfinite(value) else f"float({str(value)!r})"
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return f"__import__('datetime').{type(value).__name__}.fromisoformat({value.isoformat()!r})"
    if isinstance(value, tuple):
        return "(" + "".join(f"{_py(v)}, " for v in value) + ")"
    if isinstance(value, list):
        return "[" + ", ".join(_py(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_py(k)}: {_py(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no Python literal for {type(value).__name__}")


def _escaped(c: str) -> str:
    """A character as a string literal may hold it: printable ones as they are, the rest (NUL,
    controls, U+2028, lone surrogates) as an escape."""
    if c in '\\"':
        return "\\" + c
    return c if c.isprintable() else c.encode("unicode_escape").decode("ascii")


def _doc_literal(text: str) -> str:
    """`text` as a triple-quoted string literal that reads as the text: every quote and
    backslash escaped (so nothing in it can end the string or start an escape such as
    ``\\N{``), line breaks kept, anything unprintable escaped."""
    return '"""' + "".join(c if c == "\n" else _escaped(c) for c in text) + '"""'


def _comment(text: str) -> str:
    """`text` as one comment line: nothing in it can start a line of code."""
    return "# " + "".join(_escaped(c) if c != '"' and c != "\\" else c for c in text)


def render_python(rep: Reproduction, name: str = "reproduce.py") -> str:
    r = rep.recipe
    env = ", ".join(f"{k}={v}" for k, v in rep.env.items()) or "nothing"
    batches = f"{rep.iterations} batch(es)" if rep.duration is None else f"batches for {rep.duration:g}s"
    measured = f"{rep.evidence}\n" if rep.evidence else ""
    carried = (
        "Not carried over (only the harness applies them; the hang rate was measured without them): "
        + ", ".join(rep.not_carried)
        + "\n"
        if rep.not_carried
        else ""
    )
    doc = _DOC.format(
        what=f"{rep.workers} worker(s) x {rep.env.get('RAYON_NUM_THREADS', 'default')} thread(s)",
        version=__version__,
        source=rep.source,
        modules=", ".join(r.modules) or "nothing else",
        workers=rep.workers,
        start=rep.start_method,
        env=env,
        batches=batches,
        measured=measured,
        carried=carried,
        name=name,
    )
    settings = [
        f"WORKERS = {_py(rep.workers)}",
        f"BATCHES = {_py(rep.iterations)}",
        f"SECONDS = {_py(rep.duration)}  # iterate this long instead of BATCHES, when set",
        f"START_METHOD = {_py(rep.start_method)}",
        f"ENV = {_py(rep.env)}  # set in each worker before the loader is imported",
        f"INHERITED = {_py(rep.inherited)}  # in the parent's environment: workers are born with it",
        f"OPTIONS = {_py(r.options)}",
        f"WARM_OPTIONS = {_py(r.warm_options if r.warm_options is not None else r.options)}",
        f"SEED = {_py(rep.seed)}",
        f"TIMEOUT_S = {_py(float(rep.timeout_s))}",
        f"LAUNCHES = {_py(rep.launches)}",
        f"RESULT_BYTES = {_py(rep.result_bytes)}  # what each worker's task returns, as a training task returns weights",
        f"SWITCH_INTERVAL = {_py(rep.switch_interval)}",
        f"AFFINITY = {_py(list(rep.affinity) if rep.affinity else None)}",
        f"BURNERS = {_py(rep.burners)}  # CPU-burning neighbour processes during each launch",
        f"KILL_WORKER = {_py(rep.kill_worker)}",
        f"WARM_PARENT = {_py(rep.warm_parent)}",
        f"PRELOAD = {_py(list(rep.preload))}",
    ]
    imports = "\n".join(f"    {line}" for line in (*r.imports, *r.setup))
    helpers = "\n\n" + "\n".join(r.helpers) + "\n" if r.helpers else ""
    body = _BODY.format(imports=imports, open=r.open, next=r.next, helpers=helpers)
    note = _comment(r.note) + "\n" if r.note else ""
    head = "#!/usr/bin/env python3\n" + _doc_literal(doc) + "\n" + _IMPORTS
    return head + note + "\n".join(settings) + "\n" + body
