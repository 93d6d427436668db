# Control: the fix suggested in rejected#89: wait with a timeout (signal.sigtimedwait) and re-check
# is_running each time, instead of pause(); the loop ends after the stop.
import os, signal, subprocess, sys

is_running = True
consumers = []


def on_alarm(signum, frame):
    pass


def stop_processes(signum, frame):
    global is_running
    for p in consumers:
        p.terminate()
        p.wait()
    signal.setitimer(signal.ITIMER_REAL, 0)
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
    if first:
        first = False
        os.kill(os.getpid(), signal.SIGTERM)
    signal.sigtimedwait([signal.SIGUSR1], 0.25)
print("done")
