# Control: the fix of #2221: skip anything that is not a regular file.
import os, stat, tempfile

corpus = tempfile.mkdtemp(prefix="bh2_23c_")
with open(os.path.join(corpus, "real.md"), "w") as f:
    f.write("# notes\n")
os.mkfifo(os.path.join(corpus, "notes.md"))

print("ready", flush=True)
for name in sorted(os.listdir(corpus)):
    path = os.path.join(corpus, name)
    if not stat.S_ISREG(os.stat(path).st_mode):
        print("skip", name)
        continue
    with open(path) as f:
        print(name, len(f.read()))
print("done")
