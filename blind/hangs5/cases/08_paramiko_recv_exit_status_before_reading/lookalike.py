# Look-alike: the same call order (exit status first, paramiko 3.4.0, CPython 3.11.7), but the command's
# output is small (40 KB, within the window) and the command takes 16 s before it exits.
from client import run

run(40 * 1024, 16, read_first=False)
