"""The ``genvarloader`` target: the real loader from PyPI, as in genvarloader issue #263.

Supervisor half (`gvl_support.GenvarloaderTarget.prepare`): asks the workers' interpreter (``--python``, or
this one) which genvarloader it has, builds a synthetic dataset once per parameter set in a cache
directory (with that interpreter, via the standalone ``build_dataset.py``), and maps the thread
settings onto what that version honours.

Worker half (`open_worker`, stdlib-only at the top): thread knobs are already applied when it
runs; it imports genvarloader, forces the parallel (rayon) path on every version, and records
what genvarloader resolved and how many threads really burned CPU.

Versions: <= 0.36 resolve their count from ``GVL_NUM_THREADS``/affinity and only
``setdefault`` ``RAYON_NUM_THREADS`` (an inherited value wins); the size gate is replaced in
every module that imported ``should_parallelize`` by name. >= 0.37 overwrite ``RAYON_NUM_THREADS``
with their cap (so ``--rayon`` maps to ``GVL_NUM_THREADS``) and honour ``GVL_FORCE_PARALLEL=1``.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from pathlib import Path
from typing import Any

from gvlstress.system.releases import version_tuple
from gvlstress.targets.gvl_data import OPEN_KEYS

_GATE_MODULES = ("_intervals", "_haps", "_reference", "_genotypes", "_reconstruct")


def _task_cpu_ns() -> dict[int, int]:
    """CPU nanoseconds per thread of this process (schedstat; clock ticks * 10 ms as fallback).

    Ticks are too coarse here: ten 12 ms batches spread over 16 pool threads give each ~5 ms.
    """
    out: dict[int, int] = {}
    try:
        tids = os.listdir("/proc/self/task")
    except OSError:
        return out
    for tid in tids:
        try:
            out[int(tid)] = int(Path(f"/proc/self/task/{tid}/schedstat").read_text().split()[0])
            continue
        except (OSError, ValueError, IndexError):
            pass
        try:
            text = Path(f"/proc/self/task/{tid}/stat").read_text()
        except OSError:
            continue
        rest = text[text.rindex(")") + 2 :].split()
        out[int(tid)] = (int(rest[11]) + int(rest[12])) * 10_000_000
    return out


BURNING_NS = 1_000_000
"""A thread that ran at least 1 ms while batches loaded counts as working."""


def _force_parallel_by_patch(gvl: Any) -> str:
    """<= 0.36: replace the size gate where it is looked up (it is imported by name)."""
    import importlib

    def always(total_bytes: int) -> bool:
        return True

    patched = []
    threads_mod = importlib.import_module("genvarloader._threads")
    setattr(threads_mod, "should_parallelize", always)  # noqa: B010 (a module attribute)
    for name in _GATE_MODULES:
        try:
            mod = importlib.import_module(f"genvarloader._dataset.{name}")
        except ImportError:
            continue
        if hasattr(mod, "should_parallelize"):
            setattr(mod, "should_parallelize", always)  # noqa: B010
            patched.append(name)
    return "should_parallelize replaced in _threads and " + ", ".join(patched)


class _GilWork:
    """The threaded mode's second Python thread: pure-Python work that needs the GIL, as a
    training loop beside the loader would (0.36.0 holds the GIL across its rayon regions)."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.rounds = 0
        self.thread = threading.Thread(target=self._run, name="gvlstress-gil-work", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.stop.is_set():
            sum(i * i for i in range(5000))
            self.rounds += 1

    def finish(self) -> int:
        self.stop.set()
        self.thread.join(5)
        return self.rounds


class _GvlSession:
    def __init__(self, ds: Any, gvl: Any, info: dict[str, Any], batch: int, gil: _GilWork | None) -> None:
        self.ds = ds
        self.gvl = gvl
        self.info = info
        self.n = int(ds.shape[0])
        self.batch = min(batch, self.n) if batch > 0 else self.n
        self.start = 0
        self.gil = gil
        self.cpu0 = _task_cpu_ns()
        self.loader: _LoaderChild | None = None

    def next_batch(self) -> object:
        if self.loader is not None:
            return self.loader.next_batch()
        stop = self.start + self.batch
        out = self.ds[self.start : stop, :] if stop <= self.n else self.ds[self.start : self.n, :]
        self.start = 0 if stop >= self.n else stop
        return out

    def describe(self) -> dict[str, Any]:
        cpu = _task_cpu_ns()
        burning = sum(1 for tid, ns in cpu.items() if ns - self.cpu0.get(tid, 0) >= BURNING_NS)
        info = dict(self.info)
        info.update({"os_threads": len(cpu), "threads_burning": burning})
        threads_mod = sys.modules.get("genvarloader._threads")
        if threads_mod is not None and hasattr(threads_mod, "num_threads"):
            info["num_threads"] = int(threads_mod.num_threads())
        if self.gil is not None:
            info["gil_work_rounds"] = self.gil.rounds
        return info


class _LoaderChild:
    """Batches from a loader child, as a DataLoader with workers gives them: the first batch
    runs here (it starts this process's rayon pool), every later one in a child started with
    the `context` multiprocessing context, which sends back each batch's size over a pipe. A
    child forked after the pool exists has no pool threads; its first parallel batch waits
    for them forever, and this worker with it, in recv()."""

    def __init__(self, session: _GvlSession, context: str, options: dict[str, Any]) -> None:
        self.session = session
        self.context = context
        self.options = options
        self.conn: Any = None
        self.child: Any = None

    def next_batch(self) -> object:
        if self.child is None:
            out = self.session.ds[0 : self.session.batch, :]  # warm: the pool exists after this
            import multiprocessing as mp

            ctx: Any = mp.get_context(self.context)
            self.conn, theirs = ctx.Pipe(duplex=False)
            # a forked child uses the Dataset it inherits (as a DataLoader's fork workers do);
            # spawn and forkserver children open their own
            global _INHERITED
            _INHERITED = self.session if self.context == "fork" else None
            args = (None if self.context == "fork" else self.options, theirs)
            self.child = ctx.Process(target=loader_child, args=args, daemon=True)
            self.child.start()
            theirs.close()
            self.session.info["loader_child"] = self.child.pid
            return out
        return self.conn.recv()


_INHERITED: _GvlSession | None = None
"""The worker's session, for a loader child forked from it."""


def loader_child(options: dict[str, Any] | None, conn: Any) -> None:
    """The loader child: batches from the inherited Dataset (fork) or its own, their sizes sent
    until the parent goes away."""
    session = _INHERITED if options is None else open_worker({**options, "loader": "none"}, 0, 0)
    assert session is not None
    session.loader = None
    session.start = session.batch  # the next batch after the parent's warm one
    try:
        while True:
            batch: Any = session.next_batch()
            conn.send(len(batch))
    except (BrokenPipeError, OSError):
        pass


def open_dataset(gvl: Any, options: dict[str, Any]) -> Any:
    """The Dataset opened as a pipeline opens it: ``Dataset.open`` (the reference, jitter, rc_neg,
    deterministic given), then the sequences (``with_seqs``), the tracks (``with_tracks``: the
    names given, ``none``, or genvarloader's default of all) and the length (``with_len``). A
    track the dataset does not have is refused (ValueError), whatever the version does."""
    kwargs = {k: options[k] for k in OPEN_KEYS if k in options}
    ds = gvl.Dataset.open(options["dataset"], reference=options.get("reference"), **kwargs)
    seqs = options.get("seqs", "haplotypes")
    ds = ds.with_seqs(None if seqs == "none" else seqs)
    tracks = options.get("tracks")
    if tracks is False or tracks == "none":
        ds = ds.with_tracks(False)
    elif isinstance(tracks, str) and tracks:
        names = [t.strip() for t in tracks.split(",")]
        have = list(getattr(ds, "available_tracks", None) or [])
        if missing := [t for t in names if t not in have]:
            # <= 0.36 only warn ("Dataset has no tracks, so this method has no effect") and
            # run without them: a run that loads no track is not the pipeline's
            raise ValueError(f"Missing tracks: {missing!r} (the dataset has {', '.join(have) or 'none'})")
        ds = ds.with_tracks(names)
    if "output_length" in options:
        ds = ds.with_len(options["output_length"])
    return ds


def check_dataset(options: dict[str, Any]) -> dict[str, Any]:
    """Before any worker starts: open the dataset exactly as the workers will, and load one
    batch; what is wrong comes back as one line (a JSON-ready dict)."""
    import json

    out: dict[str, Any] = {"ok": False}
    try:
        meta = json.loads((Path(options["dataset"]) / "metadata.json").read_text())
        out |= {"written_by": meta.get("version"), "format_version": meta.get("format_version")}
    except (OSError, ValueError) as exc:
        out["error"] = f"no readable metadata.json ({type(exc).__name__}): not a genvarloader dataset"
        return out
    try:
        import genvarloader as gvl

        with contextlib.suppress(ImportError):
            from loguru import logger

            logger.disable("genvarloader")
        out["genvarloader"] = str(gvl.__version__)
        ds = open_dataset(gvl, options)
        out |= {"regions": int(ds.shape[0]), "samples": int(ds.shape[1])}
        out["tracks"] = list(getattr(ds, "available_tracks", None) or [])
        ds[0:1, :]
    except Exception as exc:  # the user's data: whatever genvarloader says, in one line
        out["error"] = f"{type(exc).__name__}: {' '.join(str(exc).split())[:400]}"
        return out
    out["ok"] = True
    return out


def check_main() -> None:
    """``python -c 'from gvlstress.targets.gvl import check_main; check_main()' OPTIONS_JSON``."""
    import json

    os.environ.setdefault("LOGURU_LEVEL", "WARNING")
    sys.stdout.write(json.dumps(check_dataset(json.loads(sys.argv[1]))) + "\n")


def open_worker(options: dict[str, Any], seed: int, slot: int) -> _GvlSession:
    """Worker half: thread knobs are set already; import, force the parallel path, open."""
    inherited_rayon = os.environ.get("RAYON_NUM_THREADS")
    import genvarloader as gvl

    try:  # genvarloader logs at INFO through loguru; keep worker output quiet
        from loguru import logger

        logger.disable("genvarloader")
    except ImportError:
        pass
    version = str(gvl.__version__)
    if options.get("force_parallel", True):
        if version_tuple(version) < (0, 37):
            forced = _force_parallel_by_patch(gvl)
        else:
            forced = f"GVL_FORCE_PARALLEL={os.environ.get('GVL_FORCE_PARALLEL')}"
    else:
        forced = "no (size gate active)"
    ds = open_dataset(gvl, options)
    threads_mod = sys.modules.get("genvarloader._threads")
    resolved = int(threads_mod.num_threads()) if threads_mod and hasattr(threads_mod, "num_threads") else None
    rayon_after = os.environ.get("RAYON_NUM_THREADS")
    info: dict[str, Any] = {
        "genvarloader": version,
        "genvarloader_file": str(gvl.__file__),
        "python": sys.version.split()[0],
        "python_executable": sys.executable,
        "mode": options.get("mode", "plain"),
        "forced_parallel": forced,
        "numba_cache_dir": os.environ.get("NUMBA_CACHE_DIR"),
        "rayon_env_before_import": inherited_rayon,
        "rayon_env_after_import": rayon_after,
        "gvl_resolved_threads": resolved,
        # rayon's global pool is sized from RAYON_NUM_THREADS at its first use (after import)
        "rayon_threads": int(rayon_after) if rayon_after and rayon_after.isdigit() else resolved,
    }
    gil = _GilWork() if options.get("mode") == "threaded" else None
    session = _GvlSession(ds, gvl, info, int(options.get("batch_regions", 0)), gil)
    if options.get("loader", "none") != "none":
        info["loader"] = options["loader"]
        session.loader = _LoaderChild(session, options["loader"], options)
    return session
