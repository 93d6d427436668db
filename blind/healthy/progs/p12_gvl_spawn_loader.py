# interpreter: work
# shape: a genomics training job: builds a small genvarloader dataset (FASTA + VCF -> gvl.write), then two
# spawn workers each open it and read haplotype batches for several "epochs" (rayon pools in each worker),
# with a validation pause between epochs; the launcher waits on the futures
import concurrent.futures as cf
import multiprocessing as mp
import os
import sys
import tempfile
import time

BASES = "ACGT"


def build(out: str) -> tuple[str, str]:
    import genoray
    import genvarloader as gvl
    import numpy as np
    import polars as pl
    import pysam

    rng = np.random.default_rng(0)
    contigs = {f"chr{i + 1}": "".join(BASES[b] for b in rng.integers(0, 4, 60_000)) for i in range(3)}
    fasta = os.path.join(out, "ref.fa")
    with open(fasta, "w") as fh:
        for name, seq in contigs.items():
            fh.write(f">{name}\n")
            for i in range(0, len(seq), 60):
                fh.write(seq[i : i + 60] + "\n")
    pysam.faidx(fasta)
    samples = [f"s{i}" for i in range(16)]
    lines = ["##fileformat=VCFv4.2"]
    lines += [f"##contig=<ID={n},length={len(s)}>" for n, s in contigs.items()]
    lines.append('##FORMAT=<ID=GT,Number=1,Type=String,Description="Genotype">')
    lines.append("\t".join(["#CHROM", "POS", "ID", "REF", "ALT", "QUAL", "FILTER", "INFO", "FORMAT", *samples]))
    for name, seq in contigs.items():
        pos = 20
        while pos < len(seq) - 30:
            ref = seq[pos]
            alt = BASES[(BASES.index(ref) + 1 + int(rng.integers(0, 3))) % 4]
            gts = [f"{a}|{b}" for a, b in rng.integers(0, 2, (len(samples), 2))]
            lines.append("\t".join([name, str(pos + 1), ".", ref, alt, ".", "PASS", ".", "GT", *gts]))
            pos += 15 + int(rng.integers(0, 200))
    vcf = os.path.join(out, "v.vcf")
    with open(vcf, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    pysam.tabix_compress(vcf, vcf + ".gz", force=True)
    pysam.tabix_index(vcf + ".gz", preset="vcf", force=True)
    n = 400
    chroms = [list(contigs)[i % 3] for i in range(n)]
    starts = [int(rng.integers(0, 60_000 - 1100)) for _ in chroms]
    bed = pl.DataFrame({"chrom": chroms, "chromStart": starts, "chromEnd": [s + 1000 for s in starts]})
    ds_path = os.path.join(out, "ds.gvl")
    gvl.write(path=ds_path, bed=bed, variants=genoray.VCF(vcf + ".gz"), max_jitter=2, overwrite=True)
    gvl.Dataset.open(ds_path, reference=fasta)
    return ds_path, fasta


def epoch(ds_path: str, fasta: str, seed: int) -> int:
    import genvarloader as gvl
    import numpy as np

    ds = gvl.Dataset.open(ds_path, reference=fasta).with_seqs("haplotypes")
    rng = np.random.default_rng(seed)
    n_regions = ds.shape[0]
    got = 0
    t_end = time.monotonic() + 5
    while time.monotonic() < t_end:
        r0 = int(rng.integers(0, n_regions - 32))
        batch = ds[r0 : r0 + 32, :]
        got += 1
    time.sleep(3.0)  # validation on the accelerator: this process waits
    return got


def main() -> int:
    os.environ.setdefault("LOGURU_LEVEL", "WARNING")
    print("ready", flush=True)
    d = tempfile.mkdtemp(prefix="bh-gvl-")
    ds_path, fasta = build(d)
    print("dataset built", flush=True)
    total = 0
    deadline = time.monotonic() + 30
    with cf.ProcessPoolExecutor(2, mp_context=mp.get_context("spawn")) as ex:
        ep = 0
        while time.monotonic() < deadline:
            futs = [ex.submit(epoch, ds_path, fasta, ep * 2 + k) for k in range(2)]
            total += sum(f.result(timeout=120) for f in futs)
            print(f"epoch {ep}: {total} batches", flush=True)
            ep += 1
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
