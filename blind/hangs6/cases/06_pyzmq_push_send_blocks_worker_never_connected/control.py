# Control: the fix: a send timeout (SNDTIMEO = 3 s); send() raises zmq.Again and the ventilator reports
# that no worker took a task. pyzmq 25.1.2 on CPython 3.11.7.
from common import run

run("broken", send_timeout_ms=3000)
