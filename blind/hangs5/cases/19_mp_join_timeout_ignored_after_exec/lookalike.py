# Look-alike: the same multiprocessing worker that execs the server and the same join(timeout=2)
# (CPython 3.11.7); this server stops by itself after 16 s, so join() returns then.
from supervisor import run

if __name__ == '__main__':
    run(use_subprocess=False, extra=['16'])
