"""Pictures for reports (matplotlib, the [plot] extra): the sweep's hazard heatmap."""

from __future__ import annotations

from pathlib import Path

from gvlstress.model.campaign import SweepResult


def available() -> bool:
    """Is matplotlib importable (the [plot] extra)?"""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def heatmap(result: SweepResult, path: Path) -> bool:
    """hangs per 1000 batches, workers x threads, one panel per amplifier; False without matplotlib."""
    if not available():
        return False
    import matplotlib

    matplotlib.use("Agg")  # files only: never a display
    import matplotlib.pyplot as plt

    amps = result.amplifiers
    fig, axes = plt.subplots(
        1,
        len(amps),
        figsize=(1.2 + 1.3 * len(result.rayon) * len(amps), 1.4 + 0.8 * len(result.workers)),
        squeeze=False,
    )
    cells = {(c.amplifier, c.workers, c.rayon): c for c in result.cells}
    top = max((1000 * c.hazard.p for c in result.cells), default=0.0) or 1.0
    image = None
    for ax, amp in zip(axes[0], amps, strict=True):
        grid = [
            [
                1000 * cells[(amp, w, r)].hazard.p if (amp, w, r) in cells else float("nan")
                for r in result.rayon
            ]
            for w in result.workers
        ]
        image = ax.imshow(grid, cmap="magma_r", vmin=0, vmax=top, origin="lower", aspect="auto")
        ax.set_xticks(range(len(result.rayon)), [str(r) for r in result.rayon])
        ax.set_yticks(range(len(result.workers)), [str(w) for w in result.workers])
        ax.set_xlabel("threads per pool")
        ax.set_ylabel("workers")
        ax.set_title(f"amplifier: {amp}")
        for i, w in enumerate(result.workers):
            for j, r in enumerate(result.rayon):
                c = cells.get((amp, w, r))
                if c is None:
                    continue
                value = 1000 * c.hazard.p
                ax.text(
                    j,
                    i,
                    f"{value:.1f}\n{c.hung}/{c.waves}",
                    ha="center",
                    va="center",
                    fontsize=8,
                    color="white" if value > top / 2 else "black",
                )
    if image is not None:
        fig.colorbar(image, ax=axes[0].tolist(), label="hangs per 1000 batches")
    fig.suptitle(
        f"{result.base.target}, fault {result.base.fault}: hangs per 1000 batches (hung/waves)", y=1.06
    )
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return True
