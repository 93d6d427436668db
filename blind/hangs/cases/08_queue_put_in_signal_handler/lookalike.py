# Look-alike: a SIGUSR1 handler that enqueues into a queue.Queue, and a main thread blocked in
# get() on that queue; the signal comes 16 s later from a timer thread and wakes it.
import os, queue, signal, threading

signals = queue.PriorityQueue()

def handler(signum, frame):
    signals.put((0, signum))

signal.signal(signal.SIGUSR1, handler)
threading.Timer(16, os.kill, (os.getpid(), signal.SIGUSR1)).start()
print("ready", flush=True)
print("got", signals.get())
