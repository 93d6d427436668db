# hashview/hashview#528 ("Werkzeug wraps the LISTENING socket in TLS ... the handshake runs inline,
# blocking, with no deadline, on the single serve_forever thread. One client that completes the TCP
# handshake and never sends a ClientHello therefore stops the server accepting anything") and
# nesquena/hermes-webui#4727 (same accept-loop wedge with http.server and a health-check probe): the
# dashboard's client request waits for the server, whose accept loop waits for a ClientHello from a
# probe of another job, outside this program's tree, which may close some day. CPython 3.11.7 (ssl,
# http.server in a child process, urllib.request).
from app import run

run("wrapped-listener", 3600)
