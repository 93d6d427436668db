# Control: the usual fix for the mutual write lockup: the client sends from a thread while its main
# thread reads the response, so both directions drain. CPython 3.11.7.
from client import run

run(64 * 1024 * 1024, threaded=True)
