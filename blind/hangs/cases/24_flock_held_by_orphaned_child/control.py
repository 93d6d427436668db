# Control: the fix of maho#1316: the lock descriptor is not inherited by spawned helpers, so
# the lock goes away when run 1 exits although the helper still runs (it is short here).
import fcntl, os, subprocess, sys, tempfile

lock_path = os.path.join(tempfile.mkdtemp(), "update.lock")
RUN1 = ("import fcntl, os, subprocess, sys\n"
        "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "subprocess.Popen(['sleep', '20'], close_fds=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)   # fd not inherited (O_CLOEXEC)\n"
        "print('run 1 done', flush=True)\n")
r1 = subprocess.run([sys.executable, "-c", RUN1, lock_path], capture_output=True, timeout=30)
print(r1.stdout.decode().strip(), flush=True)
fd = os.open(lock_path, os.O_RDWR | os.O_CREAT)
print("ready", flush=True)
fcntl.flock(fd, fcntl.LOCK_EX)      # run 2
print("run 2 got the lock")
