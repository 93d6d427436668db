import os
import socket
import subprocess
import tempfile
import time

import paho.mqtt.client as mqtt


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def broker() -> tuple[subprocess.Popen, int]:
    port = free_port()
    conf = os.path.join(tempfile.mkdtemp(prefix="mosq-"), "mosquitto.conf")
    with open(conf, "w") as f:
        f.write(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n")
    b = subprocess.Popen(["mosquitto", "-c", conf], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 10
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.05)
    return b, port


def make_client() -> mqtt.Client:
    try:
        return mqtt.Client(mqtt.CallbackAPIVersion.VERSION1)  # paho-mqtt 2.x
    except AttributeError:
        return mqtt.Client()                                 # paho-mqtt 1.x
