# The tool (an hping3 stand-in): sends one probe per SIGALRM tick, driven by alarm(); it sleeps in
# pause() between ticks and exits after 3 probes (argv: "alarm", or "sleep SECONDS" for the look-alike).
import signal
import sys
import time

if sys.argv[1] == "sleep":
    time.sleep(float(sys.argv[2]))
    print("probe done", flush=True)
    sys.exit(0)

sent = 0


def tick(signum, frame):
    global sent
    sent += 1
    print("probe", sent, flush=True)
    if sent < 3:
        signal.alarm(1)


signal.signal(signal.SIGALRM, tick)
signal.alarm(1)
while sent < 3:
    signal.pause()
