# MagnaCapax/PMSS#663 ("update.lock fd-inheritance: orphaned child processes hold LOCK_EX
# indefinitely, blocking next update.php invocation"; fix: MahoCommerce/maho#1316, O_CLOEXEC):
# run 1 takes flock(LOCK_EX) on the lock file and starts a helper that inherits the descriptor;
# the helper hangs (a version probe that never returns); run 1 exits. Run 2 blocks in flock().
import fcntl, os, subprocess, sys, tempfile

lock_path = os.path.join(tempfile.mkdtemp(), "update.lock")
RUN1 = ("import fcntl, os, subprocess, sys\n"
        "fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "subprocess.Popen(['sleep', 'infinity'], pass_fds=[fd], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)   # the probe inherits fd\n"
        "print('run 1 done', flush=True)\n")
r1 = subprocess.run([sys.executable, "-c", RUN1, lock_path], capture_output=True, timeout=30)
print(r1.stdout.decode().strip(), flush=True)
fd = os.open(lock_path, os.O_RDWR | os.O_CREAT)
print("ready", flush=True)
fcntl.flock(fd, fcntl.LOCK_EX)      # run 2
print("run 2 got the lock")
