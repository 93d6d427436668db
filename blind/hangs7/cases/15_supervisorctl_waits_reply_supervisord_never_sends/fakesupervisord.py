"""Stand-in for supervisord's XML-RPC interface on its Unix socket. getAPIVersion answers at once; startProcess
answers after `delay` seconds, or never (delay < 0: the reply is dropped, as in Supervisor/supervisor#942)."""
import socketserver
import sys
import threading
import xmlrpc.server

SOCK, DELAY = sys.argv[1], float(sys.argv[2])


class Handler(xmlrpc.server.SimpleXMLRPCRequestHandler):
    rpc_paths = ("/RPC2",)
    disable_nagle_algorithm = False          # a Unix socket has no TCP_NODELAY

    def log_message(self, *a) -> None:
        pass


class UnixXMLRPCServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer,
                       xmlrpc.server.SimpleXMLRPCDispatcher):
    daemon_threads = True
    logRequests = False

    def __init__(self, path: str) -> None:
        xmlrpc.server.SimpleXMLRPCDispatcher.__init__(self, allow_none=False, encoding=None)
        socketserver.UnixStreamServer.__init__(self, path, Handler)


def start_process(name: str, wait: bool = True) -> bool:
    if DELAY < 0:
        threading.Event().wait()          # the reply is never sent; the connection stays open
    threading.Event().wait(DELAY)
    return True


srv = UnixXMLRPCServer(SOCK)
srv.register_function(lambda: "3.0", "supervisor.getAPIVersion")
srv.register_function(lambda: "3.0", "supervisor.getVersion")
srv.register_function(lambda: "4.2.5", "supervisor.getSupervisorVersion")
srv.register_function(start_process, "supervisor.startProcess")
print("listening", flush=True)
srv.serve_forever()
