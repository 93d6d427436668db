# Look-alike: the same semaphore held (without SEM_UNDO) by a live worker that releases it after
# 16 s; the next user waits in semop().
import os, subprocess, sys
import sysv_ipc

sem = sysv_ipc.Semaphore(None, sysv_ipc.IPC_CREX, initial_value=1)
try:
    WORKER = ("import sys, time, sysv_ipc\n"
              "s = sysv_ipc.Semaphore(int(sys.argv[1]))\n"
              "s.acquire()\n"
              "print('held', flush=True)\n"
              "time.sleep(16)\n"
              "s.release()\n")
    w = subprocess.Popen([sys.executable, "-c", WORKER, str(sem.key)], stdout=subprocess.PIPE)
    assert w.stdout.readline().strip() == b"held"
    print("ready", flush=True)
    sem.acquire()
    print("got the resource")
    sem.release()
    w.wait()
finally:
    sem.remove()
