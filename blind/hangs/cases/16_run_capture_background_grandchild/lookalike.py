# Look-alike: the captured command starts a background helper that holds the pipe for 16 s and
# then exits: run() gets EOF then.
import subprocess
print("ready", flush=True)
r = subprocess.run(["bash", "-c", "echo child-done; (exec sleep 16) &"], capture_output=True)
print("done", r.returncode, r.stdout)
