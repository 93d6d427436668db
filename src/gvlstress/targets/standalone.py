"""How a standalone program opens each target's loader with the standard library alone: the
worker half of a target, written out without gvlstress (`Recipe`), for the reproducer that
`shrink` writes.

The built-in native target becomes ``gvlstress_native.Loader(seed=seed, **OPTIONS)``; a
``--target MODULE:CALLABLE`` becomes a call of the user's callable (with ``seed`` and ``slot``
where its signature names them); genvarloader becomes ``Dataset.open`` on the dataset the run
used, the parallel path forced as the target forces it, and with ``-o loader=CONTEXT`` every
batch after the first taken from a loader child started with that context, as the target takes
them. A third-party `Target` class names its own worker half (``module:function``), which the
program imports as it is.
"""

from __future__ import annotations

import keyword
from typing import Any

from gvlstress.model.shrink import Recipe
from gvlstress.system.releases import version_tuple
from gvlstress.targets.base import TargetPlan
from gvlstress.targets.gvl_data import OPEN_KEYS

NATIVE = "gvlstress.targets.native:open_worker"
CALLABLE = "gvlstress.targets.callable:open_worker"
GENVARLOADER = "gvlstress.targets.gvl:open_worker"


def recipe(plan: TargetPlan) -> Recipe | None:
    """The recipe of `plan`'s worker half; None for a gvlstress worker half it cannot write out."""
    module, _, function = plan.entry.partition(":")
    if plan.entry == NATIVE:
        return Recipe(
            imports=("import gvlstress_native",),
            open="gvlstress_native.Loader(seed=seed, **OPTIONS)",
            next="loader.next_batch()",
            modules=("gvlstress_native",),
            options=dict(plan.options),
            # the harness warms a forking parent with a healthy batch (targets.native._warm_pool)
            warm_options={
                k: v for k, v in plan.options.items() if k not in ("fault", "fault_rate", "fault_log")
            },
        )
    if plan.entry == CALLABLE:
        where, _, name = str(plan.options["target"]).partition(":")
        if not _names(where, name):
            return None
        return Recipe(
            imports=("import inspect", f"from {where} import {name} as make_batches"),
            open="iter(make_batches(**OPTIONS, **{k: v for k, v in (('seed', seed), ('slot', slot)) "
            "if k in inspect.signature(make_batches).parameters and k not in OPTIONS}))",
            next="next(loader)",
            modules=(where.partition(".")[0],),
            options=dict(plan.options["kwargs"]),
        )
    if plan.entry == GENVARLOADER:
        return _genvarloader(plan)
    if module.startswith("gvlstress.") or not _names(module, function):
        return None
    return Recipe(
        imports=(f"from {module} import {function} as open_worker",),
        open="open_worker(OPTIONS, seed, slot)",
        next="loader.next_batch()",
        modules=(module.partition(".")[0],),
        options=dict(plan.options),
        note=f"{plan.entry} is the target's own worker half, imported as it is",
    )


def _names(module: str, name: str) -> bool:
    """Can ``from MODULE import NAME`` be written as code (dotted identifiers, no keyword)? A
    tampered run.json may name anything; the program is written from names only."""
    parts = (*module.split("."), name)
    return all(p.isidentifier() and not keyword.iskeyword(p) for p in parts)


_GATE = (
    "import importlib",
    "def always(total_bytes):",
    "    return True",
    "for where in ('genvarloader._threads', *('genvarloader._dataset.' + m for m in "
    "('_intervals', '_haps', '_reference', '_genotypes', '_reconstruct'))):",
    "    try:",
    "        gate = importlib.import_module(where)",
    "    except ImportError:",
    "        continue",
    "    if hasattr(gate, 'should_parallelize'):",
    "        gate.should_parallelize = always  # <= 0.36: the size gate is imported by name",
)


