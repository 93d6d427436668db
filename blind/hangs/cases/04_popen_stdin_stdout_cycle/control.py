# Control: the fix of ansible#3991: communicate(input) writes and reads at once.
import subprocess, sys
CHILD = ("import sys\n"
         "sys.stdout.write('I am the very model of a modern major general\\n' * 10000); sys.stdout.flush()\n"
         "data = sys.stdin.read()\n"
         "sys.stdout.write(str(len(data)))\n")
p = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
print("ready", flush=True)
out, _ = p.communicate(b"x" * 1000000)
print("done", len(out))
