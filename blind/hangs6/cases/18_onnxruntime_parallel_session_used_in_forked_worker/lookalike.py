# Look-alike: the same master and forked worker (session created in the worker); the worker serves
# inferences for 16 s, then ends. onnxruntime 1.17.1 on CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(create_in_child=True, seconds=16.0)
