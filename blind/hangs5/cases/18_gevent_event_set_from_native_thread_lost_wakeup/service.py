import _thread
import time

import gevent
import gevent.event
import gevent.server


def run(set_from, seconds):
    frame_ready = gevent.event.Event()

    def handle(sock, addr):
        sock.sendall(b"camera service\n")
        sock.close()

    server = gevent.server.StreamServer(("127.0.0.1", 0), handle)   # the service keeps listening
    server.start()

    def capture_callback():                 # called on the capture library's own native thread
        time.sleep(seconds)
        frame_ready.set()

    if set_from == "native-thread":
        _thread.start_new_thread(capture_callback, ())
    else:
        gevent.spawn_later(seconds, frame_ready.set)
    print("ready", flush=True)
    frame_ready.wait()                      # the request greenlet waits for the frame
    print("frame captured", flush=True)
    server.stop()
