# Look-alike: run 1 is still running (a live process holding flock(LOCK_EX), busy for 16 s, then
# it exits and the lock goes away); run 2 waits in flock().
import fcntl, os, subprocess, sys, tempfile

lock_path = os.path.join(tempfile.mkdtemp(), "update.lock")
RUN1 = ("import fcntl, os, sys, time\n"
        "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "print('run 1 holds the lock', flush=True)\n"
        "time.sleep(16)\n")
r1 = subprocess.Popen([sys.executable, "-c", RUN1, lock_path], stdout=subprocess.PIPE)
print(r1.stdout.readline().decode().strip(), flush=True)
fd = os.open(lock_path, os.O_RDWR | os.O_CREAT)
print("ready", flush=True)
fcntl.flock(fd, fcntl.LOCK_EX)
print("run 2 got the lock")
r1.wait()
