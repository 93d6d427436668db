import multiprocessing as mp
import os
import signal
import threading
import time

ctx = mp.get_context("fork")
exit_event = ctx.Event()                           # the server's shutdown event
worker_exit = ctx.Event()                          # tells the device worker to stop
flag = {"stop": False}


def set_in_handler(signum, frame) -> None:
    print(os.getpid(), "SIGTERM: setting the exit event", flush=True)
    exit_event.set()                              # runs inside the interrupted exit_event.wait()
    print(os.getpid(), "exit event set", flush=True)


def flag_in_handler(signum, frame) -> None:
    flag["stop"] = True                           # the handler only records the request


def device_worker() -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    worker_exit.wait()
    print(os.getpid(), "device worker stopped", flush=True)


def run(mode: str) -> None:
    poll = mode == "flag"
    child = ctx.Process(target=device_worker, name="device-worker")
    child.start()
    signal.signal(signal.SIGTERM, flag_in_handler if poll else set_in_handler)
    time.sleep(0.5)
    if mode == "late-set":
        threading.Timer(16.0, exit_event.set).start()          # the normal shutdown path, no signal
    else:
        threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGTERM)).start()   # stands for the init system
    print("ready", flush=True)
    if poll:
        while not exit_event.wait(0.2):
            if flag["stop"]:
                exit_event.set()
    else:
        exit_event.wait()                          # DeviceServer: serve until the exit event is set
    worker_exit.set()
    child.join()
    print("server stopped", flush=True)
