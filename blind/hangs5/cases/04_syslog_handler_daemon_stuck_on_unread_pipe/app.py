import logging
import logging.handlers
import os
import subprocess
import sys
import tempfile


def run(mode):
    path = os.path.join(tempfile.mkdtemp(prefix="devlog-"), "log")
    starter = subprocess.Popen([sys.executable, "syslogd.py", path, mode], stdout=subprocess.PIPE, text=True)
    print(starter.stdout.readline().strip(), flush=True)
    starter.wait()
    log = logging.getLogger("etl")
    log.setLevel(logging.INFO)
    handler = logging.handlers.SysLogHandler(address=path)
    log.addHandler(handler)
    print("ready", flush=True)
    for i in range(3000):
        log.info("etl batch %d loaded %s", i, "x" * 150)
    handler.socket.send(b"__quit__\x00")
    print("etl done", flush=True)
