# Control: the documented fix: create the session after fork, in the worker; its run() uses the worker's own
# thread pools. onnxruntime 1.17.1 on CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(create_in_child=True)
