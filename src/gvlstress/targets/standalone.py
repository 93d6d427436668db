"""How a standalone program opens each target's loader with the standard library alone: the
worker half of a target, written out without gvlstress (`Recipe`), for the reproducer that
`shrink` writes.

The built-in native target becomes ``gvlstress_native.Loader(seed=seed, **OPTIONS)``; a
``--target MODULE:CALLABLE`` becomes a call of the user's callable (with ``seed`` and ``slot``
where its signature names them); genvarloader becomes ``Dataset.open`` on the dataset the run
used, the parallel path forced as the target forces it. A third-party `Target` class names its
own worker half (``module:function``), which the program imports as it is.
"""

from __future__ import annotations

from typing import Any

from gvlstress.model.shrink import Recipe
from gvlstress.targets.base import TargetPlan
from gvlstress.targets.gvl_data import version_tuple

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
    if module.startswith("gvlstress."):
        return None
    return Recipe(
        imports=(f"from {module} import {function} as open_worker",),
        open="open_worker(OPTIONS, seed, slot)",
        next="loader.next_batch()",
        modules=(module.partition(".")[0],),
        options=dict(plan.options),
        note=f"{plan.entry} is the target's own worker half, imported as it is",
    )


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


def _genvarloader(plan: TargetPlan) -> Recipe | None:
    opts: dict[str, Any] = dict(plan.options)
    if opts.get("loader", "none") != "none" or opts.get("mode", "plain") != "plain":
        return None  # a loader child or a GIL thread beside it: the target's own worker half only
    old = version_tuple(plan.versions.get("genvarloader", "0.0")) < (0, 37)
    seqs = "gvl.Dataset.open(OPTIONS['dataset'], reference=OPTIONS['reference']).with_seqs('haplotypes')"
    batch = int(opts.get("batch_regions", 0))
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
        open=seqs + (".with_tracks('signal')" if opts.get("tracks") else ""),
        next=f"loader[0 : {batch}, :]" if batch > 0 else "loader[0 : loader.shape[0], :]",
        modules=("genvarloader",),
        options={"dataset": opts["dataset"], "reference": opts["reference"]},
        note="the dataset was built by gvlstress (a synthetic one, cached); point OPTIONS at your own",
    )
