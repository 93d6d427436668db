# Look-alike: the same miner, while a child process opens the FIFO for writing 16 s later.
import os, subprocess, sys, tempfile

corpus = tempfile.mkdtemp(prefix="bh2_23l_")
with open(os.path.join(corpus, "real.md"), "w") as f:
    f.write("# notes\n")
fifo = os.path.join(corpus, "notes.md")
os.mkfifo(fifo)
writer = subprocess.Popen([sys.executable, "-c",
    "import sys, time; time.sleep(16); open(sys.argv[1], 'w').write('hello\\n')", fifo])

for name in sorted(os.listdir(corpus)):
    path = os.path.join(corpus, name)
    if name == "notes.md":
        print("ready", flush=True)
    with open(path) as f:
        print(name, len(f.read()))
writer.wait()
print("done")
