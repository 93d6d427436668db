# Look-alike: the same worker thread with SIGALRM blocked runs a tool with subprocess.run(); this tool
# does not depend on SIGALRM and takes 16 s, then exits. CPython 3.11.7.
import signal
import subprocess
import sys
import threading

result = {}


def request_handler():
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})      # what the app server does
    print("ready", flush=True)
    result["probe"] = subprocess.run([sys.executable, "pinger.py", "sleep", "16"], capture_output=True, text=True)


worker = threading.Thread(target=request_handler)
worker.start()
worker.join()
print(result["probe"].stdout)
