# localstack/localstack#1101 (and google/turbinia#945): Popen(stdout=PIPE).wait() on a child that
# writes more than the pipe holds: the child blocks in write(), the parent in wait4().
import subprocess, sys
CHILD = "import sys; sys.stdout.write('x' * (1 << 20)); sys.stdout.flush()"
p = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
print("ready", flush=True)
p.wait()
print("done", p.returncode)
