# Look-alike: same parent (runtime started, fork, join); the forked worker does 16 s of arrow-only work and
# does not touch deltalake. deltalake 0.18.2.
import common

if __name__ == "__main__":
    common.run(common.other_work, 16.0)
