"""What a loader knows about itself: the record a target fills in (`targets.base`), kept in
run.json under ``target.loader`` so that the judge, the reports, ``--like``, ``doctor --export``
and ``compare`` read it as data and none of them names a loader.

Every field has a default that describes a plain rayon loader with nothing more to say: its pool
is rayon's global one, sized by an inherited ``RAYON_NUM_THREADS``; a third-party target that
fills in nothing gets exactly what gvlstress assumed before there was a record.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gvlstress.system.releases import version_tuple


@dataclass(frozen=True)
class KnownHang:
    """A hang reported against the loader: a hung wave's symptoms are put beside the reported
    ones, one by one, so a reader sees whether the run reproduced *that* hang or another."""

    title: str
    """How the report names it (its section heading), e.g. 'mylib #12'."""
    ref: str
    """The short form a table column uses, e.g. '#12'."""
    url: str = ""
    """Where it was reported."""
    symptoms: tuple[tuple[str, str], ...] = ()
    """(rule, what the reporter saw), in the report's order; each rule is one of
    `judge.symptoms.RULES` (parked, cpu, executor, zombie)."""


@dataclass(frozen=True)
class PoolCap:
    """The cap a loader puts on its own pool from a release on: min(affinity, ceil(quota)) of
    the host it runs on (what ``--like`` and the audit work out for the host being recreated)."""

    since: str
    """The first release with the cap, e.g. '0.37'."""
    releases: str = "the releases with the cap"
    """How the audit names those releases ('the fixed releases')."""
    unchanged: str = ""
    """What is said when the cap does not shrink the pool on that host (what else differs)."""


@dataclass(frozen=True)
class LoaderFacts:
    """What a loader knows about itself (the target contract's record; the defaults describe a
    plain rayon loader)."""

    name: str = ""
    """How the reports name the loader ('' : by the target's name)."""
    package: str = ""
    """The distribution whose release decides what the loader does with an inherited pool
    setting: ``--like`` reads its version in the workers' interpreter ('' : none does)."""
    stack: tuple[str, ...] = ()
    """Distributions whose versions a host profile keeps (``doctor --export``)."""
    version_key: str = ""
    """The key of the worker's ``target_info`` that holds the release it imported (``compare``
    shows it; '' : the target's versions are shown)."""
    pool_key: str = "rayon"
    """Which measured pool of a host profile (``[pools]``) the target's workers get."""
    pool_env: str = "RAYON_NUM_THREADS"
    """The variable that sizes the loader's pool when it is first used."""
    overrides_pool_env_since: str = ""
    """The release of `package` from which the loader overwrites an inherited `pool_env` with its
    own count ('' : it never does, and an inherited value sizes the pool, as rayon's default)."""
    resolved_key: str = ""
    """The ``target_info`` key where the worker reports the thread count the loader resolved
    itself ('' : it resolves none); the audit sets it beside `env_after_key`."""
    env_after_key: str = ""
    """The ``target_info`` key where the worker reports `pool_env` as it was after the import."""
    cap: PoolCap | None = None
    """The cap the loader puts on its own pool, if it has one."""
    known_hang: KnownHang | None = None
    """A hang reported against it: each hung wave's symptoms are judged beside it."""
    pool_probe: str = field(default="", compare=False, metadata={"local": True})
    """Python run by ``doctor --export`` in a fresh interpreter with the profiled process's
    thread knobs and affinity (``json``, ``os`` and ``sys`` imported): prints one JSON object of measured
    pool sizes, keyed as `pool_key` (not kept in run.json)."""

    def keeps_inherited(self, version: str | None) -> bool:
        """Whether an inherited `pool_env` sizes the pool with `version` of `package` (None: not
        installed, or unknown)."""
        since = self.overrides_pool_env_since
        return not (since and version and version_tuple(version) >= version_tuple(since))
