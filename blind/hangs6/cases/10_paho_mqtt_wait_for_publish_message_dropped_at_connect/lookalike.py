# Look-alike: same client and wait_for_publish() on paho-mqtt 1.5.1, connected before the network thread
# starts (as the documentation's examples do), QoS 1: the broker is paused (SIGSTOP, as under a debugger)
# and resumed 16 s later, then acknowledges the message. CPython 3.11.7.
import os
import signal
import threading
import time

from common import broker, make_client

b, port = broker()
client = make_client()
client.connect("127.0.0.1", port)
client.loop_start()
time.sleep(0.5)
os.kill(b.pid, signal.SIGSTOP)
threading.Timer(16.0, os.kill, (b.pid, signal.SIGCONT)).start()
info = client.publish("jobs/status", "done", qos=1)
print("ready", flush=True)
info.wait_for_publish()
print("published", flush=True)
client.disconnect()
client.loop_stop()
b.terminate()
b.wait()
