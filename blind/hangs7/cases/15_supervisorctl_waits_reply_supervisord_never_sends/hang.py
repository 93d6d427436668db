# Supervisor/supervisor#942 ("supervisorctl start xxx command stuck": supervisorctl blocked in recvfrom on the Unix
# socket because supervisord read the request and never sent the HTTP response): supervisorctl's XML-RPC transport
# has no timeout. The deploy script runs `supervisorctl start train-worker` (subprocess.run, no timeout); the daemon
# (a stand-in speaking supervisord's XML-RPC on its Unix socket) accepted startProcess and drops the reply; only the
# daemon could still answer. supervisor 4.2.5 (supervisorctl), CPython 3.11.7.
from common import run

if __name__ == "__main__":
    run(delay=-1)
