# Look-alike: the same Popen with a preexec_fn; the preexec_fn takes 16 s (it waits for a
# resource with a timed sleep) before the child execs; the parent waits in os.read(errpipe).
import subprocess, threading, time

def slow_preexec():
    time.sleep(16)

print("ready", flush=True)
p = subprocess.Popen(["true"], preexec_fn=slow_preexec)
print("spawned", p.pid, p.wait())
