"""Evidence worded: each kind of fact (`model.evidence`) -> the sentence a report shows, in
one place, so a wording change is one edit and rules are tested on their facts. One module per
family of facts (as `model.evidence` has them); `word` and `evidence` are the one entry point.

Modules (one line each, from their docstrings):

- `cycles`: Waits across processes worded (`model.evidence.cycles`): a cycle of waits, a party
  that waits forever, a process that waits for itself, a join...
- `descriptors`: Waits on descriptors worded (`model.evidence.descriptors`): a peer that has
  gone or is hung itself, an event loop nothing can wake, a file lock...
- `explained`: The explanation's facts worded (`model.evidence.explained`): parked threads,
  futex groups, threads off a futex, idle-by-design threads, the GIL...
- `forks`: Fork hangs' facts worded (`model.evidence.forks`): a fork that never exec'd, the
  library or runtime whose threads stayed in the parent, a prepare...
- `locks`: The facts of one process's stack shapes worded (`model.evidence.locks`): the GIL
  across a rayon region, mutex groups, a lock across a parallel...
- `natives`: Native waits worded (`model.evidence.natives`): a wait at interpreter exit, a
  pthread mutex relocked, copied by fork(), locked in a ring or left...
- `phrases`: Phrases several families share: thread ids for the reader, a count with its plural.
- `pools`: Pools and queues between processes worded (`model.evidence.pools`): a result that can
  never arrive, a lost task, a pool that respawns dying...
- `pythons`: Python stack shapes' facts worded (`model.evidence.pythons`): a lock taken in a
  signal handler or under its own caller, a blocked event loop...
- `waves`: A wave's failures worded (`model.evidence.waves`): a crash, an error, an executor
  wedged by a worker that died.
"""

from __future__ import annotations

from typing import assert_never

from gvlstress.judge.words import cycles, descriptors, explained, forks, locks, natives, pools, pythons, waves
from gvlstress.model.evidence import (
    ChainStep,
    CycleFact,
    DescriptorFact,
    ExplainedFact,
    Fact,
    ForkFact,
    LockFact,
    NativeFact,
    Note,
    PoolFact,
    PythonFact,
    WaveFact,
)


def word(fact: Fact) -> str:
    """The sentence of one fact: its family's module words it."""
    if isinstance(fact, Note | ChainStep):
        return fact.text
    if isinstance(fact, ExplainedFact):
        return explained.word(fact)
    if isinstance(fact, ForkFact):
        return forks.word(fact)
    if isinstance(fact, LockFact):
        return locks.word(fact)
    if isinstance(fact, WaveFact):
        return waves.word(fact)
    if isinstance(fact, PythonFact):
        return pythons.word(fact)
    if isinstance(fact, CycleFact):
        return cycles.word(fact)
    if isinstance(fact, PoolFact):
        return pools.word(fact)
    if isinstance(fact, DescriptorFact):
        return descriptors.word(fact)
    if isinstance(fact, NativeFact):
        return natives.word(fact)
    assert_never(fact)


def evidence(facts: tuple[Fact, ...]) -> tuple[str, ...]:
    """The sentences of facts, in their order."""
    return tuple(word(f) for f in facts)


__all__ = ["evidence", "word"]
