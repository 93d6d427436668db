# eclipse-paho/paho.mqtt.python#549 ("loop_start() before connect()": "the message is not published and the
# wait_for_publish() call hangs"; fixed by #796, "Fix wait_for_publish that could hang for QoS=0 message"):
# the network thread is started before connect(); its first loop iteration reconnects and drops the queued
# QoS 0 publish without marking it, so wait_for_publish() waits on its condition forever; the broker
# (mosquitto, a child) is alive and idle. paho-mqtt 1.5.1 on CPython 3.11.7.
from common import broker, make_client

b, port = broker()
client = make_client()
client.loop_start()
client.connect("127.0.0.1", port)
info = client.publish("jobs/status", "done")
print("ready", flush=True)
info.wait_for_publish()
print("published", flush=True)
client.disconnect()
client.loop_stop()
b.terminate()
b.wait()
