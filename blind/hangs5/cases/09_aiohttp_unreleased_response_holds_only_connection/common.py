import asyncio
import subprocess
import sys

import aiohttp


def start_server():
    proc = subprocess.Popen([sys.executable, "server.py"], stdout=subprocess.PIPE, text=True)
    return proc, int(proc.stdout.readline())


def session():
    # one connection to the service (limit=1); no overall timeout (large downloads)
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=1),
                                 timeout=aiohttp.ClientTimeout(total=None))
