# paramiko/paramiko#448 ("channel.recv_exit_status() hanging" with large output) and nornir-automation/
# nornir#313 ("remote_command hangs when receiving a large amount of output"): the caller waits for the
# exit status before reading stdout; the remote command writes more than the channel's window (2 MB),
# paramiko only re-opens the window as the application reads, so the remote command blocks writing and
# never exits, and recv_exit_status() waits forever. paramiko 3.4.0 on CPython 3.11.7; the SSH server
# (paramiko's server mode) runs in a child process.
from client import run

run(8 * 1024 * 1024, 0, read_first=False)
