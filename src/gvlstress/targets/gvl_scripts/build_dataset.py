"""Build a synthetic genvarloader dataset; run by the interpreter that has genvarloader.

Standalone on purpose (no gvlstress imports): with ``--python`` the workers' interpreter may be a
virtual environment where only genvarloader is installed, and the dataset must be written by
the genvarloader version that will read it. Prints one JSON object on stdout.

    python build_dataset.py OUT_DIR '{"seed": 0, "samples": 8, ...}'

The recipe (works unchanged on 0.36.0 and 0.43.1): random ACGT contigs in a 60-column FASTA
indexed by pysam; a bgzipped, tabix-indexed VCF of biallelic, non-overlapping SNPs and short
indels with phased genotypes; a regions table; optional bigWig tracks per sample;
``genvarloader.write`` with ``max_jitter=2``; then one ``Dataset.open`` to build the reference
cache before any worker starts (the first open writes ``*.gvlfa`` next to the FASTA).
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

BASES = "ACGT"


def _fasta(path: Path, contigs: dict[str, str]) -> None:
    with path.open("w") as fh:
        for name, seq in contigs.items():
            fh.write(f">{name}\n")
            for i in range(0, len(seq), 60):
                fh.write(seq[i : i + 60] + "\n")


def _vcf(path: Path, contigs: dict[str, str], samples: list[str], per_contig: int, rng: Any) -> int:
    lines = ["##fileformat=VCFv4.2"]
    lines += [f"##contig=<ID={name},length={len(seq)}>" for name, seq in contigs.items()]
    lines.append('##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">')
    lines.append(
        "\t".join(["#CHROM", "POS", "ID", "REF", "ALT", "QUAL", "FILTER", "INFO", "FORMAT", *samples])
    )
    records = 0
    for name, seq in contigs.items():
        mean_gap = max(12, len(seq) // max(1, per_contig))
        pos = int(rng.integers(10, mean_gap))
        while pos < len(seq) - 20:
            roll = rng.random()
            if roll < 0.8:  # SNP
                ref = seq[pos]
                alt = BASES[(BASES.index(ref) + int(rng.integers(1, 4))) % 4]
            elif roll < 0.9:  # deletion: anchor base + deleted bases
                d = int(rng.integers(1, 6))
                ref, alt = seq[pos : pos + 1 + d], seq[pos]
            else:  # insertion: anchor base + inserted bases
                ref = seq[pos]
                alt = ref + "".join(BASES[int(b)] for b in rng.integers(0, 4, int(rng.integers(1, 6))))
            gts = [f"{int(a)}|{int(b)}" for a, b in rng.integers(0, 2, (len(samples), 2))]
            lines.append("\t".join([name, str(pos + 1), ".", ref, alt, ".", "PASS", ".", "GT", *gts]))
            records += 1
            pos += len(ref) + 10 + int(rng.integers(0, 2 * mean_gap))  # >= 10 bp apart, non-overlapping
    path.write_text("\n".join(lines) + "\n")
    return records


def _bigwigs(out: Path, contigs: dict[str, str], samples: list[str], rng: Any) -> dict[str, str]:
    import pyBigWig

    paths = {}
    for s in samples:
        p = out / f"{s}.bw"
        bw = pyBigWig.open(str(p), "w")
        bw.addHeader([(name, len(seq)) for name, seq in contigs.items()])
        for name, seq in contigs.items():
            starts = list(range(0, len(seq) - 100, 100))
            values = [float(v) for v in rng.random(len(starts))]
            bw.addEntries([name] * len(starts), starts, ends=[x + 100 for x in starts], values=values)
        bw.close()
        paths[s] = str(p)
    return paths


def build(out: Path, p: dict[str, Any]) -> dict[str, Any]:
    started = time.monotonic()
    import genoray
    import genvarloader as gvl
    import numpy as np
    import polars as pl
    import pysam

    rng = np.random.default_rng(int(p["seed"]))
    out.mkdir(parents=True, exist_ok=True)
    contigs = {
        f"chr{i + 1}": "".join(BASES[int(b)] for b in rng.integers(0, 4, int(p["contig_len"])))
        for i in range(int(p["contigs"]))
    }
    fasta = out / "ref.fa"
    _fasta(fasta, contigs)
    pysam.faidx(str(fasta))
    samples = [f"s{i}" for i in range(int(p["samples"]))]
    vcf = out / "variants.vcf"
    records = _vcf(vcf, contigs, samples, int(p["variants_per_contig"]), rng)
    vcf_gz = out / "variants.vcf.gz"
    pysam.tabix_compress(str(vcf), str(vcf_gz), force=True)
    pysam.tabix_index(str(vcf_gz), preset="vcf", force=True)
    n, length = int(p["regions"]), int(p["region_len"])
    names = list(contigs)
    chroms = [names[i % len(names)] for i in range(n)]
    starts = [int(rng.integers(0, len(contigs[c]) - length - 10)) for c in chroms]
    bed = pl.DataFrame({"chrom": chroms, "chromStart": starts, "chromEnd": [s + length for s in starts]})
    tracks = None
    if p.get("tracks"):
        tracks = gvl.BigWigs("signal", _bigwigs(out, contigs, samples, rng))
    dataset = out / "dataset.gvl"  # next to the VCF: 0.36.0 hard-links genoray's index into it
    gvl.write(
        path=dataset, bed=bed, variants=genoray.VCF(vcf_gz), tracks=tracks, max_jitter=2, overwrite=True
    )
    ds = gvl.Dataset.open(dataset, reference=fasta)  # builds the reference cache once, here
    return {
        "dataset": str(dataset),
        "reference": str(fasta),
        "genvarloader": str(gvl.__version__),
        "regions": int(ds.shape[0]) if hasattr(ds, "shape") else n,
        "samples": len(samples),
        "variants": records,
        "tracks": bool(tracks),
        "build_s": round(time.monotonic() - started, 2),
    }


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        sys.stderr.write("usage: build_dataset.py OUT_DIR PARAMS_JSON\n")
        return 2
    os.environ.setdefault("LOGURU_LEVEL", "WARNING")
    result = build(Path(argv[1]), json.loads(argv[2]))
    sys.stdout.write(json.dumps(result) + "\n")  # the protocol: one JSON line
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
