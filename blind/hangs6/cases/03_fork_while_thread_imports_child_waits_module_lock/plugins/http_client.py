# A module whose import takes a while (in the issue: h11/httpx, pulled in by the health-check server's
# thread). Its body reports that the import is under way and then waits for the gate (the slow part).
from plugins import gate

gate.started.set()
gate.proceed.wait()

def get(url: str) -> str:
    return "200 OK " + url
