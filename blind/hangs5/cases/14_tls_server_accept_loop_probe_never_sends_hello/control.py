# Control: the fix of nesquena/hermes-webui#4727: get_request() accepts the raw socket and wraps it with
# do_handshake_on_connect=False, so the stalled handshake sits in its own request thread and the
# accept loop serves the dashboard's request. CPython 3.11.7.
from app import run

run("lazy-handshake", 3600)
