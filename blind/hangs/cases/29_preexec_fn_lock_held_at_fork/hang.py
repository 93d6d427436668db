# kirodotdev/KiroCrew#935 ("a child deadlocked in a futex, never exec'd"; preexec_fn forces fork
# and runs Python in the child) and borgbase/vorta#187/#194: a preexec_fn touches an application
# lock that another thread held at fork time; the child never reaches exec, and the parent waits
# in Popen's unbounded os.read(errpipe_read).
import subprocess, threading, time

config_lock = threading.Lock()
limits = {"nofile": 1024}

def refresh_config():                   # a periodic task of the service
    with config_lock:
        held.set()
        time.sleep(10)                  # slow I/O while holding the lock

def resource_limit_preexec():
    with config_lock:                   # runs in the forked child, before exec
        n = limits["nofile"]
    import resource
    resource.setrlimit(resource.RLIMIT_NOFILE, (n, n))

held = threading.Event()
threading.Thread(target=refresh_config, daemon=True).start()
held.wait(10)
print("ready", flush=True)
p = subprocess.Popen(["true"], preexec_fn=resource_limit_preexec)
print("spawned", p.pid, p.wait())
