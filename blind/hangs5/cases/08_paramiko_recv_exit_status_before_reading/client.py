import subprocess
import sys

import paramiko


def run(size, pause, read_first):
    sshd = subprocess.Popen([sys.executable, "sshd.py", str(size), str(pause)], stdout=subprocess.PIPE, text=True)
    port = int(sshd.stdout.readline())
    client = paramiko.SSHClient()
    client.set_missing_host_key_policy(paramiko.AutoAddPolicy())
    client.connect("127.0.0.1", port=port, username="ops", password="x", look_for_keys=False, allow_agent=False)
    stdin, stdout, stderr = client.exec_command("show ip route")
    print("ready", flush=True)
    if read_first:                                  # the fix: read the output, then the status
        out = stdout.read()
        status = stdout.channel.recv_exit_status()
    else:
        status = stdout.channel.recv_exit_status()  # waits for the exit status first
        out = stdout.read()
    print("exit", status, "bytes", len(out), flush=True)
    client.close()
    sshd.wait()
