# Look-alike: no shard fails, nothing is cancelled; shard 1 takes 16 s and wait() returns when every shard is
# converted. CPython 3.13.0.
from common import run

if __name__ == "__main__":
    run(slow=16.0, drop_cancelled=False)
