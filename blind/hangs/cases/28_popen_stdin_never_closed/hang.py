# pyinfra-dev/pyinfra#1355 / #1506 ("some applications will wait on stdin being closed") and the
# review of paulomac1000/mikrus-mcp#34 ("When stdin_bytes is None, the worker leaves child.stdin
# open and waits for the child. Programs that read until EOF, such as cat, wait indefinitely"):
# the parent gives the child a stdin pipe, never closes it, and waits for the child.
import subprocess
child = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
stdin_bytes = None
if stdin_bytes is not None:
    child.stdin.write(stdin_bytes); child.stdin.close()
print("ready", flush=True)
code = child.wait()
print("done", code)
