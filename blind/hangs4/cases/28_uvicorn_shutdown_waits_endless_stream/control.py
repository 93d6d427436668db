# Control: the fix applied in practice for this uvicorn behaviour (nithiink/yapcode#25, datasette#2890):
# timeout_graceful_shutdown=3, after which uvicorn cancels the streaming task and closes the connection;
# the client sees the end of the stream and the program ends. uvicorn 0.34.0 on CPython 3.11.7.
import socket
import subprocess
import sys
import threading

import uvicorn

from app import app

probe = socket.socket()
probe.bind(("127.0.0.1", 0))
port = probe.getsockname()[1]
probe.close()
client = subprocess.Popen([sys.executable, "client.py", str(port)], stdout=subprocess.PIPE, text=True)
server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", timeout_graceful_shutdown=3))


def stop_when_subscribed():
    print(client.stdout.readline().strip(), flush=True)
    server.should_exit = True                      # deploy: the server is told to stop (as on SIGTERM)
    print("ready", flush=True)


threading.Thread(target=stop_when_subscribed, daemon=True).start()
server.run()                                       # graceful shutdown waits for the stream to close
print(client.stdout.read().strip())
client.wait()
print("server stopped")
