# Look-alike: the same loop, but the signal is not lost: after the consumers are stopped, the stop
# arms a one-shot 16 s grace timer, and pause() returns when it fires.
import os, signal, subprocess, sys

is_running = True
consumers = []


def on_alarm(signum, frame):
    global is_running
    is_running = False                      # grace period over


def stop_processes(signum, frame):
    for p in consumers:
        p.terminate()
        p.wait()
    signal.setitimer(signal.ITIMER_REAL, 16.0)          # one-shot grace timer
    print("stopped", len(consumers), "consumers", flush=True)


signal.signal(signal.SIGALRM, on_alarm)
signal.signal(signal.SIGTERM, stop_processes)
for i in range(2):
    consumers.append(subprocess.Popen([sys.executable, "-c", "import time; time.sleep(3600)"]))
os.kill(os.getpid(), signal.SIGTERM)
print("ready", flush=True)
while is_running:
    signal.pause()
print("done")
