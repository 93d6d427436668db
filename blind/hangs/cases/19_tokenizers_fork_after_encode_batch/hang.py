# huggingface/tokenizers#187 ("python version hangs on encode_batch when run in subprocess"): a
# tokenizer used its (rayon) thread pool in the parent, then the process forks (a DataLoader
# worker, multiprocessing); the child's encode_batch waits for pool threads that were not copied.
# tokenizers 0.7.0 (affected; 0.8 added the at-fork guard that disables parallelism).
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
