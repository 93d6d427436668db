# Control: the fix of borgbase/vorta#194 / intel/gprofiler#931: no preexec_fn (read what it needs
# before spawning and let the exec'd program apply it; here: a plain spawn with
# start_new_session), so no Python code runs between fork and exec.
import subprocess, threading, time

config_lock = threading.Lock()
limits = {"nofile": 1024}

def refresh_config():
    with config_lock:
        held.set()
        time.sleep(10)

held = threading.Event()
threading.Thread(target=refresh_config, daemon=True).start()
held.wait(10)
print("ready", flush=True)
p = subprocess.Popen(["true"], start_new_session=True)
print("spawned", p.pid, p.wait())
