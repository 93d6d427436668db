# gptme/gptme#3756 and NousResearch/hermes-agent#12647 (also python/cpython#75893): a captured
# command starts a background process that inherits the stdout/stderr pipe; the command exits,
# but the reader never sees EOF because the background descendant keeps the write end open.
import subprocess
print("ready", flush=True)
r = subprocess.run(["bash", "-c", "echo child-done; (exec sleep infinity) &"], capture_output=True)
print("done", r.returncode, r.stdout)
