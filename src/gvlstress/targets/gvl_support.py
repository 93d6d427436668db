"""Supervisor-side support for the genvarloader target: interpreter probe, cached data, plan.

Everything that touches genvarloader runs in the workers' interpreter (a subprocess with a
deadline), so the harness itself does not need genvarloader installed when ``--python`` points
at an environment that has it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from gvlstress.errors import EnvironmentProblem, UsageError
from gvlstress.probes import interpreter, tools
from gvlstress.scenario import Scenario
from gvlstress.system.cache import cache_root
from gvlstress.targets.base import TargetPlan
from gvlstress.targets.gvl_data import DATA_DEFAULTS, LOADERS, MODES, version_tuple

BUILD_TIMEOUT_S = 900.0
_PROBE = (
    "import importlib.metadata as m\n"
    "try:\n    out['version'] = m.version('genvarloader')\nexcept m.PackageNotFoundError:\n    out['version'] = None\n"
)
_OPTIONS = {
    *DATA_DEFAULTS,
    "mode",
    "loader",
    "batch_regions",
    "force_parallel",
    "version",
    "cache_dir",
    "numba_cache",
}
POOL_CODE = (
    "import genvarloader as gvl\n"
    "t = sys.modules.get('genvarloader._threads')\n"
    "resolved = int(t.num_threads()) if t is not None and hasattr(t, 'num_threads') else None\n"
    "after = os.environ.get('RAYON_NUM_THREADS')\n"
    "pool = int(after) if after and after.isdigit() else resolved\n"
    "out = {'genvarloader': pool, 'genvarloader_resolved': resolved}\n"
    "print(json.dumps({k: v for k, v in out.items() if v is not None}))\n"
)
"""Run in a fresh interpreter with a host's thread knobs (`probes.profile.run_with`): the pool a
worker of that genvarloader gets there (rayon's global pool is sized from RAYON_NUM_THREADS
after the import, as `gvl.open_worker` records it) and the count genvarloader resolved itself."""
PACKAGES = ("genvarloader", "genoray", "seqpro", "numpy", "polars", "numba", "pysam", "torch")
"""What a genvarloader pipeline's behaviour depends on: the versions a host profile keeps."""
NUMBA_CACHES = ("shared", "cold")
"""shared: numba's cache wherever the environment puts it (warmed once before the waves);
cold: every wave starts from an empty NUMBA_CACHE_DIR of its own (the cold-cache race)."""


def probe_interpreter(python: str) -> dict[str, Any]:
    """What genvarloader (if any) and which sys.path the workers' interpreter has."""
    info = interpreter.probe(python, extra=_PROBE)
    if not info.get("version"):
        hint = (
            "pip install 'gvlstress[genvarloader]'"
            if python == sys.executable
            else (f"{python} -m pip install genvarloader==VERSION")
        )
        raise EnvironmentProblem(f"genvarloader is not installed for {python}", hint=hint)
    return info


def dataset(python: str, version: str, params: dict[str, Any], cache_dir: Path | None) -> dict[str, Any]:
    """Build (once per parameters and genvarloader version) or reuse the synthetic dataset."""
    key = hashlib.sha256(json.dumps([version, params], sort_keys=True).encode()).hexdigest()[:16]
    root = cache_dir or cache_root() / "datasets"
    final = root / f"gvl-{version}-{key}"
    marker = final / "result.json"
    if marker.is_file():
        cached: dict[str, Any] = json.loads(marker.read_text())
        return cached
    root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".building-{key}-", dir=root))
    # In a directory of its own: a script's directory leads sys.path, and nothing may shadow
    # genvarloader or its dependencies there.
    script = Path(__file__).with_name("gvl_scripts") / "build_dataset.py"
    out = tools.run([python, str(script), str(tmp), json.dumps(params)], BUILD_TIMEOUT_S)
    if not out.ok:
        shutil.rmtree(tmp, ignore_errors=True)
        last = (out.stderr.strip().splitlines() or [out.error or "failed"])[-1]
        raise EnvironmentProblem(
            f"building the genvarloader dataset failed: {last}",
            hint=f"run {script} by hand with {python} to see the whole error",
        )
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    # Paths inside point at the build directory; move it into place and rewrite them.
    try:
        os.replace(tmp, final)
    except OSError:  # another run built it meanwhile
        shutil.rmtree(tmp, ignore_errors=True)
        return dataset(python, version, params, cache_dir)
    for k in ("dataset", "reference"):
        result[k] = str(final / Path(result[k]).name)
    (final / "result.json").write_text(json.dumps(result))
    return result


