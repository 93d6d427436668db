# Control: the fix asked for in antirez/hping#61, done from the caller: the child's signal mask is reset
# before exec (preexec_fn unblocks every signal), so the tool's alarm() ticks arrive and it exits after
# 3 probes. CPython 3.11.7.
import signal
import subprocess
import sys
import threading

result = {}


def reset_mask():
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def request_handler():
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})      # what the app server does
    print("ready", flush=True)
    result["probe"] = subprocess.run([sys.executable, "pinger.py", "alarm"], capture_output=True, text=True,
                                     preexec_fn=reset_mask)


worker = threading.Thread(target=request_handler)
worker.start()
worker.join()
print(result["probe"].stdout)
