# Look-alike: same capture with wurlitzer 2.1.1, a small report (10 kB, fits the pipe) and a native call that
# works for 16 s inside the block; then the block exits and the report is read.
from common import run

if __name__ == "__main__":
    run(nbytes=10_000, seconds=16)
