# gmr/rejected#89 (MCP run() has a lost-wakeup race between the is_running check and signal.pause()):
# SIGTERM arrives after the `while is_running` check and before pause(); the handler stops the
# consumer processes, cancels the interval timer and ignores SIGCHLD/SIGALRM; then pause() waits
# with no signal source left in the tree (only an outside signal would end it). CPython 3.11.7.
# The window is made deterministic: the SIGTERM is sent from inside the loop, after the check.
import os, signal, subprocess, sys

is_running = True
consumers = []


def on_alarm(signum, frame):
    pass                                   # the MCP's periodic poll of its consumers


def stop_processes(signum, frame):
    global is_running
    for p in consumers:
        p.terminate()
        p.wait()
    signal.setitimer(signal.ITIMER_REAL, 0)            # cancel the poll timer
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    is_running = False
    print("stopped", len(consumers), "consumers", flush=True)
    print("ready", flush=True)


signal.signal(signal.SIGALRM, on_alarm)
signal.signal(signal.SIGTERM, stop_processes)
for i in range(2):
    consumers.append(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"]))
signal.setitimer(signal.ITIMER_REAL, 1.0, 1.0)
first = True
while is_running:
    if first:                               # SIGTERM lands between the check and pause()
        first = False
        os.kill(os.getpid(), signal.SIGTERM)
    signal.pause()
print("done")
