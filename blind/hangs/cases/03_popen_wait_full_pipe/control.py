# Control: the fix from localstack#1101 / the docs: communicate() drains the pipe while waiting.
import subprocess, sys
CHILD = "import sys; sys.stdout.write('x' * (1 << 20)); sys.stdout.flush()"
p = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
print("ready", flush=True)
out, err = p.communicate()
print("done", p.returncode, len(out))
