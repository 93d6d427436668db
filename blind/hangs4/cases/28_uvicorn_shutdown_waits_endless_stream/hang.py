# Kludex/uvicorn#2829 ("Emit http.disconnect ASGI receive() event on server shutting down for streaming
# responses"; also sysid/sse-starlette#124 "shutting down the server hangs with 'Waiting for connections
# to close.'"): when told to exit (SIGTERM, should_exit) uvicorn's graceful shutdown waits for every
# connection to close, but a streaming (SSE) response is never told the server is stopping, so it
# streams on; the subscribed client reads until the stream ends. The server waits for the client, the client for the server, while
# events keep flowing. uvicorn 0.34.0 (h11) on CPython 3.11.7; the client is a child process.
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
server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))


def stop_when_subscribed():
    print(client.stdout.readline().strip(), flush=True)
    server.should_exit = True                      # deploy: the server is told to stop (as on SIGTERM)
    print("ready", flush=True)


threading.Thread(target=stop_when_subscribed, daemon=True).start()
server.run()                                       # graceful shutdown waits for the stream to close
print(client.stdout.read().strip())
client.wait()
print("server stopped")
