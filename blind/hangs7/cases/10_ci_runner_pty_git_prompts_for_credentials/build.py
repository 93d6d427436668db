"""The build script the runner executes on its pty: checks the model repository with `git ls-remote`."""
import os
import subprocess
import sys

url = sys.argv[1]
print("build: checking", url, flush=True)
r = subprocess.run(["git", "ls-remote", url], capture_output=True, text=True)   # no timeout
print("build: git exit code", r.returncode, r.stderr.strip()[-120:], flush=True)
