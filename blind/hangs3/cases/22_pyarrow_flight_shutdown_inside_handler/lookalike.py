# Look-alike: the action handler waits 16 s for a slow backend (a threading.Event a timer sets),
# replies, and the main thread then shuts the server down.
import threading
import pyarrow.flight as flight

backend_ready = threading.Event()


class ProxyServer(flight.FlightServerBase):
    def do_action(self, context, action):
        if action.type == "flush":
            print("ready", flush=True)
            backend_ready.wait()
            yield flight.Result(b"flushed")


server = ProxyServer("grpc://127.0.0.1:0")
client = flight.FlightClient(f"grpc://127.0.0.1:{server.port}")
threading.Timer(16, backend_ready.set).start()
print([r.body.to_pybytes() for r in client.do_action(flight.Action("flush", b""))])
client.close()
server.shutdown()
server.wait()
print("done")
