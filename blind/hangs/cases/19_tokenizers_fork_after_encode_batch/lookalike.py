# Look-alike: same tokenizer and batch; a forked child (the parent waits for it in waitpid) runs a
# long encode_batch on its own fresh pool, because the parent never used the pool before the fork.
import json, os, sys, tempfile
from tokenizers import Tokenizer, models, pre_tokenizers

vocab = {w: i for i, w in enumerate(["[UNK]"] + "the quick brown fox jumps over lazy dog a of and".split())}
path = os.path.join(tempfile.mkdtemp(), "vocab.json")
json.dump(vocab, open(path, "w"))
tok = Tokenizer(models.WordLevel(path, unk_token="[UNK]"))
tok.pre_tokenizer = pre_tokenizers.Whitespace()
batch = ["the quick brown fox jumps over the lazy dog"] * 2000
print("parent", len(tok.encode([batch[0]][0]).ids), flush=True)
pid = os.fork()
if pid == 0:
    print("ready", flush=True)
    import time
    t0 = time.time(); n = 0
    while time.time() - t0 < 16:
        n += len(tok.encode_batch(batch))
    print("child", n, flush=True)
    os._exit(0)
os.waitpid(pid, 0)
print("done")
