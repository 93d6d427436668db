import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CTL = os.path.join(os.path.dirname(sys.executable), "supervisorctl")


def run(delay: float) -> None:
    tmp = tempfile.mkdtemp(prefix="supv-")
    sock = os.path.join(tmp, "supervisor.sock")
    conf = os.path.join(tmp, "supervisord.conf")
    with open(conf, "w") as f:
        f.write(f"[supervisorctl]\nserverurl=unix://{sock}\n")
    daemon = subprocess.Popen([sys.executable, os.path.join(HERE, "fakesupervisord.py"), sock, str(delay)],
                              stdout=subprocess.PIPE, text=True)
    try:
        daemon.stdout.readline()
        print("ready", flush=True)
        # the deploy script restarts the training worker through supervisorctl (no timeout)
        r = subprocess.run([CTL, "-c", conf, "start", "train-worker"], capture_output=True, text=True)
        print("supervisorctl:", r.returncode, r.stdout.strip(), r.stderr.strip()[-200:], flush=True)
    finally:
        daemon.kill()
        daemon.wait()
