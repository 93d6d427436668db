# Control: the fix Qt applies on Unix (QSystemSemaphore uses SEM_UNDO): the worker takes the
# semaphore with undo=True, so the kernel gives it back when the worker dies.
import os, signal, subprocess, sys
import sysv_ipc

sem = sysv_ipc.Semaphore(None, sysv_ipc.IPC_CREX, initial_value=1)
try:
    WORKER = ("import sys, time, sysv_ipc\n"
              "s = sysv_ipc.Semaphore(int(sys.argv[1]))\n"
              "s.undo = True\ns.acquire()\n"
              "print('held', flush=True)\n"
              "time.sleep(3600)\n")
    w = subprocess.Popen([sys.executable, "-c", WORKER, str(sem.key)], stdout=subprocess.PIPE)
    assert w.stdout.readline().strip() == b"held"
    os.kill(w.pid, signal.SIGKILL)     # the worker crashes holding the semaphore
    w.wait()
    print("ready", flush=True)
    sem.acquire()                      # semop(-1), no timeout
    print("got the resource")
    sem.release()
finally:
    sem.remove()
