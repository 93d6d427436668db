# Control: the fix proposed in mikrus-mcp#34 / pyinfra#1506: always close the child's stdin before
# waiting.
import subprocess
child = subprocess.Popen(["cat"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
stdin_bytes = None
if stdin_bytes is not None:
    child.stdin.write(stdin_bytes)
child.stdin.close()
print("ready", flush=True)
code = child.wait()
print("done", code)