def prepare(scenario: Scenario) -> TargetPlan:
    opts = dict(scenario.options)
    unknown = set(opts) - _OPTIONS
    if unknown:
        raise UsageError(
            f"{scenario.source} [target]: unknown genvarloader option(s) {', '.join(sorted(unknown))}",
            hint=f"known: {', '.join(sorted(_OPTIONS))}",
        )
    mode = opts.get("mode", "plain")
    if mode not in MODES:
        raise UsageError(f"{scenario.source} [target]: mode must be one of {', '.join(MODES)}, got {mode!r}")
    loader = opts.get("loader", "none")
    if loader not in LOADERS:
        raise UsageError(
            f"{scenario.source} [target]: loader must be one of {', '.join(LOADERS)}, got {loader!r}"
        )
    numba_cache = opts.get("numba_cache", "shared")
    if numba_cache not in NUMBA_CACHES:
        raise UsageError(
            f"{scenario.source} [target]: numba_cache must be one of {', '.join(NUMBA_CACHES)}, "
            f"got {numba_cache!r}"
        )
    if scenario.fault != "none":
        raise UsageError("the genvarloader target has no fault modes", hint="faults are for --target native")
    python = scenario.python or sys.executable
    info = probe_interpreter(python)
    version = str(info["version"])
    params = {k: opts.get(k, v) for k, v in DATA_DEFAULTS.items()}
    data = dataset(python, version, params, Path(opts["cache_dir"]) if opts.get("cache_dir") else None)
    new = version_tuple(version) >= (0, 37)
    force = bool(opts.get("force_parallel", True))
    env = {"LOGURU_LEVEL": "WARNING"}
    if new and force:
        env["GVL_FORCE_PARALLEL"] = "1"
    scratch: tuple[str, ...] = ()
    if numba_cache == "cold":
        root = tempfile.mkdtemp(prefix="gvlstress-numba-")
        env["NUMBA_CACHE_DIR"] = os.path.join(root, "wave-{wave}")
        scratch = (root,)
    expect = {"genvarloader": str(opts["version"])} if opts.get("version") else {}
    warnings = []
    if expect and expect["genvarloader"] != version:
        warnings.append(f"scenario expects genvarloader {expect['genvarloader']} but {python} has {version}")
    other = python != sys.executable
    return TargetPlan(
        entry="gvlstress.targets.gvl:open_worker",
        options={
            "dataset": data["dataset"],
            "reference": data["reference"],
            "tracks": data["tracks"],
            "mode": mode,
            "loader": loader,
            "batch_regions": int(opts.get("batch_regions", 0)),
            "force_parallel": force,
        },
        versions={"genvarloader": version, "python": str(info["python"])},
        faults=("none",),
        # <= 0.36: the gate counts GVL_NUM_THREADS, the pool reads RAYON_NUM_THREADS; >= 0.37:
        # RAYON_NUM_THREADS is overwritten with the cap, so GVL_NUM_THREADS sizes the pool.
        rayon_env=("GVL_NUM_THREADS", "RAYON_NUM_THREADS") if not new else ("GVL_NUM_THREADS",),
        env=env,
        python=python if other else None,
        sys_path=interpreter.sys_path(info) if other else (),
        expect=expect,
        warnings=tuple(warnings),
        facts={"dataset": data, "numba_cache": numba_cache},
        # seqpro (under genvarloader) compiles numba functions into an on-disk cache on first
        # use; spawned workers filling it at once can poison it (LLVM ERROR ... Symbol not found)
        warm_up=True,
        scratch=scratch,
        # fixes its pool size at import from GVL_NUM_THREADS: preloaded under the workers' env
        preload=("genvarloader",),
    )


class GenvarloaderTarget:
    """Supervisor half: find genvarloader in the workers' interpreter, build data, map threads
    (the worker half, `gvl.open_worker`, imports nothing of this module)."""

    name = "genvarloader"

    def prepare(self, scenario: Scenario, workdir: Path) -> TargetPlan:
        return prepare(scenario)
