# Look-alike: the same daemon with the console FIFO, but an outside reader starts reading the FIFO 16 s
# after start; the daemon resumes, the job's blocked send() returns and the job ends. CPython 3.11.7.
from app import run

run("pipe-drained-after-16")
