"""A user's own genvarloader dataset, made as a user makes one: a FASTA, a VCF, a BED of regions
with names and strands, one bigWig per sample, then ``genvarloader.write`` by the genvarloader
installed here. Small (two contigs of 120 kb, 6 samples, 60 regions): a few seconds to write."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

BASES = "ACGT"


def _fasta(path: Path, contigs: dict[str, str]) -> None:
    with path.open("w") as fh:
        for name, seq in contigs.items():
            fh.write(f">{name}\n")
            fh.writelines(seq[i : i + 70] + "\n" for i in range(0, len(seq), 70))


def _vcf(path: Path, contigs: dict[str, str], samples: list[str], rng: Any) -> None:
    head = ["##fileformat=VCFv4.2", *(f"##contig=<ID={c},length={len(s)}>" for c, s in contigs.items())]
    head.append('##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">')
    head.append(
        "\t".join(["#CHROM", "POS", "ID", "REF", "ALT", "QUAL", "FILTER", "INFO", "FORMAT", *samples])
    )
    body = []
    for name, seq in contigs.items():
        pos = 50
        while pos < len(seq) - 50:
            if rng.random() < 0.85:
                ref = seq[pos]
                alt = BASES[(BASES.index(ref) + 1 + int(rng.integers(0, 3))) % 4]
            else:  # a deletion: the anchor base and what follows
                ref, alt = seq[pos : pos + 3], seq[pos]
            gts = "\t".join(f"{a}|{b}" for a, b in rng.integers(0, 2, (len(samples), 2)))
            body.append(f"{name}\t{pos + 1}\t.\t{ref}\t{alt}\t.\tPASS\t.\tGT\t{gts}")
            pos += len(ref) + 20 + int(rng.integers(0, 120))
    path.write_text("\n".join(head + body) + "\n")


def make(out: Path, seed: int = 7) -> dict[str, str]:
    """Files and a dataset in `out`; the paths a user would pass (dataset, reference, vcf)."""
    import genoray
    import genvarloader as gvl
    import numpy as np
    import polars as pl
    import pyBigWig
    import pysam

    rng = np.random.default_rng(seed)
    out.mkdir(parents=True, exist_ok=True)
    contigs = {f"chr{i}": "".join(BASES[b] for b in rng.integers(0, 4, 120_000)) for i in (1, 2)}
    fasta = out / "genome.fa"
    _fasta(fasta, contigs)
    pysam.faidx(str(fasta))
    samples = [f"donor{i}" for i in range(6)]
    vcf = out / "calls.vcf"
    _vcf(vcf, contigs, samples, rng)
    pysam.tabix_compress(str(vcf), str(vcf) + ".gz", force=True)
    pysam.tabix_index(str(vcf) + ".gz", preset="vcf", force=True)
    tracks = {}
    for s in samples:
        bw = pyBigWig.open(str(out / f"{s}.bw"), "w")
        bw.addHeader([(c, len(q)) for c, q in contigs.items()])
        for c, q in contigs.items():
            starts = list(range(0, len(q) - 50, 50))
            bw.addEntries(
                [c] * len(starts), starts, ends=[x + 50 for x in starts], values=list(rng.random(len(starts)))
            )
        bw.close()
        tracks[s] = str(out / f"{s}.bw")
    chroms = ["chr1", "chr2"] * 30
    starts = [int(x) for x in rng.integers(1_000, 110_000, len(chroms))]
    bed = pl.DataFrame(
        {
            "chrom": chroms,
            "chromStart": starts,
            "chromEnd": [s + 1000 for s in starts],
            "name": [f"peak{i}" for i in range(len(chroms))],
            "strand": ["+", "-"] * 30,
        }
    )
    dataset = out / "peaks.gvl"
    with warnings.catch_warnings():  # polars' deprecation inside genvarloader.write: not ours
        warnings.simplefilter("ignore", DeprecationWarning)
        gvl.write(
            path=dataset,
            bed=bed,
            variants=genoray.VCF(str(vcf) + ".gz"),
            tracks=gvl.BigWigs("coverage", tracks),
            max_jitter=4,
            overwrite=True,
        )
    return {"dataset": str(dataset), "reference": str(fasta), "vcf": str(vcf) + ".gz"}
