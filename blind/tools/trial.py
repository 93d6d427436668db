#!/work/venv/bin/python
"""Run PY SCRIPT [args] in its own session for at most T seconds (env T, default 25); print output,
say whether it ended, then SIGKILL every process of that session (by pid) and its process group."""
import os, signal, subprocess, sys, time
import psutil
T = float(os.environ.get("T", "25"))
p = subprocess.Popen(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                     start_new_session=True)
t0 = time.time()
try:
    out, _ = p.communicate(timeout=T)
    print(out.decode(errors="replace")[-3000:])
    print(f"ENDED rc={p.returncode} after {time.time()-t0:.1f}s")
except subprocess.TimeoutExpired:
    print(f"STILL RUNNING after {T}s (killing session {p.pid})")
    print(subprocess.run(["ps", "--ppid", str(p.pid), "-p", str(p.pid), "-s", str(p.pid), "-o", "pid,ppid,stat,wchan:20,cmd"], capture_output=True, text=True).stdout)
finally:
    try:
        kids = [c.pid for c in psutil.Process(p.pid).children(recursive=True)]
    except psutil.Error:
        kids = []
    for k in kids:
        try:
            os.kill(k, signal.SIGKILL)
        except ProcessLookupError:
            pass
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                if os.getsid(int(pid)) == p.pid:
                    os.kill(int(pid), signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
    try:
        os.killpg(p.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        out, _ = p.communicate(timeout=5)
        if out: print(out.decode(errors="replace")[-2000:])
    except Exception:
        pass
