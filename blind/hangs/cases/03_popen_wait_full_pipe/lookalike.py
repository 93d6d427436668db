# Look-alike: Popen(stdout=PIPE).wait() on a child that writes a little and then works (sleeps)
# for 16 s before it exits: the parent in wait4(), the child holding the pipe.
import subprocess, sys
CHILD = "import sys, time; sys.stdout.write('x' * 1000); sys.stdout.flush(); time.sleep(16)"
p = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
print("ready", flush=True)
p.wait()
print("done", p.returncode, len(p.stdout.read()))
