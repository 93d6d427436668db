# Control: the fixed release deltalake 0.19.0 (delta-io/delta-rs#2765 "fail fast on forked process"): the forked
# worker raises a PanicException ("Forked process detected ...") instead of waiting; the worker exits with 1 and
# the parent ends.
import common

if __name__ == "__main__":
    common.run(common.count_rows, None)
