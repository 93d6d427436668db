# antirez/hping#61 ("hping had better reset signal mask to ensure SIGALRM is unblocked"): a Python web
# app under uWSGI ran hping3 with subprocess; uWSGI blocks SIGALRM in its threads, fork()+exec() keep
# the signal mask, so the tool started with SIGALRM blocked: its alarm() never interrupts pause() and it
# hung forever, and so did the app waiting for it. Here the app's worker thread blocks SIGALRM as the
# server does (pthread_sigmask) and runs the probe tool with subprocess.run(); CPython 3.11.7.
import signal
import subprocess
import sys
import threading

result = {}


def request_handler():
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})      # what the app server does
    print("ready", flush=True)
    result["probe"] = subprocess.run([sys.executable, "pinger.py", "alarm"], capture_output=True, text=True)


worker = threading.Thread(target=request_handler)
worker.start()
worker.join()
print(result["probe"].stdout)
