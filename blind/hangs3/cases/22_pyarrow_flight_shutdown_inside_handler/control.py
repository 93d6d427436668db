# Control: the fix of texera#5076: the handler yields its reply first and starts the shutdown in a
# separate thread; the client gets "Bye bye!", the server stops.
import threading
import pyarrow.flight as flight


class ProxyServer(flight.FlightServerBase):
    def do_action(self, context, action):
        if action.type == "shutdown":
            print("ready", flush=True)
            yield flight.Result(b"Bye bye!")
            threading.Thread(target=self.shutdown, name="shutdown").start()


server = ProxyServer("grpc://127.0.0.1:0")
client = flight.FlightClient(f"grpc://127.0.0.1:{server.port}")
print([r.body.to_pybytes() for r in client.do_action(flight.Action("shutdown", b""))])
server.wait()
print("done")
