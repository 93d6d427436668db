"""How reliably the real-bug catalogue is caught, named and cleared, entry by entry.

Each chosen entry (all by default) runs N times through the same path as
`gvlstress selftest --real --only NAME`: its trigger hangs a real process, `inspect` looks at it
as a user would, and its control (the documented fix) runs. Per entry: how many tries were
caught with the expected verdict and named with the expected pattern, how many controls finished
clean, and the median seconds `inspect` took; then the same per shape (cycle, spin, lost task,
peer). A try that never reached its hang counts as missed (its error is shown); an entry this
host cannot run (a missing CPython, a package that cannot be installed) is listed as skipped.
Entries with pins build their venv once in the cache on first use (that try is slower).

    python bench/catalogue.py --tries 5
    python bench/catalogue.py --only pool-worker-killed --only zmq-term-linger --tries 10
    python bench/catalogue.py --shape spin --tries 3

The table (markdown) goes to stdout; one line per try goes to stderr as it finishes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from gvlstress import api
from gvlstress.controls.realbugs import CATALOGUE
from gvlstress.model.controls import SHAPES, Outcome, RealBug


@dataclass
class Tally:
    """The tries of one entry."""

    bug: RealBug
    outcomes: list[Outcome] = field(default_factory=list)
    run_dirs: list[str] = field(default_factory=list)

    @property
    def ran(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.skipped is None]

    @property
    def named(self) -> int:
        return sum(o.named for o in self.ran)

    @property
    def clean(self) -> int:
        return sum(o.control_clean is True for o in self.ran)

    @property
    def inspect_s(self) -> list[float]:
        return [o.inspect_s for o in self.ran if o.inspect_s is not None]

    @property
    def skipped(self) -> str | None:
        return self.outcomes[0].skipped if self.outcomes and not self.ran else None

    def misses(self) -> str:
        """What the tries that were not named gave instead, most frequent first."""
        said = Counter(
            o.error if o.error is not None else f"{o.verdict}: {o.pattern or 'no pattern'}"
            for o in self.ran
            if not o.named
        )
        dirty = Counter(o.control_note for o in self.ran if o.control_clean is False)
        parts = [f"{n}x {what}" for what, n in said.most_common()]
        parts += [f"control {n}x {what}" for what, n in dirty.most_common()]
        return "; ".join(parts)


def median(xs: list[float]) -> str:
    return f"{statistics.median(xs):.1f}" if xs else "-"


def run(bugs: list[RealBug], tries: int, report_dir: Path) -> list[Tally]:
    tallies = []
    for bug in bugs:
        tally = Tally(bug)
        for i in range(tries):
            result = api.real_selftest((bug.name,), report_dir)
            (o,) = result.outcomes
            tally.outcomes.append(o)
            tally.run_dirs.append(result.run_dir)
            state = (
                f"skipped ({o.skipped})"
                if o.skipped is not None
                else f"{o.verdict} / {o.pattern} -> {'named' if o.named else 'MISSED'}, "
                f"control {'clean' if o.control_clean else 'NOT clean'}"
                + (f", inspect {o.inspect_s:.1f} s" if o.inspect_s is not None else "")
                + (f", error: {o.error}" if o.error else "")
            )
            print(f"{bug.name} #{i + 1}: {state}  [{result.run_dir}]", file=sys.stderr, flush=True)
            if o.skipped is not None:
                break  # the host lacks it: more tries say nothing new
        tallies.append(tally)
    return tallies


def entry_rows(tallies: list[Tally]) -> list[str]:
    rows = [
        "| entry | shape | expected | caught+named | control clean | median inspect s | not named / not clean |",
        "|---|---|---|---|---|---|---|",
    ]
    for t in tallies:
        expected = f"{t.bug.verdict}: {t.bug.pattern}"
        if t.skipped is not None:
            rows.append(f"| {t.bug.name} | {t.bug.shape} | {expected} | skipped | - | - | {t.skipped} |")
            continue
        n = len(t.ran)
        rows.append(
            f"| {t.bug.name} | {t.bug.shape} | {expected} | {t.named}/{n} | {t.clean}/{n} | "
            f"{median(t.inspect_s)} | {t.misses()} |"
        )
    return rows


def shape_rows(tallies: list[Tally]) -> list[str]:
    rows = [
        "| shape | entries run (skipped) | caught+named | control clean | entries named every try | median inspect s |",
        "|---|---|---|---|---|---|",
    ]
    for shape in SHAPES:
        group = [t for t in tallies if t.bug.shape == shape]
        if not group:
            continue
        ran = [t for t in group if t.skipped is None]
        tries = sum(len(t.ran) for t in ran)
        named = sum(t.named for t in ran)
        clean = sum(t.clean for t in ran)
        always = sum(1 for t in ran if t.named == len(t.ran))
        seconds = [s for t in ran for s in t.inspect_s]
        rows.append(
            f"| {shape} | {len(ran)} ({len(group) - len(ran)}) | {named}/{tries} ({named / max(tries, 1):.0%}) | "
            f"{clean}/{tries} | {always}/{len(ran)} | {median(seconds)} |"
        )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", action="append", default=[], metavar="NAME", help="an entry (repeatable)")
    ap.add_argument("--shape", action="append", default=[], choices=SHAPES, help="the entries of a shape")
    ap.add_argument("--tries", type=int, default=5)
    ap.add_argument("--report-dir", default="", help="where each try's reports go (default: a temp dir)")
    args = ap.parse_args()
    unknown = [n for n in args.only if n not in {b.name for b in CATALOGUE}]
    if unknown:
        ap.error(f"not an entry of the catalogue: {', '.join(unknown)}")
    bugs = [
        b
        for b in CATALOGUE
        if (not args.only or b.name in args.only) and (not args.shape or b.shape in args.shape)
    ]
    report_dir = Path(args.report_dir or tempfile.mkdtemp(prefix="gvlstress-catalogue-"))
    tallies = run(bugs, args.tries, report_dir)
    print(f"## The real-bug catalogue, {args.tries} tries per entry\n")
    print("\n".join(entry_rows(tallies)))
    print("\n## Per shape\n")
    print("\n".join(shape_rows(tallies)))
    print(f"\nreports under {report_dir}")


if __name__ == "__main__":
    main()
