import os
import pty
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def run(slow: float, terminal_prompt: bool) -> None:
    srv = subprocess.Popen([sys.executable, os.path.join(HERE, "gitserver.py"), str(slow)], stdout=subprocess.PIPE)
    try:
        port = int(srv.stdout.readline())
        env = dict(os.environ, HOME=os.path.join(HERE, ".home"), GIT_CONFIG_NOSYSTEM="1")
        env.pop("GIT_ASKPASS", None)
        env.pop("SSH_ASKPASS", None)
        if not terminal_prompt:
            env["GIT_TERMINAL_PROMPT"] = "0"
        os.makedirs(env["HOME"], exist_ok=True)
        pid, master = pty.fork()                   # the runner gives the build a terminal (for colours)
        if pid == 0:
            os.execve(sys.executable, [sys.executable, os.path.join(HERE, "build.py"),
                                       f"http://127.0.0.1:{port}/models.git"], env)
        time.sleep(1.0)
        print("ready", flush=True)
        log = b""
        while True:                                # stream the build log until the terminal closes
            try:
                chunk = os.read(master, 4096)
            except OSError:                        # EIO: every slave fd closed
                break
            if not chunk:
                break
            log += chunk
        _, status = os.waitpid(pid, 0)
        print("runner: build log:", log.decode(errors="replace").replace("\r", "").strip().splitlines()[-1:],
              "status", status, flush=True)
    finally:
        srv.kill()
        srv.wait()
