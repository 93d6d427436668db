# Control: the documented fix (paramiko's recv_exit_status() warning; nornir#313): read stdout first,
# then ask for the exit status. paramiko 3.4.0 on CPython 3.11.7.
from client import run

run(8 * 1024 * 1024, 0, read_first=True)
