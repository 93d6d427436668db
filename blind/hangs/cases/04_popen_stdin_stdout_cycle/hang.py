# ansible/ansible#3991: writing a large input to a child's stdin while the child first writes a
# large output to its stdout (which nobody reads yet): parent blocks in write() on the stdin pipe,
# child blocks in write() on the stdout pipe.
import subprocess, sys
CHILD = ("import sys\n"
         "sys.stdout.write('I am the very model of a modern major general\\n' * 10000); sys.stdout.flush()\n"
         "data = sys.stdin.read()\n"
         "sys.stdout.write(str(len(data)))\n")
p = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
print("ready", flush=True)
p.stdin.write(b"x" * 1000000)
p.stdin.close()
out = p.stdout.read()
p.wait()
print("done", len(out))
