# apache/texera#5076 / pyarrow.flight.FlightServerBase.shutdown() ("blocks until current requests
# finish; do not call it from within a Flight method"): a "shutdown" action handler calls
# self.shutdown() directly; the server waits for in-flight RPCs to finish, including the one running
# the handler; the client waits for the action's result. pyarrow 14.0.2 (numpy 1.26.4) on CPython 3.11.7.
import pyarrow.flight as flight


class ProxyServer(flight.FlightServerBase):
    def do_action(self, context, action):
        if action.type == "shutdown":
            print("ready", flush=True)
            self.shutdown()                      # waits for this very RPC to finish
            yield flight.Result(b"Bye bye!")


server = ProxyServer("grpc://127.0.0.1:0")
client = flight.FlightClient(f"grpc://127.0.0.1:{server.port}")
print([r.body.to_pybytes() for r in client.do_action(flight.Action("shutdown", b""))])
server.wait()
print("done")
