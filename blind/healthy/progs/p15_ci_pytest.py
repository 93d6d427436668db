# interpreter: blind
# shape: a CI step running a pytest suite (a module-scoped HTTP server fixture, tests that start subprocesses,
# wait for a port, compute with numpy, sleep) as a child process, its output captured to a log
import os
import subprocess
import sys


def main() -> int:
    print("ready", flush=True)
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "p15_ci_suite")
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", here],
        capture_output=True, text=True, timeout=120,
    )
    print(r.stdout.strip().splitlines()[-1], flush=True)
    return r.returncode


if __name__ == "__main__":
    sys.exit(main())
