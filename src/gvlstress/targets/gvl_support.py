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
from gvlstress.targets.base import KnownHang, LoaderFacts, PoolCap, TargetPlan
from gvlstress.targets.gvl_data import BUILT_IN_TRACKS, DATA_DEFAULTS, LOADERS, MODES, SEQS, USER_KEYS

BUILD_TIMEOUT_S = 900.0
_PROBE = (
    "import importlib.metadata as m\n"
    "try:\n    out['version'] = m.version('genvarloader')\nexcept m.PackageNotFoundError:\n    out['version'] = None\n"
)
_OPTIONS = {
    *DATA_DEFAULTS,
    *USER_KEYS,
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
ISSUE_263 = KnownHang(
    title="genvarloader #263",
    ref="#263",
    url="https://github.com/mcvickerlab/GenVarLoader/issues/263",
    symptoms=(
        ("parked", "threads parked on futexes"),
        ("cpu", "~0 CPU"),
        ("executor", "the executor wedged (futures never complete, no error raised)"),
        ("zombie", "a dead worker never reaped (a zombie)"),
    ),
)
"""The hang this harness was built for, as its reporter saw it (py-spy, top, ps)."""
RECORD = LoaderFacts(
    name="genvarloader",
    package="genvarloader",
    stack=PACKAGES,
    version_key="genvarloader",
    pool_key="genvarloader",
    # <= 0.36 resolve their count but only setdefault() RAYON_NUM_THREADS (an inherited value
    # wins); >= 0.37 overwrite it with their cap
    overrides_pool_env_since="0.37",
    resolved_key="gvl_resolved_threads",
    env_after_key="rayon_env_after_import",
    cap=PoolCap(
        since="0.37",
        releases="the fixed releases",
        unchanged="of PR #265's changes only the GIL release differs",
    ),
    known_hang=ISSUE_263,
    pool_probe=POOL_CODE,
)
"""What genvarloader knows about itself (`GenvarloaderTarget.loader`): the worker half
(`gvl.open_worker`) reports the keys named here."""
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


CHECK_TIMEOUT_S = 600.0
"""Opening a user's dataset once before the waves (a cold import, the reference cache built)."""
_SYNTHETIC_ONLY = sorted({*DATA_DEFAULTS, "cache_dir"} - {"tracks"})


def _where(scenario: Scenario) -> str:
    return "-o" if scenario.source == "defaults" else f"{scenario.source} [target]"


def _user_options(scenario: Scenario, opts: dict[str, Any]) -> dict[str, Any]:
    """A user's dataset and how it is opened, checked without genvarloader: paths that exist,
    the reference its sequences need, values of the right kind (one line each, exit 2)."""
    where = _where(scenario)
    extra = [k for k in _SYNTHETIC_ONLY if k in opts]
    if extra:
        raise UsageError(
            f"{where} {', '.join(extra)}: only for the synthetic dataset, not with dataset=PATH",
            hint="drop them, or drop dataset= to build the synthetic one",
        )
    path = Path(str(opts["dataset"])).expanduser()
    if not path.is_dir():
        raise UsageError(
            f"{where} dataset={opts['dataset']}: {'no such directory' if not path.exists() else 'not a directory'}",
            hint="pass the directory genvarloader.write() made",
        )
    if not (path / "metadata.json").is_file():
        raise UsageError(
            f"{where} dataset={opts['dataset']}: not a genvarloader dataset (no metadata.json in it)",
            hint="pass the directory genvarloader.write() made",
        )
    seqs = opts.get("seqs", "haplotypes")
    if seqs not in SEQS:
        raise UsageError(
            f"{where} seqs must be one of {', '.join(SEQS)}, got {seqs!r}",
            hint="what Dataset.with_seqs() takes",
        )
    out: dict[str, Any] = {"dataset": str(path.resolve()), "seqs": seqs}
    ref = opts.get("reference")
    if ref is None and seqs in ("haplotypes", "reference", "annotated"):
        raise UsageError(
            f"{where} seqs={seqs} needs the reference genome: add -o reference=PATH",
            hint="or -o seqs=variants (no sequences) or -o seqs=none (tracks only)",
        )
    if ref is not None:
        ref_path = Path(str(ref)).expanduser()
        if not ref_path.is_file():
            raise UsageError(
                f"{where} reference={ref}: no such file",
                hint="pass the FASTA the dataset was written against",
            )
        out["reference"] = str(ref_path.resolve())
    for key in ("jitter",):
        if key in opts and (isinstance(opts[key], bool) or not isinstance(opts[key], int) or opts[key] < 0):
            raise UsageError(
                f"{where} {key} must be a whole number >= 0, got {opts[key]!r}",
                hint="as Dataset.open() takes it",
            )
    for key in ("rc_neg", "deterministic"):
        if key in opts and not isinstance(opts[key], bool):
            raise UsageError(
                f"{where} {key} must be true or false, got {opts[key]!r}", hint="as Dataset.open() takes it"
            )
    length = opts.get("output_length")
    if (
        length is not None
        and length not in ("ragged", "variable")
        and not (isinstance(length, int) and length > 0)
    ):
        raise UsageError(
            f"{where} output_length must be ragged, variable or a length > 0, got {length!r}",
            hint="what Dataset.with_len() takes",
        )
    tracks = opts.get("tracks")
    if tracks is not None and not isinstance(tracks, (bool, str)):
        raise UsageError(
            f"{where} tracks must be track names (a,b), none or true, got {tracks!r}",
            hint="what Dataset.with_tracks() takes; the dataset's own are in its directory",
        )
    return out | {
        k: opts[k] for k in ("jitter", "rc_neg", "deterministic", "output_length", "tracks") if k in opts
    }


def user_dataset(scenario: Scenario, python: str, version: str, options: dict[str, Any]) -> dict[str, Any]:
    """Open the user's dataset once in the workers' interpreter, as the workers will, and load
    a batch: a dataset of an incompatible version, a reference that does not fit it, a track it
    does not have is refused here in one line, before any worker starts."""
    code = "import sys; sys.path.insert(0, sys.argv.pop(1)); from gvlstress.targets.gvl import check_main; check_main()"
    shim = interpreter.shim() if python != sys.executable else str(Path(__file__).resolve().parents[2])
    out = tools.run([python, "-c", code, shim, json.dumps(options)], CHECK_TIMEOUT_S)
    try:
        found: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        last = (out.stderr.strip().splitlines() or [out.error or "no answer"])[-1]
        raise EnvironmentProblem(f"opening the dataset with {python} failed: {last}") from None
    if not found.get("ok"):
        written = found.get("written_by")
        hint = (
            f"it was written by genvarloader {written}: run with --python of an environment with that version"
            if written and written != version
            else "open it by hand with genvarloader.Dataset.open to see the whole error"
        )
        raise UsageError(
            f"{_where(scenario)} dataset={options['dataset']}: genvarloader {version} cannot use it: {found.get('error')}",
            hint=hint,
        )
    return options | {
        k: found[k] for k in ("regions", "samples", "written_by", "format_version") if k in found
    }


def built_in_tracks(scenario: Scenario, tracks: Any) -> tuple[bool, str | None]:
    """``-o tracks=`` on the synthetic dataset: (build it with tracks, the names the workers
    select, None: all or none). A name it has not is refused (one line, exit 2), never dropped."""
    if not isinstance(tracks, str):
        return bool(tracks), None
    if tracks.strip().lower() in ("none", "false", ""):
        return False, None
    names = [t.strip() for t in tracks.split(",")]
    missing = [t for t in names if t not in BUILT_IN_TRACKS]
    if missing:
        raise UsageError(
            f"{_where(scenario)} tracks={tracks}: the built-in dataset has no track "
            f"{', '.join(repr(t) for t in missing)} (its tracks: {', '.join(BUILT_IN_TRACKS)})",
            hint=f"-o tracks={','.join(BUILT_IN_TRACKS)}, -o tracks=true (all) or -o tracks=none",
        )
    return True, ",".join(names)


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
    if "dataset" not in opts:  # before anything starts: a name it has not is the user's slip
        with_tracks, track_names = built_in_tracks(scenario, opts.get("tracks"))
    python = scenario.python or sys.executable
    info = probe_interpreter(python)
    version = str(info["version"])
    if "dataset" in opts:  # the user's own data, opened as their pipeline opens it
        data = user_dataset(scenario, python, version, _user_options(scenario, opts))
        opened = {k: data[k] for k in ("dataset", "seqs", *USER_KEYS, "tracks") if k in data}
    else:
        params = {k: opts.get(k, v) for k, v in DATA_DEFAULTS.items()} | {"tracks": with_tracks}
        data = dataset(python, version, params, Path(opts["cache_dir"]) if opts.get("cache_dir") else None)
        opened = {
            "dataset": data["dataset"],
            "reference": data["reference"],
            "tracks": (track_names or True) if data["tracks"] else None,
        }
    new = not RECORD.keeps_inherited(version)
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
            **opened,
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
    loader = RECORD

    def prepare(self, scenario: Scenario, workdir: Path) -> TargetPlan:
        return prepare(scenario)
