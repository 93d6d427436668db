# Control: the fixed release paho-mqtt 2.0.0 (#796): the dropped QoS 0 message is marked, and
# wait_for_publish() raises RuntimeError instead of waiting; the program reports it and ends.
# CPython 3.11.7.
from common import broker, make_client

b, port = broker()
client = make_client()
client.loop_start()
client.connect("127.0.0.1", port)
info = client.publish("jobs/status", "done")
print("ready", flush=True)
try:
    info.wait_for_publish()
    print("published", flush=True)
except RuntimeError as exc:
    print("publish failed:", exc, flush=True)
client.disconnect()
client.loop_stop()
b.terminate()
b.wait()
