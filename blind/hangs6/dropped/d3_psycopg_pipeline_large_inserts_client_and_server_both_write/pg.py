import os
import pwd
import socket
import subprocess
import tempfile
import time

BIN = "/usr/lib/postgresql/15/bin"


def start_postgres():
    """A throw-away PostgreSQL 15 server (Debian), as a child process on a free loopback port."""
    pw = pwd.getpwnam("postgres")
    d = tempfile.mkdtemp(prefix="pg-")
    os.chown(d, pw.pw_uid, pw.pw_gid)
    subprocess.run([f"{BIN}/initdb", "-D", f"{d}/data", "-A", "trust", "-U", "postgres"], user="postgres",
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, timeout=120)
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    proc = subprocess.Popen([f"{BIN}/postgres", "-D", f"{d}/data", "-k", d, "-p", str(port),
                             "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "dynamic_shared_memory_type=mmap"], user="postgres",
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(300):
        r = subprocess.run([f"{BIN}/pg_isready", "-h", "127.0.0.1", "-p", str(port)], stdout=subprocess.DEVNULL)
        if r.returncode == 0:
            return proc, f"postgresql://postgres@127.0.0.1:{port}/postgres"
        time.sleep(0.1)
    raise RuntimeError("postgres did not start")
