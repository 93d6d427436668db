# Control: the shutdown trigger no longer blocks the reactor thread: it joins the checker in a thread
# (deferToThread) and returns the Deferred, so the reactor keeps serving the checker's last database
# call, the checker exits and shutdown completes (the point of Tribler PR #1495). Twisted 24.3.0,
# CPython 3.11.7.
import threading
import time

from twisted.internet import reactor
from twisted.internet.threads import blockingCallFromThread, deferToThread

db = {"checked": 0, "calls": 0}
requested = [0]
stopping = threading.Event()


def db_update(n):                              # database access must happen on the reactor thread
    db["checked"] += n
    db["calls"] += 1
    return db["checked"]


def torrent_checker():
    while not stopping.is_set():
        requested[0] += 1
        blockingCallFromThread(reactor, db_update, 1)
    requested[0] += 1
    blockingCallFromThread(reactor, db_update, 0)       # flush the final state on the way out


checker = threading.Thread(target=torrent_checker, name="TorrentChecker")


def shutdown():
    stopping.set()
    while requested[0] <= db["calls"]:         # until the checker waits for a call the reactor has not run
        time.sleep(0.001)
    print("ready", flush=True)
    return deferToThread(checker.join)         # the fix: join off the reactor, which keeps running


def start():
    checker.start()
    reactor.callLater(0.3, reactor.stop)


reactor.addSystemEventTrigger("before", "shutdown", shutdown)
reactor.callWhenRunning(start)
reactor.run()
print("checked", db["checked"])
