# MemPalace/mempalace#2221: a directory miner reads every file with a readable extension; one of them
# is a named pipe (FIFO), and open() for reading blocks until some process opens it for writing.
import os, tempfile

corpus = tempfile.mkdtemp(prefix="bh2_23_")
with open(os.path.join(corpus, "real.md"), "w") as f:
    f.write("# notes\n")
os.mkfifo(os.path.join(corpus, "notes.md"))

for name in sorted(os.listdir(corpus)):
    path = os.path.join(corpus, name)
    if name == "notes.md":
        print("ready", flush=True)
    with open(path) as f:           # blocks in open() on the FIFO
        print(name, len(f.read()))
print("done")
