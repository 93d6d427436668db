# Control: the fix of hermes-agent#12647: read with select() and stop shortly after the command
# itself exits, even if a background descendant still holds the pipe.
import os, select, subprocess, time
print("ready", flush=True)
p = subprocess.Popen(["bash", "-c", "echo child-done; (exec sleep 20) &"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
out = b""; exited_at = None
while True:
    r, _, _ = select.select([p.stdout], [], [], 0.1)
    if r:
        chunk = os.read(p.stdout.fileno(), 65536)
        if not chunk:
            break
        out += chunk
    if p.poll() is not None:
        exited_at = exited_at or time.time()
        if time.time() - exited_at > 0.3:
            break
print("done", p.returncode, out)
