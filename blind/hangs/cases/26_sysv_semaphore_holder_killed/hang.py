# bitwiseworks/qtbase-os2#27 ("if a process that acquired ... a QSystemSemaphore crashes, these
# resources won't be released ... another process waiting ... will continue waiting forever"; the
# same in fachat/GeckOS-V2#51): a System V semaphore guarding a shared resource is taken without
# SEM_UNDO by a worker that is then killed; the next user blocks in semop() forever.
# sysv_ipc 1.1.0 (default undo=False).
import os, signal, subprocess, sys
import sysv_ipc

sem = sysv_ipc.Semaphore(None, sysv_ipc.IPC_CREX, initial_value=1)
try:
    WORKER = ("import sys, time, sysv_ipc\n"
              "s = sysv_ipc.Semaphore(int(sys.argv[1]))\n"
              "s.acquire()\n"
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
