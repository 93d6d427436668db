# Control: the same program with tokenizers 0.8.1, which registers an at-fork handler and
# disables parallelism in the forked child ("The current process just got forked...").
import json, os, sys, tempfile
from tokenizers import Tokenizer, models, pre_tokenizers

vocab = {w: i for i, w in enumerate(["[UNK]"] + "the quick brown fox jumps over lazy dog a of and".split())}
path = os.path.join(tempfile.mkdtemp(), "vocab.json")
json.dump(vocab, open(path, "w"))
tok = Tokenizer(models.WordLevel(path, unk_token="[UNK]"))
tok.pre_tokenizer = pre_tokenizers.Whitespace()
batch = ["the quick brown fox jumps over the lazy dog"] * 2000
print("parent", len(tok.encode_batch(batch)), flush=True)
pid = os.fork()
if pid == 0:
    print("ready", flush=True)
    print("child", len(tok.encode_batch(batch)), flush=True)
    os._exit(0)
os.waitpid(pid, 0)
print("done")
