# Control: the fix of #101081 applied at the call site: the task catches BaseException and returns
# it, so the worker survives and apply() gets an answer.
import multiprocessing as mp, sys

def convert(path):
    sys.exit(f"cannot convert {path}")

def guarded(path):
    try:
        return convert(path)
    except BaseException as e:
        return f"failed: {e!r}"

if __name__ == "__main__":
    with mp.Pool(1) as pool:
        print("ready", flush=True)
        print(pool.apply(guarded, ("a.bin",)))
