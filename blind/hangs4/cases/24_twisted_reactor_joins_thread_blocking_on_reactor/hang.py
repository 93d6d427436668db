# Tribler/tribler#1494/#1495 ("No blocking_call for TorrentChecking thread"; "the torrent_checker.shutdown
# is blocking on the reactor thread, but doesn't use a timeout value for the join ... The torrent_checking
# thread itself accesses the database through the reactor thread, and hence it might cause a deadlock"):
# a worker thread that runs its database calls on the Twisted reactor (blockingCallFromThread) is joined
# from the reactor thread during shutdown: the reactor waits for the thread, the thread waits for the
# reactor to run its call. Twisted 24.3.0 on CPython 3.11.7.
import threading
import time

from twisted.internet import reactor
from twisted.internet.threads import blockingCallFromThread

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
    checker.join()                             # on the reactor thread: nobody will run db_update now


def start():
    checker.start()
    reactor.callLater(0.3, reactor.stop)


reactor.addSystemEventTrigger("before", "shutdown", shutdown)
reactor.callWhenRunning(start)
reactor.run()
print("checked", db["checked"])
