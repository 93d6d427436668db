import socket
import subprocess
import sys

import grpc


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def run(server_mode: str, timeout=None) -> None:
    port = free_port()
    server = subprocess.Popen([sys.executable, "server.py", str(port), server_mode])
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    get = channel.unary_unary("/features.Store/Get")
    print("ready", flush=True)
    try:
        reply = get(b"user-42", wait_for_ready=True, timeout=timeout)   # no deadline: wait for the server
        print("client:", reply.decode(), flush=True)
    except grpc.RpcError as exc:
        print("client: call failed:", exc.code(), "- server exit code", server.poll(), flush=True)
    channel.close()
    server.terminate()
    server.wait()
