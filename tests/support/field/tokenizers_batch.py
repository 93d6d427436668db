"""Shape: Hugging Face tokenizers: a BPE tokenizer trained in memory (no download), then
encode_batch over 20k sentences over and over (its rayon pool encodes, the GIL released)."""

from __future__ import annotations

import random

import _field
from tokenizers import Tokenizer, models, pre_tokenizers, trainers

WORDS = [
    "the",
    "a",
    "loader",
    "batch",
    "worker",
    "pool",
    "thread",
    "process",
    "genome",
    "variant",
    "region",
    "sample",
    "read",
    "track",
]


def main() -> None:
    rng = random.Random(11)
    text = [" ".join(rng.choice(WORDS) + str(rng.randrange(50)) for _ in range(20)) for _ in range(20_000)]
    tok = Tokenizer(models.BPE(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(text[:5000], trainers.BpeTrainer(vocab_size=2000, special_tokens=["[UNK]"]))
    assert len(tok.encode_batch(text[:100])) == 100
    _field.ready()
    while not _field.over():
        assert len(tok.encode_batch(text)) == len(text)


if __name__ == "__main__":
    main()
