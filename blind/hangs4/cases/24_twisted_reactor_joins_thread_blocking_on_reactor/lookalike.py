# Look-alike: the same shutdown trigger joins the checker thread on the reactor thread (Twisted 24.3.0,
# CPython 3.11.7), but the checker's last step (16 s) does not need the reactor; it then exits, the join
# returns and the reactor stops.
import threading
import time

from twisted.internet import reactor
from twisted.internet.threads import blockingCallFromThread

db = {"checked": 0}
stopping = threading.Event()
in_flight = threading.Event()


def db_update(n):                              # database access must happen on the reactor thread
    db["checked"] += n
    return db["checked"]


def torrent_checker():
    blockingCallFromThread(reactor, db_update, 1)
    in_flight.set()
    stopping.wait()
    time.sleep(16)                             # finishing a tracker request, without the reactor


checker = threading.Thread(target=torrent_checker, name="TorrentChecker")


def shutdown():
    stopping.set()
    in_flight.wait()
    print("ready", flush=True)
    checker.join()                             # on the reactor thread: nobody will run db_update now


def start():
    checker.start()
    reactor.callLater(0.3, reactor.stop)


reactor.addSystemEventTrigger("before", "shutdown", shutdown)
reactor.callWhenRunning(start)
reactor.run()
print("checked", db["checked"])
