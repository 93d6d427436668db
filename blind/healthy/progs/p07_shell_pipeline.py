# interpreter: blind
# shape: a CI/data step running a shell-style pipeline: generator | sort | uniq -c | gzip > file, then sha256sum;
# the generator is slow and bursty (a log being produced)
import subprocess
import sys
import tempfile
import os

GEN = r'''
import random, sys, time
r = random.Random(0)
t_end = time.monotonic() + 30
while time.monotonic() < t_end:
    for _ in range(r.choice([10, 2000])):
        sys.stdout.write(f"user{r.randrange(500)} action{r.randrange(20)}\n")
    sys.stdout.flush()
    time.sleep(r.choice([0.1, 2.0, 5.0]))
'''


def main() -> int:
    print("ready", flush=True)
    d = tempfile.mkdtemp(prefix="bh-pipe-")
    out = os.path.join(d, "counts.gz")
    with open(out, "wb") as fh:
        gen = subprocess.Popen([sys.executable, "-c", GEN], stdout=subprocess.PIPE)
        srt = subprocess.Popen(["sort"], stdin=gen.stdout, stdout=subprocess.PIPE)
        assert gen.stdout is not None
        gen.stdout.close()
        uniq = subprocess.Popen(["uniq", "-c"], stdin=srt.stdout, stdout=subprocess.PIPE)
        assert srt.stdout is not None
        srt.stdout.close()
        gz = subprocess.Popen(["gzip", "-c"], stdin=uniq.stdout, stdout=fh)
        assert uniq.stdout is not None
        uniq.stdout.close()
        codes = [p.wait(timeout=120) for p in (gen, srt, uniq, gz)]
    assert codes == [0, 0, 0, 0], codes
    r = subprocess.run(["sha256sum", out], capture_output=True, text=True, timeout=30, check=True)
    print(r.stdout.split()[0], flush=True)
    subprocess.run(["sleep", "4"], timeout=30, check=True)  # a CI step's fixed wait
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
