# gevent/gevent#1735 (a capture library's native thread sets a gevent Event: "the thread that sets the
# Event tells the main thread's hub to run the callback that will wake up the sleeping Event waiters.
# Because this is coming from another thread, the hub doesn't actually do anything with this; it just
# sits there"; only a timer that happened to be pending woke it) and gevent/gevent#891: a gevent Event
# set from a native thread is a lost wake-up: the callback is queued on the hub's loop without waking it,
# and with nothing else due (the service's listening socket is idle) the hub sleeps in epoll_wait forever
# and the waiting greenlet never resumes. gevent 20.12.0 on CPython 3.9.18.
from service import run

run("native-thread", 0.5)
