# Look-alike: the parent writes a large input to the child's stdin and blocks in write() while the
# child consumes it slowly (it sleeps between reads), then the parent reads the output.
import subprocess, sys
CHILD = ("import sys, time\n"
         "n = 0\n"
         "while True:\n"
         "    b = sys.stdin.buffer.read(65536)\n"
         "    if not b: break\n"
         "    n += len(b); time.sleep(1.0)\n"
         "sys.stdout.write('I am the very model of a modern major general\\n' * 10000 + str(n))\n")
p = subprocess.Popen([sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
print("ready", flush=True)
p.stdin.write(b"x" * 1000000)
p.stdin.close()
out = p.stdout.read()
p.wait()
print("done", len(out))
