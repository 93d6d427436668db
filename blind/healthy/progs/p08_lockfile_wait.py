# interpreter: blind
# shape: a job that waits (blocking flock) on a lock file another live process holds for a while,
# as concurrent CI jobs sharing a cache directory do; three rounds
import fcntl
import os
import subprocess
import sys
import tempfile
import time

HOLDER = r'''
import fcntl, sys, time
fh = open(sys.argv[1], "a+")
fcntl.flock(fh, fcntl.LOCK_EX)
print("locked", flush=True)
time.sleep(float(sys.argv[2]))  # e.g. rebuilding the shared cache
fh.write("rebuilt\n"); fh.flush()
fcntl.flock(fh, fcntl.LOCK_UN)
'''


def main() -> int:
    print("ready", flush=True)
    d = tempfile.mkdtemp(prefix="bh-lock-")
    lock = os.path.join(d, "cache.lock")
    for rnd, hold in enumerate([9.0, 12.0, 8.0]):
        holder = subprocess.Popen([sys.executable, "-c", HOLDER, lock, str(hold)], stdout=subprocess.PIPE, text=True)
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "locked"
        t0 = time.monotonic()
        with open(lock, "a+") as fh:
            fcntl.flock(fh, fcntl.LOCK_EX)  # blocks until the holder is done
            waited = time.monotonic() - t0
            fh.seek(0)
            n = len(fh.readlines())
            fcntl.flock(fh, fcntl.LOCK_UN)
        holder.wait(timeout=30)
        print(f"round {rnd}: waited {waited:.1f}s, {n} lines", flush=True)
    print("done", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
