"""Shape: zstandard compression with 2 worker threads of its own (ZstdCompressor(threads=2)) over
a 32 MB buffer, round-tripped and checked, over and over."""

from __future__ import annotations

import os

import _field
import zstandard


def main() -> None:
    data = os.urandom(1 << 20) * 32
    comp = zstandard.ZstdCompressor(level=3, threads=2)
    decomp = zstandard.ZstdDecompressor()
    assert decomp.decompress(comp.compress(data)) == data
    _field.ready()
    while not _field.over():
        assert len(decomp.decompress(comp.compress(data))) == len(data)


if __name__ == "__main__":
    main()