def _loader_child(batch: str) -> tuple[str, ...]:
    """The loader child of ``-o loader=CONTEXT``, as `gvl._LoaderChild` runs it: top-level, so a
    spawn or forkserver child imports it by name; `batch` takes one batch from ``self.ds``."""
    return (
        "class LoaderChild:",
        '    """Batches as a DataLoader with workers gives them: the first one here (it starts this',
        "    process's rayon pool), every later one from a child started with the multiprocessing",
        "    context OPTIONS['loader'], which sends back each batch's size. A child forked after the",
        "    pool exists has no pool threads: its first parallel batch waits for them forever, and",
        '    this worker with it, in recv()."""',
        "",
        "    def __init__(self, ds):",
        "        self.ds, self.conn = ds, None",
        "",
        "    def batch(self):",
        f"        return {batch}",
        "",
        "    def next_batch(self):",
        "        global LOADER_IN_PARENT",
        "        if self.conn is not None:",
        "            return self.conn.recv()",
        "        out = self.batch()",
        "        ctx = multiprocessing.get_context(OPTIONS['loader'])",
        "        self.conn, theirs = ctx.Pipe(duplex=False)",
        "        LOADER_IN_PARENT = self if OPTIONS['loader'] == 'fork' else None  # a forked child uses this Dataset",
        "        ctx.Process(target=loader_child, args=(theirs,), daemon=True).start()",
        "        theirs.close()",
        "        return out",
        "",
        "",
        "LOADER_IN_PARENT = None",
        "",
        "",
        "def loader_child(conn):",
        '    """The loader child: batches from the Dataset it inherited (fork) or its own, their sizes',
        '    sent until the parent goes away."""',
        "    loader = LOADER_IN_PARENT if LOADER_IN_PARENT is not None else open_loader(SEED, 0)",
        "    try:",
        "        while True:",
        "            conn.send(len(loader.batch()))",
        "    except OSError:",
        "        pass",
    )


_OPEN_DATASET = (
    "def open_dataset():",
    '    """The Dataset opened as the run opened it: Dataset.open (reference, jitter, rc_neg,',
    "    deterministic), then the sequences, the tracks (the names given, none, or all) and the",
    '    output length, each as OPTIONS says."""',
    "    import genvarloader as gvl",
    "    kwargs = {k: OPTIONS[k] for k in ('jitter', 'rc_neg', 'deterministic') if k in OPTIONS}",
    "    ds = gvl.Dataset.open(OPTIONS['dataset'], reference=OPTIONS.get('reference'), **kwargs)",
    "    seqs = OPTIONS.get('seqs', 'haplotypes')",
    "    ds = ds.with_seqs(None if seqs == 'none' else seqs)",
    "    tracks = OPTIONS.get('tracks')",
    "    if tracks is False or tracks == 'none':",
    "        ds = ds.with_tracks(False)",
    "    elif isinstance(tracks, str) and tracks:",
    "        ds = ds.with_tracks([t.strip() for t in tracks.split(',')])",
    "    if 'output_length' in OPTIONS:",
    "        ds = ds.with_len(OPTIONS['output_length'])",
    "    return ds",
    "",
)
_OPENED = ("dataset", "reference", "seqs", "tracks", *OPEN_KEYS, "output_length")
"""What `gvl.open_dataset` opens a dataset with: the reproducer carries each the run had."""


def _genvarloader(plan: TargetPlan) -> Recipe | None:
    opts: dict[str, Any] = dict(plan.options)
    if opts.get("mode", "plain") != "plain":
        return None  # a GIL thread beside the loader: the target's own worker half only
    old = version_tuple(plan.versions.get("genvarloader", "0.0")) < (0, 37)
    batch = int(opts.get("batch_regions", 0))
    loader = str(opts.get("loader", "none"))
    child = loader != "none"
    upto = str(batch) if batch > 0 else ("self.ds" if child else "loader") + ".shape[0]"
    opened = {k: opts[k] for k in _OPENED if opts.get(k) is not None}
    return Recipe(
        imports=("import genvarloader as gvl",),
        setup=(
            "try:",
            "    from loguru import logger",
            "    logger.disable('genvarloader')",
            "except ImportError:",
            "    pass",
            *(_GATE if old and opts.get("force_parallel", True) else ()),
        ),
        open="LoaderChild(open_dataset())" if child else "open_dataset()",
        next="loader.next_batch()" if child else f"loader[0 : {upto}, :]",
        modules=("genvarloader",),
        options={**opened, **({"loader": loader} if child else {})},
        helpers=(*_OPEN_DATASET, *(_loader_child(f"self.ds[0 : {upto}, :]") if child else ())),
        note="the dataset was built by gvlstress (a synthetic one, cached); point OPTIONS at your own"
        if "seqs" not in opts
        else "the dataset the run opened, opened as the run opened it",
    )
